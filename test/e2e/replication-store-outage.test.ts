// Replication across an object-store outage, on a private Swift instance this test stops and restarts:
// the primary keeps committing (uploads wait), the replica keeps serving what it has and answers health
// checks with 503 once its lag passes replication.replica.max.lag, and both catch up when the store returns.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateS3, restartS3, stopS3, type S3Service } from '../helpers/s3-service.js';
import type { TestServer } from '../helpers/server.js';
import { SEGMENT_SPACING_MS } from '../../src/replication/store-layout.js';
import { answers, metricValue, replicationStore, startNode, waitForAnswers, writeRound } from '../helpers/replication-cluster.js';

const base = mkdtempSync(join(tmpdir(), 'svc-repl-outage-'));
let service: S3Service | null = null;
const started: TestServer[] = [];

test.after.always(async () => {
  for (const server of started) {
    await server.kill9();
    server.cleanup();
  }
  if (service !== null) await stopS3(service, true);
  rmSync(base, { recursive: true, force: true });
});

/**
 * A commit is captured up to SEGMENT_SPACING_MS after the previous capture (plus the capture delay): the backlog
 * figure may still be 0 right after the writes, and must not be by then.
 */
const CAPTURE_WAIT_MS = SEGMENT_SPACING_MS + 1_000;

/** The primary's backlog in bytes once it is above 0, or 0 after `timeoutMs`. */
async function pendingBytesWithin(primary: TestServer, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const pending = await metricValue(primary, 'svc_replication_pending_bytes');
    if (pending > 0 || performance.now() > deadline) return pending;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function healthStatus(server: TestServer): Promise<number> {
  const response = await fetch(server.adminUrl);
  await response.text();
  return response.status;
}

test('the store stopped for 10 s: writes go on, the replica serves and reports its lag, then both catch up', async (t) => {
  const own = await privateS3(join(base, 's3'));
  service = own;
  const store = replicationStore(own, 'svc-repl-outage');
  const primary = await startNode(store, 'primary');
  started.push(primary);
  const replica = await startNode(store, 'replica', { extra: { SVC_REPLICATION_REPLICA_MAX_LAG: '3s' } });
  started.push(replica);
  await writeRound(primary, 0);
  const before = await answers(primary);
  await waitForAnswers(replica, before, 5_000);
  t.is(await healthStatus(replica), 200);

  await stopS3(own);
  const stoppedAt = performance.now();
  const writeStarted = performance.now();
  await writeRound(primary, 1);
  t.log(`writes while the store is down took ${Math.round(performance.now() - writeStarted)} ms`);
  const after = await answers(primary);
  t.true(await pendingBytesWithin(primary, CAPTURE_WAIT_MS) > 0, 'the backlog holds the commits');
  t.deepEqual(await answers(replica), before, 'the replica serves what it has');
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10_000 - (performance.now() - stoppedAt))));
  t.is(await healthStatus(replica), 503, 'lag past replication.replica.max.lag takes the replica out');
  t.true(await metricValue(replica, 'svc_replication_lag_seconds') > 3);

  await restartS3(own);
  await waitForAnswers(replica, after, 15_000);
  t.is(await metricValue(primary, 'svc_replication_pending_bytes'), 0);
  // Healthy again once a poll finds nothing left to apply.
  const deadline = performance.now() + 3_000;
  while (await healthStatus(replica) !== 200 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(await healthStatus(replica), 200);
});
