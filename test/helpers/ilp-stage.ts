// Parses and stages one ILP request's lines as a worker does, for in-process engine tests that commit them.
import type { Engine } from '../../src/engine/engine.js';
import type { IlpCommitRequest } from '../../src/engine/writer-client.js';
import { IlpRequest } from '../../src/ilp/ilp-request.js';

export function stageIlp(engine: Engine, lines: string): IlpCommitRequest {
  const ilp = new IlpRequest({
    dbDir: engine.dbDir, catalog: engine.catalog, lineBytesMax: 1 << 20, autoCreateTables: true, autoCreateColumns: true, partitionBy: 'DAY', spillBytes: 1 << 20,
  }, 'ns');
  ilp.feed(Buffer.from(lines));
  ilp.finish();
  const staged = ilp.commitRequest();
  if (staged === undefined) throw new Error('a request with rows stages them');
  return staged;
}
