// A primary and replicas as separate server processes (own roots and ports) sharing one object-store root,
// and what replication tests compare: a fixed query set whose answers must be identical everywhere.
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from './server.js';
import { rows } from './http.js';
import type { S3Service } from './s3-service.js';

export interface ReplicationStore {
  readonly connection: string;
  readonly env: Record<string, string>;
}

/** A unique root in a per-run bucket of `service`, so tests never see each other's objects. */
export function replicationStore(service: S3Service, bucket: string): ReplicationStore {
  return {
    connection: `s3::bucket=${bucket};root=repl-${randomBytes(6).toString('hex')};region=${service.region};endpoint=${service.endpoint};`,
    env: { AWS_ACCESS_KEY_ID: service.accessKey, AWS_SECRET_ACCESS_KEY: service.secretKey },
  };
}

export function replicationEnv(store: ReplicationStore, role: 'primary' | 'replica', extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...store.env,
    SVC_REPLICATION_ROLE: role,
    SVC_REPLICATION_OBJECT_STORE: store.connection,
    SVC_REPLICATION_REPLICA_POLL_INTERVAL: '100ms',
    SVC_REPLICATION_PRIMARY_LEASE: '2s',
    SVC_REPLICATION_PRIMARY_URL: 'http://primary.example:9000',
    SVC_METRICS_ENABLED: 'true',
    ...extra,
  };
}

export function startNode(store: ReplicationStore, role: 'primary' | 'replica', options: { rootDir?: string; extra?: Record<string, string> } = {}): Promise<TestServer> {
  return startServer({ workers: 1, env: replicationEnv(store, role, options.extra), ...(options.rootDir === undefined ? {} : { rootDir: options.rootDir }) });
}

/** SAMPLE BY, LATEST ON, a join, an aggregate over all tables the tests write. */
export const QUERY_SET = [
  "select sym, count(), sum(v) from trades order by sym",
  "select ts, avg(v) from trades sample by 1h align to calendar order by ts",
  "select * from trades latest on ts partition by sym order by sym",
  "select t.sym, t.v, r.rate from trades t join rates r on t.sym = r.sym order by t.ts, t.sym",
  "select count(), max(x) from imported",
  "select host, count(), sum(load) from metrics group by host order by host",
  "select * from rates order by sym",
  "select table_name from tables() order by table_name",
] as const;

export async function answers(server: TestServer): Promise<unknown[][][]> {
  return Promise.all(QUERY_SET.map((query) => rows(server.baseUrl, query)));
}

/** Polls `server` until its answers equal `expected`; returns the time it took, or throws with the last diff. */
export async function waitForAnswers(server: TestServer, expected: unknown[][][], timeoutMs: number): Promise<number> {
  const started = performance.now();
  let last: unknown = null;
  while (performance.now() - started < timeoutMs) {
    try {
      last = await answers(server);
      if (JSON.stringify(last) === JSON.stringify(expected)) return performance.now() - started;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`replica did not converge in ${timeoutMs} ms; last answer ${JSON.stringify(last).slice(0, 600)} expected ${JSON.stringify(expected).slice(0, 600)}`);
}

export async function metricValue(server: TestServer, name: string): Promise<number> {
  const text = await (await fetch(`${server.adminUrl}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `) || candidate.startsWith(`${name}{`));
  return line === undefined ? Number.NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
}

export async function importCsv(server: TestServer, table: string, csv: string): Promise<{ status: number; text: string }> {
  const form = new FormData();
  form.append('data', new Blob([csv], { type: 'text/csv' }), `${table}.csv`);
  const response = await fetch(`${server.baseUrl}/imp?name=${table}&timestamp=ts&partitionBy=DAY&fmt=json`, { method: 'POST', body: form });
  return { status: response.status, text: await response.text() };
}

export async function postLines(server: TestServer, lines: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.baseUrl}/write`, { method: 'POST', body: lines });
  return { status: response.status, text: await response.text() };
}

/** Round `round` of writes through all three paths: /exec DDL and INSERT, /imp, ILP over HTTP. */
export async function writeRound(server: TestServer, round: number): Promise<void> {
  const day = `2026-01-${String(10 + round).padStart(2, '0')}`;
  const check = (what: string, result: { status: number; text: string }, ok: number): void => {
    if (result.status !== ok) throw new Error(`${what} → ${result.status} ${result.text}`);
  };
  if (round === 0) {
    await rows(server.baseUrl, 'create table trades (sym symbol, v double, ts timestamp) timestamp(ts) partition by day');
    await rows(server.baseUrl, 'create table rates (sym symbol, rate double)');
    await rows(server.baseUrl, "insert into rates values ('a', 1.5), ('b', 2.5), ('c', 3.5)");
  }
  if (round > 0) {
    // A new partition version (UPDATE), a _meta rewrite (ADD COLUMN), a table created, renamed and dropped.
    await rows(server.baseUrl, `update trades set v = v * 2 where sym = 'b'`);
    await rows(server.baseUrl, `alter table rates add column note${round} string`);
    await rows(server.baseUrl, `create table scratch${round} (a int)`);
    await rows(server.baseUrl, `insert into scratch${round} values (${round})`);
    await rows(server.baseUrl, `rename table scratch${round} to kept${round}`);
    await rows(server.baseUrl, `create table dropped${round} (a int)`);
    await rows(server.baseUrl, `drop table dropped${round}`);
  }
  await rows(server.baseUrl, `insert into trades values ('a', ${round + 1}.25, '${day}T01:00:00.000000Z'), ('b', ${round}.5, '${day}T02:30:00.000000Z'), ('c', 7, '${day}T00:15:00.000000Z')`);
  const csv = ['x,ts', ...Array.from({ length: 50 }, (_, k) => `${round * 100 + k},${day}T${String(k % 24).padStart(2, '0')}:00:00.000000Z`)].join('\n');
  check('/imp', await importCsv(server, 'imported', `${csv}\n`), 200);
  const lines = Array.from({ length: 20 }, (_, k) => `metrics,host=h${k % 3} load=${k + round}.5 ${Date.UTC(2026, 0, 10 + round, k) * 1_000_000}`).join('\n');
  check('ILP', await postLines(server, `${lines}\n`), 204);
}
