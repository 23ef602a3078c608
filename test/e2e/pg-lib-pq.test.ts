// Go's lib/pq (Debian golang-github-lib-pq-dev, unchanged), the driver of Grafana's QuestDB data source, against
// a real server: pg-clients/lib_pq_check.go is built in GOPATH mode and runs the data source's schema queries,
// its time filter (casts of epoch µs and the same bound as $1/$2), SAMPLE BY and DISTINCT.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let buildDir: string;
let binary: string;

test.before(async () => {
  buildDir = mkdtempSync(join(tmpdir(), 'svc-libpq-'));
  binary = join(buildDir, 'lib_pq_check');
  const build = spawnSync('go', ['build', '-o', binary, join(import.meta.dirname, 'pg-clients', 'lib_pq_check.go')], {
    encoding: 'utf8', timeout: 300_000,
    env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode', GOCACHE: join(tmpdir(), 'svc-test-go-cache'), GOFLAGS: '' },
  });
  if (build.status !== 0) throw new Error(`go build failed:\n${build.stderr}`);
  server = await startServer();
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
  if (buildDir !== undefined) rmSync(buildDir, { recursive: true, force: true });
});

test('lib/pq runs the Grafana data source queries', (t) => {
  const run = spawnSync(binary, [String(server.pgPort)], { encoding: 'utf8', timeout: 60_000 });
  t.is(run.status, 0, run.stderr);
  const out: unknown = JSON.parse(run.stdout);
  t.deepEqual(out, {
    table: ['sensors', 'DAY', 'ts'],
    columns: [['ts', 'TIMESTAMP', true], ['sym', 'SYMBOL', false], ['v', 'DOUBLE', false]],
    // 01:00 to 02:00 inclusive, one row a minute.
    timeFilter: [61, 61],
    sampleBy: [['2024-01-01T01:00:00Z', 75.5], ['2024-01-01T01:30:00Z', 105.5], ['2024-01-01T02:00:00Z', 121]],
    distinct: ['a', 'b'],
  });
});
