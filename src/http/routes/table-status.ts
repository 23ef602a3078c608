// GET /chk?j=<table>[&f=json]: whether a table exists, as QuestDB's TableStatusCheckProcessor answers (the web
// console and the qdb-cli client ask it before importing). Always 200: `Exists` / `Does not exist` as text, or
// `{"status":"Exists"}` with f=json (any case); without `j`, the text `table name missing`. Names match the
// catalog case-insensitively; a name whose bytes are not UTF-8 names no table. `version` is accepted and unused.
import type { ServerResponse } from 'node:http';
import type { Catalog } from '../../sql/compiler.js';
import { decodeUtf8Strict, urlParamBytes } from '../url-param-bytes.js';

export type TableStatus = 'Exists' | 'Does not exist';

export function tableStatusOf(catalog: Catalog, nameBytes: Uint8Array): TableStatus {
  const name = decodeUtf8Strict(nameBytes);
  return name !== undefined && catalog.resolveName(name) !== undefined ? 'Exists' : 'Does not exist';
}

export function handleTableStatus(method: string, url: string, res: ServerResponse, catalog: Catalog): void {
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET', 'Content-Type': 'text/plain; charset=utf-8' }).end(`Method (${method}) not supported\r\n`);
    return;
  }
  const nameBytes = urlParamBytes(url, 'j');
  if (nameBytes === null) {
    sendStatusText(res, method, 'table name missing');
    return;
  }
  const status = tableStatusOf(catalog, nameBytes);
  const format = urlParamBytes(url, 'f');
  if (format !== null && Buffer.from(format).toString('latin1').toLowerCase() === 'json') {
    // QuestDB names the type without a charset here, unlike its /exec answers.
    res.writeHead(200, { 'Content-Type': 'application/json', 'Keep-Alive': 'timeout=5, max=10000' });
    res.end(method === 'HEAD' ? undefined : `{"status":"${status}"}`);
    return;
  }
  sendStatusText(res, method, status);
}

/** QuestDB's plain-text status answer: the message and CRLF. */
function sendStatusText(res: ServerResponse, method: string, text: string): void {
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(method === 'HEAD' ? undefined : `${text}\r\n`);
}
