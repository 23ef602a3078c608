// Runs every test/sql/*.slt file against one real server, file after file; each file starts from an empty
// database (the previous file's tables are dropped), so files cannot interfere. One server rather than one per
// file keeps start-up cost flat as the number of files grows.
import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseSlt, type SltRecord } from './slt-format.js';
import { parseJsonExactIntegers } from './exact-json.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, rows } from '../helpers/http.js';

const dir = import.meta.dirname;
const files = readdirSync(dir).filter((name) => name.endsWith('.slt')).sort();

function describe(columns: unknown): string {
  // An array column is reported as {type: ARRAY, dim, elemType}; the cases spell it as its type name (DOUBLE[]).
  return (columns as { name: string; type: string; dim?: number; elemType?: string }[])
    .map((column) => `${column.name} ${column.type === 'ARRAY' ? `${column.elemType ?? ''}${'[]'.repeat(column.dim ?? 0)}` : column.type}`)
    .join(', ');
}

async function check(baseUrl: string, record: SltRecord, where: string): Promise<string | undefined> {
  const response = await exec(baseUrl, record.sql);
  const body = response.json as Record<string, unknown> | undefined;
  if (record.kind === 'ok') return response.status === 200 ? undefined : `${where}: expected success, got ${response.status} ${response.text}`;
  if (record.kind === 'error') {
    if (response.status === 200) return `${where}: expected error '${record.message}', got ${response.text}`;
    if (body?.['error'] !== record.message) return `${where}: expected error '${record.message}', got '${String(body?.['error'])}'`;
    if (record.position !== undefined && body['position'] !== record.position) return `${where}: expected position ${record.position}, got ${String(body['position'])}`;
    return undefined;
  }
  if (response.status !== 200) return `${where}: query failed: ${response.text}`;
  if (record.columns !== undefined && describe(body?.['columns']) !== record.columns) return `${where}: columns ${describe(body?.['columns'])} != ${record.columns}`;
  // Re-read exactly: JSON.parse would round 64-bit integers beyond 2^53 to one double.
  const exactBody = parseJsonExactIntegers(response.text) as Record<string, unknown>;
  const actual = JSON.stringify(exactBody['dataset']);
  const expected = JSON.stringify(record.rows);
  return actual === expected ? undefined : `${where}: rows\n  actual:   ${actual}\n  expected: ${expected}`;
}

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 1 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

async function dropAllTables(baseUrl: string): Promise<void> {
  for (const [name] of await rows(baseUrl, 'select table_name from tables()')) {
    const response = await exec(baseUrl, `drop table "${String(name)}"`);
    if (response.status !== 200) throw new Error(`cannot drop ${String(name)}: ${response.text}`);
  }
}

for (const file of files) {
  test.serial(file, async (t) => {
    const records = parseSlt(readFileSync(join(dir, file), 'utf8'), file);
    await dropAllTables(server.baseUrl);
    const failures: string[] = [];
    for (const record of records) {
      const failure = await check(server.baseUrl, record, `${file}:${record.line} ${record.sql.split('\n')[0] ?? ''}`);
      if (failure !== undefined) failures.push(failure);
    }
    t.deepEqual(failures, [], `${failures.length} of ${records.length} cases failed`);
    t.log(`${records.length} cases`);
  });
}
