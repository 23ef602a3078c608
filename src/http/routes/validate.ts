// GET /api/v1/sql/validate: compiles without running. Queries answer with their columns and timestamp
// index; other statements with `{"queryType": ...}` once the tables they act on are found. Nothing is executed
// or created.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkWriteTargets, compile } from '../../sql/compiler.js';
import { checkQueryLength, parseExecuteParams } from '../query-params.js';
import { sendJson, sendQueryError } from '../error-response.js';
import { columnsJson } from '../../output/json-writer.js';
import { jsonString } from '../../types/value-format.js';
import { isEmptyStatement } from '../../sql/compiler.js';
import type { SqlRouteDeps } from './execute.js';
import { badUtf8QueryBody, emptyQueryBody } from './execute.js';

export function handleValidate(req: IncomingMessage, res: ServerResponse, deps: SqlRouteDeps): void {
  const params = parseExecuteParams(req.url ?? '');
  if (params.badUtf8QueryEcho !== undefined) {
    sendJson(res, 400, badUtf8QueryBody(params.badUtf8QueryEcho));
    return;
  }
  if (isEmptyStatement(params.query)) {
    sendJson(res, 200, emptyQueryBody(params.version, params.query));
    return;
  }
  try {
    checkQueryLength(params.query, deps.queryTextLengthMax);
    const compiled = compile(params.query, deps.catalog);
    if (compiled.kind === 'write') {
      checkWriteTargets(compiled.statement, deps.catalog);
      sendJson(res, 200, `{"queryType":${jsonString(compiled.queryType)}}`);
      return;
    }
    const factory = compiled.factory;
    sendJson(res, 200, `{"query":${jsonString(params.query)},"columns":${columnsJson(factory.columns)},"timestamp":${factory.timestampIndex}}`);
  } catch (error) {
    sendQueryError(res, params.query, error);
  }
}
