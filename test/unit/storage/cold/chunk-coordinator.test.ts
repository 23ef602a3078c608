// The cold chunk coordinator over a real fs:: store: what it downloads (coalesced adjacent ranges, pinned to
// the ETag), what readers share, when chunks leave memory, and the svc_cold_chunk_* metrics each step moves.
// A gate around the store holds range requests open where a case needs a download to be in flight.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openObjectStore } from '../../../../src/objectstore/open-object-store.js';
import type { ObjectStore, RangeOptions } from '../../../../src/objectstore/object-store.js';
import { ColdChunkCoordinator, type ColdReadLimits } from '../../../../src/storage/cold/chunk-coordinator.js';
import { ColdBackPressureError, ColdReadError, type ColdObject } from '../../../../src/storage/cold/cold-read-errors.js';
import { coalesceRanges } from '../../../../src/storage/cold/coalesce-ranges.js';
import { ColdReadSession } from '../../../../src/storage/cold/cold-read-session.js';
import { SqlError } from '../../../../src/core/errors.js';
import { createMetricsRegistry } from '../../../../src/metrics/registry.js';
import { subscribeMetricsChannels } from '../../../../src/metrics/channels.js';

const OBJECT_BYTES = 4096;

/** The real store, with every range request counted and (when `hold` is set) kept waiting until released. */
class GatedStore {
  requests: { offset: number; length: number }[] = [];
  inFlight = 0;
  inFlightPeak = 0;
  hold: Promise<void> | undefined;
  constructor(readonly store: ObjectStore) {}
  async getRange(key: string, offset: number, length: number, options?: RangeOptions): Promise<Buffer> {
    this.requests.push({ offset, length });
    this.inFlight++;
    this.inFlightPeak = Math.max(this.inFlightPeak, this.inFlight);
    try {
      if (this.hold !== undefined) await this.hold;
      return await this.store.getRange(key, offset, length, options);
    } finally {
      this.inFlight--;
    }
  }
}

async function setUp(limits: ColdReadLimits = { downloadsInFlightMax: 64, pendingBatchesMax: 1024 }) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cold-coord-'));
  const store = await openObjectStore(`fs::root=${join(dir, 'root')};atomic_write_dir=${join(dir, 'scratch')};`);
  const body = Buffer.alloc(OBJECT_BYTES);
  for (let k = 0; k < OBJECT_BYTES; k++) body[k] = (k * 7) & 0xff;
  const source = join(dir, 'data.parquet');
  writeFileSync(source, body);
  await store.putFile('t~1/day=01/data.parquet', source);
  const info = await store.head('t~1/day=01/data.parquet');
  if (info?.etag == null) throw new Error('fs store gave no etag');
  const object: ColdObject = { table: 't', partition: '2024-01-01', key: 't~1/day=01/data.parquet', etag: info.etag, sizeBytes: OBJECT_BYTES };
  const gated = new GatedStore(store);
  const proxy: ObjectStore = Object.assign(Object.create(store) as ObjectStore, { getRange: gated.getRange.bind(gated) });
  const coordinator = new ColdChunkCoordinator(async () => proxy, limits);
  const metrics = createMetricsRegistry();
  const subscription = subscribeMetricsChannels(metrics.metrics);
  const value = async (name: string): Promise<number> => {
    const metric = metrics.registry.getSingleMetric(`svc_cold_chunk_${name}`);
    if (metric === undefined) throw new Error(`no metric ${name}`);
    return (await metric.get()).values[0]?.value ?? 0;
  };
  const cleanUp = async (): Promise<void> => {
    subscription.unsubscribe();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { object, body, gated, coordinator, value, cleanUp };
}

const signal = (): AbortSignal => new AbortController().signal;

test('adjacent ranges join one request within the span cap; ranges with a gap never join', (t) => {
  const groups = coalesceRanges([{ offset: 300, length: 100 }, { offset: 0, length: 100 }, { offset: 100, length: 50 }, { offset: 400, length: 10 }]);
  t.deepEqual(groups.map((group) => [group.offset, group.length, group.members.length]), [[0, 150, 2], [300, 110, 2]]);
  const capped = coalesceRanges([{ offset: 0, length: 60 }, { offset: 60, length: 60 }], 100);
  t.is(capped.length, 2);
});

test('with a gap allowance, ranges at most that far apart join one request; farther ones and the span cap still split', (t) => {
  const ranges = [{ offset: 0, length: 100 }, { offset: 164, length: 36 }, { offset: 300, length: 10 }, { offset: 1000, length: 24 }];
  t.deepEqual(coalesceRanges(ranges, 1 << 20, 100).map((group) => [group.offset, group.length, group.members.length]), [[0, 310, 3], [1000, 24, 1]]);
  t.deepEqual(coalesceRanges(ranges, 1 << 20, 63).map((group) => [group.offset, group.length]), [[0, 100], [164, 36], [300, 10], [1000, 24]]);
  t.deepEqual(coalesceRanges(ranges, 200, 100).map((group) => [group.offset, group.length]), [[0, 200], [300, 10], [1000, 24]]);
});

// The metric cases share one process-wide channel, so they run one after another.
test.serial('misses download coalesced groups; held chunks are hits; the last release evicts', async (t) => {
  const env = await setUp();
  try {
    const first = await env.coordinator.acquire(env.object, [{ offset: 0, length: 100 }, { offset: 100, length: 200 }, { offset: 300, length: 50 }, { offset: 1000, length: 24 }], signal());
    t.deepEqual(env.gated.requests, [{ offset: 0, length: 350 }, { offset: 1000, length: 24 }]);
    t.deepEqual(first.bytesOf(100, 200), env.body.subarray(100, 300));
    t.deepEqual(first.bytesOf(1000, 24), env.body.subarray(1000, 1024));
    t.is(first.bytesOf(100, 199), undefined, 'a lease answers only for the chunks it holds');
    t.is(await env.value('acquire_full_miss_total'), 1);
    t.is(await env.value('acquire_miss_chunks_total'), 4);
    t.is(await env.value('download_started_total'), 2);
    t.is(await env.value('download_finished_total'), 2);
    t.is(await env.value('ready_chunks'), 4);
    t.is(await env.value('pinned_bytes'), 374);

    const second = await env.coordinator.acquire(env.object, [{ offset: 0, length: 100 }, { offset: 1000, length: 24 }, { offset: 2000, length: 10 }], signal());
    t.is(await env.value('acquire_partial_hit_total'), 1);
    t.is(await env.value('acquire_hit_chunks_total'), 2);
    t.is(await env.value('acquire_miss_chunks_total'), 5);
    t.is(await env.value('busy_leases'), 7);
    const third = await env.coordinator.acquire(env.object, [{ offset: 0, length: 100 }], signal());
    t.is(await env.value('acquire_full_hit_total'), 1);
    t.is(env.gated.requests.length, 3);

    first.release();
    t.is(await env.value('release_evictions_total'), 2, 'chunks still leased by other reads stay');
    second.release();
    third.release();
    t.is(await env.value('release_evictions_total'), 5);
    t.is(await env.value('ready_chunks'), 0);
    t.is(await env.value('pinned_bytes'), 0);
    t.is(await env.value('busy_leases'), 0);
  } finally {
    await env.cleanUp();
  }
});

test.serial('concurrent readers of a chunk share one download; downloads in flight stay under the cap', async (t) => {
  const env = await setUp({ downloadsInFlightMax: 1, pendingBatchesMax: 1024 });
  try {
    let open = (): void => undefined;
    env.gated.hold = new Promise((resolve) => { open = resolve; });
    const a = env.coordinator.acquire(env.object, [{ offset: 0, length: 64 }, { offset: 500, length: 64 }], signal());
    const b = env.coordinator.acquire(env.object, [{ offset: 0, length: 64 }], signal());
    await new Promise((resolve) => setTimeout(resolve, 20));
    t.is(await env.value('download_coalesced_total'), 1);
    t.is(await env.value('in_flight_downloads'), 1);
    t.is(await env.value('pending_batches'), 2);
    open();
    const [leaseA, leaseB] = await Promise.all([a, b]);
    t.deepEqual(leaseB.bytesOf(0, 64), env.body.subarray(0, 64));
    t.is(env.gated.requests.length, 2, 'one request per group, none for the reader that attached');
    t.is(env.gated.inFlightPeak, 1);
    leaseA.release();
    leaseB.release();
    t.is(await env.value('pending_batches'), 0);
    t.is(await env.value('ready_chunks'), 0);
  } finally {
    await env.cleanUp();
  }
});

test.serial('past the pending cap a read fails at once; an aborted wait names the partition', async (t) => {
  const env = await setUp({ downloadsInFlightMax: 64, pendingBatchesMax: 1 });
  try {
    let open = (): void => undefined;
    env.gated.hold = new Promise((resolve) => { open = resolve; });
    const controller = new AbortController();
    const waiting = env.coordinator.acquire(env.object, [{ offset: 0, length: 64 }], controller.signal);
    const refused = await t.throwsAsync(env.coordinator.acquire(env.object, [{ offset: 64, length: 64 }], signal()), { instanceOf: ColdBackPressureError });
    t.regex(refused?.message ?? '', /cold\.storage\.pending\.batches\.max=1.*partition=2024-01-01/);
    controller.abort(new Error('query timed out'));
    const aborted = await t.throwsAsync(waiting, { instanceOf: ColdReadError });
    t.regex(aborted?.message ?? '', /table=t, partition=2024-01-01.*query timed out/);
    open();
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.is(await env.value('ready_chunks'), 0, 'a chunk landing after its only reader left is dropped at once');
    t.is(await env.value('busy_leases'), 0);
  } finally {
    await env.cleanUp();
  }
});

test.serial('a read pinned to another version fails and returns no bytes', async (t) => {
  const env = await setUp();
  try {
    const stale = { ...env.object, etag: '1.000-4096' };
    const error = await t.throwsAsync(env.coordinator.acquire(stale, [{ offset: 0, length: 64 }], signal()), { instanceOf: ColdReadError });
    t.regex(error?.message ?? '', /partition=2024-01-01.*not the pinned 1\.000-4096.*store=fs/);
    t.is(await env.value('download_failed_total'), 1);
    t.is(await env.value('ready_chunks'), 0);
    t.is(await env.value('busy_leases'), 0);
  } finally {
    await env.cleanUp();
  }
});

test.serial('a statement session counts its leased bytes against the query memory budget and releases them all', async (t) => {
  const env = await setUp();
  try {
    const session = new ColdReadSession(() => env.coordinator, signal, 300);
    await session.fetch([{ object: env.object, ranges: [{ offset: 0, length: 100 }, { offset: 100, length: 100 }] }]);
    t.deepEqual(session.bytesOf(env.object, 100, 100), env.body.subarray(100, 200));
    await session.fetch([{ object: env.object, ranges: [{ offset: 0, length: 100 }] }]);
    t.is(env.gated.requests.length, 1, 'chunks the statement holds are not leased again');
    const refused = await t.throwsAsync(session.fetch([{ object: env.object, ranges: [{ offset: 200, length: 150 }] }]), { instanceOf: SqlError });
    t.is(refused?.code, 'SVC_SQL_LIMIT');
    t.regex(refused?.message ?? '', /partition=2024-01-01.*cairo\.sql\.max\.memory=300/);
    session.release();
    t.is(await env.value('busy_leases'), 0);
    t.is(await env.value('ready_chunks'), 0);
  } finally {
    await env.cleanUp();
  }
});

test.serial('a read across a small gap fetches it once and drops it: each chunk gets exactly its bytes', async (t) => {
  const env = await setUp({ downloadsInFlightMax: 64, pendingBatchesMax: 1024, coalesceGapBytesMax: 100 });
  try {
    const lease = await env.coordinator.acquire(env.object, [{ offset: 0, length: 100 }, { offset: 150, length: 50 }, { offset: 1000, length: 24 }], signal());
    t.deepEqual(env.gated.requests, [{ offset: 0, length: 200 }, { offset: 1000, length: 24 }]);
    t.deepEqual(lease.bytesOf(150, 50), env.body.subarray(150, 200));
    t.is(lease.bytesOf(100, 50), undefined, 'the gap is no chunk of the lease');
    t.is(await env.value('download_started_total'), 2);
    t.is(await env.value('acquire_miss_chunks_total'), 3);
    t.is(await env.value('pinned_bytes'), 174, 'pinned bytes count the chunks, not the dropped gap');
    lease.release();
    t.is(await env.value('pinned_bytes'), 0);
  } finally {
    await env.cleanUp();
  }
});

test.serial('a statement reads the objects it needs at once, not one after another', async (t) => {
  const env = await setUp();
  try {
    let open = (): void => undefined;
    env.gated.hold = new Promise((resolve) => { open = resolve; });
    const session = new ColdReadSession(() => env.coordinator, signal, 1 << 20);
    // Two reads of the object (as two partitions' needs would be): both requests are in flight together.
    const fetched = session.fetch([{ object: env.object, ranges: [{ offset: 0, length: 64 }] }, { object: env.object, ranges: [{ offset: 2000, length: 64 }] }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    t.is(env.gated.inFlight, 2);
    open();
    await fetched;
    t.deepEqual(session.bytesOf(env.object, 2000, 64), env.body.subarray(2000, 2064));
    session.release();
    t.is(await env.value('busy_leases'), 0);
  } finally {
    await env.cleanUp();
  }
});
