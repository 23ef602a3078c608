// encodeParquet: the same bytes as the in-process writer, `empty table`, bounded read-ahead while the consumer
// is slow, cancellation closing the batch source, errors from the thread, symbol tables that grow, the thread
// limit. Serial: the tests share one process-wide thread pool and some of them measure waiting.
import test from 'ava';
import { SqlError, SvcError } from '../../../src/core/errors.js';
import type { ColumnBatch } from '../../../src/sql/exec/batch.js';
import { loadParquetCodecs } from '../../../src/output/parquet-codecs.js';
import { encodeParquet, parquetThreadBatchesInFlightMax, parquetThreadsActiveMax, warmParquetThreadPool } from '../../../src/output/parquet-thread.js';
import { PARQUET_EXPORT_DEFAULTS } from '../../../src/output/parquet-params.js';
import type { ExportColumn, ParquetExportOptions } from '../../../src/output/parquet-params.js';
import { ParquetReader, writeParquet } from '../../helpers/duckdb-parquet.js';

let reader: ParquetReader;
test.before(async () => {
  await loadParquetCodecs();
  reader = await ParquetReader.open();
});
test.after.always(() => reader.close());

const COLUMNS: readonly ExportColumn[] = [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'sym', type: 'SYMBOL' }, { name: 'price', type: 'DOUBLE' }];
const START = 1_704_067_200_000_000;

/** `count` batches of `rows` rows; the symbol table grows by one entry per batch (it is the same array). */
function growingBatches(count: number, rows: number): ColumnBatch[] {
  const symbols: string[] = [];
  const batches: ColumnBatch[] = [];
  for (let b = 0; b < count; b++) {
    symbols.push(`sym${b}`);
    const ts = Float64Array.from({ length: rows }, (_, k) => START + (b * rows + k) * 1000);
    batches.push({
      rowCount: rows,
      vectors: [
        { type: 'TIMESTAMP', data: ts, exact: BigInt64Array.from(ts, (v) => BigInt(v)) },
        { type: 'SYMBOL', data: Int32Array.from({ length: rows }, (_, k) => (k % 2 === 0 ? b : 0)), symbols },
        { type: 'DOUBLE', data: Float64Array.from({ length: rows }, (_, k) => b + k / 8) },
      ],
    });
  }
  return batches;
}

/** Yields the batches and records how far the consumer pulled and whether it was closed early. */
function trackedSource(batches: readonly ColumnBatch[]): { source: AsyncIterable<ColumnBatch>; pulled: () => number; closed: () => boolean } {
  let pulled = 0;
  let closed = false;
  async function* generate(): AsyncGenerator<ColumnBatch> {
    try {
      for (const batch of batches) {
        pulled++;
        yield batch;
      }
    } finally {
      closed = pulled < batches.length;
    }
  }
  return { source: generate(), pulled: () => pulled, closed: () => closed };
}

async function collect(iterable: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of iterable) parts.push(part);
  return Buffer.concat(parts);
}

function options(extra: Partial<ParquetExportOptions> = {}): ParquetExportOptions {
  return { ...PARQUET_EXPORT_DEFAULTS, rowGroupRows: 1000, ...extra };
}

test.serial('the thread writes the same bytes as the in-process writer, growing symbol tables included', async (t) => {
  // The growing table must be sent as it stood for each batch: snapshot the batches for the in-process run.
  const batches = growingBatches(5, 700);
  const expected = writeParquet(COLUMNS, batches, options());
  const actual = await collect(encodeParquet({ columns: COLUMNS, options: options(), timestampIndex: 0, batches: trackedSource(growingBatches(5, 700)).source }));
  t.deepEqual(actual, Buffer.from(expected));
  const path = reader.save('thread.parquet', actual);
  const rows = await reader.rows(`select sym, count(*)::INT n from read_parquet('${path}') group by sym order by sym`);
  t.deepEqual(rows, [
    { sym: 'sym0', n: 700 + 4 * 350 }, { sym: 'sym1', n: 350 }, { sym: 'sym2', n: 350 }, { sym: 'sym3', n: 350 }, { sym: 'sym4', n: 350 },
  ]);
});

test.serial('an empty result is the error `empty table` at position 0, unless empty files are allowed', async (t) => {
  const error = await t.throwsAsync(collect(encodeParquet({ columns: COLUMNS, options: options(), timestampIndex: 0, batches: trackedSource([]).source })));
  t.true(error instanceof SqlError);
  t.is(error?.message, 'empty table');
  t.is((error as SqlError).position, 0);
  t.is((error as SqlError).httpStatus, 400);
  const empty = await collect(encodeParquet({ columns: COLUMNS, options: options(), timestampIndex: 0, batches: trackedSource([]).source, allowEmpty: true }));
  const path = reader.save('empty.parquet', empty);
  t.deepEqual(await reader.rows(`select count(*)::INT n from read_parquet('${path}')`), [{ n: 0 }]);
});

test.serial('a slow consumer holds the query back: batches are read only a bounded step ahead of the output taken', async (t) => {
  const tracked = trackedSource(growingBatches(40, 1000));
  const output = encodeParquet({ columns: COLUMNS, options: options(), timestampIndex: 0, batches: tracked.source });
  const first = await output.next();
  t.false(first.done);
  // The consumer now stalls; the thread may finish what it was sent, but nothing more is read.
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.true(tracked.pulled() <= parquetThreadBatchesInFlightMax + 1, `pulled ${tracked.pulled()} batches`);
  let chunks = 1;
  for await (const _chunk of output) chunks++;
  t.is(tracked.pulled(), 40);
  t.true(chunks >= 40, 'every full row group left as its own chunk');
});

test.serial('stopping early closes the batch source and ends the thread', async (t) => {
  const tracked = trackedSource(growingBatches(40, 1000));
  for await (const _chunk of encodeParquet({ columns: COLUMNS, options: options(), timestampIndex: 0, batches: tracked.source })) break;
  t.true(tracked.closed());
  t.true(tracked.pulled() < 40);
  // The pool was not handed a thread in an unknown state: the next export still works.
  const bytes = await collect(encodeParquet({ columns: COLUMNS, options: options(), timestampIndex: 0, batches: trackedSource(growingBatches(2, 10)).source }));
  t.deepEqual(await reader.rows(`select count(*)::INT n from read_parquet('${reader.save('after-cancel.parquet', bytes)}')`), [{ n: 20 }]);
});

test.serial('an error in the thread comes back as the SvcError it was, and the source is closed', async (t) => {
  const good = growingBatches(3, 10);
  // A batch with a column missing breaks the writer's input contract inside the thread.
  const broken: ColumnBatch = { rowCount: 10, vectors: good[1]?.vectors.slice(0, 2) ?? [] };
  const tracked = trackedSource([good[0] as ColumnBatch, broken, good[2] as ColumnBatch, ...growingBatches(5, 10)]);
  const error = await t.throwsAsync(collect(encodeParquet({ columns: COLUMNS, options: options(), timestampIndex: 0, batches: tracked.source })));
  t.true(error instanceof SvcError);
  t.is((error as SvcError).code, 'SVC_INTERNAL');
  t.regex(error?.message ?? '', /parquet writer input: batch has 2 vectors, expected 3/);
  t.true(tracked.closed());
});

test.serial('exports run back to back and side by side on the thread pool', async (t) => {
  const runs = await Promise.all([0, 1, 2].map((k) => collect(encodeParquet({
    columns: COLUMNS, options: options({ codec: k === 0 ? 'SNAPPY' : 'ZSTD' }), timestampIndex: 0, batches: trackedSource(growingBatches(3 + k, 100)).source,
  }))));
  for (const [k, bytes] of runs.entries()) {
    const rows = await reader.rows(`select count(*)::INT n from read_parquet('${reader.save(`pool-${k}.parquet`, bytes)}')`);
    t.deepEqual(rows, [{ n: (3 + k) * 100 }]);
  }
});

test.serial('string, UUID and BINARY vectors cross intact; a BINARY view sends only its own bytes', async (t) => {
  const big = new Uint8Array(1 << 20).fill(7);
  const columns: ExportColumn[] = [{ name: 's', type: 'VARCHAR' }, { name: 'u', type: 'UUID' }, { name: 'bin', type: 'BINARY' }];
  const batch = (): ColumnBatch => ({
    rowCount: 3,
    vectors: [
      { type: 'VARCHAR', data: ['a', null, 'ü'] },
      { type: 'UUID', data: [null, '11111111-2222-3333-4444-555555555555', null] },
      { type: 'BINARY', data: [big.subarray(10, 13), null, Uint8Array.of(1)] },
    ],
  });
  const tracked = trackedSource([batch()]);
  const bytes = await collect(encodeParquet({ columns, options: options(), timestampIndex: -1, batches: tracked.source }));
  t.deepEqual(bytes, Buffer.from(writeParquet(columns, [batch()], options())));
  const rows = await reader.rows(`select s, u::VARCHAR u, hex(bin) bin from read_parquet('${reader.save('thread-types.parquet', bytes)}')`);
  t.deepEqual(rows, [{ s: 'a', u: null, bin: '070707' }, { s: null, u: '11111111-2222-3333-4444-555555555555', bin: null }, { s: 'ü', u: null, bin: '01' }]);
});

test.serial('at most parquetThreadsActiveMax exports encode at once; the next one waits for a free thread', async (t) => {
  await warmParquetThreadPool();
  const sources = Array.from({ length: parquetThreadsActiveMax + 1 }, () => trackedSource(growingBatches(4, 1000)));
  const outputs = sources.map((tracked) => encodeParquet({ columns: COLUMNS, options: options(), timestampIndex: 0, batches: tracked.source }));
  for (const output of outputs.slice(0, parquetThreadsActiveMax)) t.false((await output.next()).done);
  const last = outputs[parquetThreadsActiveMax];
  if (last === undefined) return t.fail('one export more than the limit');
  const lastFirst = last.next();
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(sources[parquetThreadsActiveMax]?.pulled(), 0, 'the export over the limit has not started');
  for await (const _chunk of outputs[0] ?? last) { /* finish the first export, freeing its thread */ }
  t.false((await lastFirst).done);
  for (const output of outputs) for await (const _chunk of output) { /* drain */ }
  t.true(sources.every((tracked) => tracked.pulled() === 4));
});
