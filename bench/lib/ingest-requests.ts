// Requests the ingestion benches make of a server: a POST over a kept-alive agent (ILP bodies, CSV uploads)
// and a table's row count, which the benches poll until the rows they sent are visible.
import { request, type Agent } from 'node:http';
import type { TestServer } from '../../test/helpers/server.js';

export function post(agent: Agent, port: number, path: string, body: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'Content-Length': String(body.length), ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Rows of `table` (0 while it does not exist). */
export async function tableRowCount(server: TestServer, table: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent(`select count() from ${table}`)}`);
  const body = (await response.json()) as { dataset?: number[][] };
  return body.dataset?.[0]?.[0] ?? 0;
}
