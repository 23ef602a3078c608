// No ArrayBuffer is ever detached in svc's processes and threads. The first detach in a V8 isolate (a transfer
// list, a wasm memory growing) drops its "array buffer detaching" protector, and V8 recompiles every typed-array
// loop of that process or thread with a detach check per access: queries answered after one CSV import ran
// 25-40% slower per row until the worker restarted. The servers run with --trace-protector-invalidation, which
// makes V8 print a line in whichever process or thread drops a protector (cluster workers and threads share the
// flag and the output); the paths that hand buffers to threads run, and no such line may appear.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../helpers/server.js';
import { exec, execOk, rows, sqlUrl } from '../helpers/http.js';
import { importCsv } from '../helpers/upload.js';
import { sharedS3 } from '../helpers/s3-service.js';
import { metricValue, replicationEnv, replicationStore } from '../helpers/replication-cluster.js';

const TRACE = ['--trace-protector-invalidation'];
const DETACHED = 'Invalidating protector cell ArrayBufferDetaching';

function detachLines(output: string): string[] {
  return output.split('\n').filter((line) => line.includes(DETACHED));
}

/** About 13 MB without quotes: several 4 MB pieces, so the upload is converted on the parse threads. */
function largeCsv(rowCount: number): string {
  const lines = ['ts,sym,v,note'];
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < rowCount; i++) lines.push(`${new Date(start + i * 1000).toISOString()},S${i % 13},${i},n${i % 97}`);
  return `${lines.join('\n')}\n`;
}

test('the trace this test reads reports a detached buffer', (t) => {
  // Without this, a Node release that renamed the protector or dropped the flag would make the checks below blind.
  const child = spawnSync(process.execPath, [...TRACE, '-e', 'const b = new ArrayBuffer(8); structuredClone(b, { transfer: [b] });'], { encoding: 'utf8' });
  t.is(child.status, 0, child.stderr);
  t.is(detachLines(child.stdout).length, 1);
});

test('a parallel /imp, Parquet exports and read_parquet detach no buffer in the worker or its threads', async (t) => {
  const copyRoot = mkdtempSync(join(tmpdir(), 'svc-copy-root-'));
  const server = await startServer({ workers: 1, nodeArgs: TRACE, env: { SVC_HTTP_TEXT_PARSE_THREAD_COUNT: '2', SVC_CAIRO_SQL_COPY_ROOT: copyRoot } });
  try {
    const rowCount = 320_000;
    const imported = await importCsv(server.baseUrl, { name: 'imp', timestamp: 'ts', partitionBy: 'DAY', fmt: 'json' }, [{ name: 'data', filename: 'imp.csv', content: largeCsv(rowCount) }]);
    t.is(imported.status, 200, imported.text);
    t.deepEqual(await rows(server.baseUrl, 'select count(), sum(v) from imp'), [[rowCount, (rowCount * (rowCount - 1)) / 2]]);
    const exports: Record<string, string>[] = [{ fmt: 'parquet' }, { fmt: 'parquet', partition_by: 'DAY' }];
    for (const params of exports) {
      const exported = await fetch(sqlUrl(server.baseUrl, '/exp', 'select * from imp', params));
      t.is(exported.status, 200);
      t.true((await exported.arrayBuffer()).byteLength > 0);
    }
    const file = await fetch(sqlUrl(server.baseUrl, '/exp', 'select * from imp', { fmt: 'parquet' }));
    writeFileSync(join(copyRoot, 'imp.parquet'), new Uint8Array(await file.arrayBuffer()));
    t.deepEqual(await rows(server.baseUrl, "select count(), sum(v) from read_parquet('imp.parquet')"), [[rowCount, (rowCount * (rowCount - 1)) / 2]]);
    t.deepEqual(detachLines(server.output()), []);
  } finally {
    await server.stop();
    server.cleanup();
    rmSync(copyRoot, { recursive: true, force: true });
  }
});

test('the replication segment encoder thread of a primary detaches no buffer', async (t) => {
  const store = replicationStore(await sharedS3(), `svc-nodetach-${process.pid}`);
  const server = await startServer({ workers: 1, nodeArgs: TRACE, env: replicationEnv(store, 'primary') });
  try {
    await execOk(server.baseUrl, 'create table r (sym symbol, v double, ts timestamp) timestamp(ts) partition by day');
    const insert = await exec(server.baseUrl, "insert into r select 'S' || (x % 7), x * 0.5, cast(x * 1000000 as timestamp) from long_sequence(200000)");
    t.is(insert.status, 200, insert.text);
    // Shipped means the encoder thread framed the segments and the primary uploaded them.
    const deadline = Date.now() + 30_000;
    while (!(await metricValue(server, 'svc_replication_shipped_sequence') > 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    t.true(await metricValue(server, 'svc_replication_shipped_sequence') > 0, 'the primary shipped segments');
    t.deepEqual(detachLines(server.output()), []);
  } finally {
    await server.stop();
    server.cleanup();
  }
});
