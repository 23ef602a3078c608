// Parquet export throughput over the standard table shape (ts TIMESTAMP, sym SYMBOL of 100, price DOUBLE,
// amount LONG) with the /exp defaults (format v2, level 9, 100,000-row groups): svc's writer in process and
// through its encoding thread, hyparquet-writer's own row/array path (the simplest alternative), and DuckDB's
// COPY TO of the same table in the same run. Output goes nowhere (bytes are only counted).
// Run: npx tsx bench/micro/parquet-writer.bench.ts [rows]   (default 1,000,000 rows)
import { DuckDBInstance } from '@duckdb/node-api';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { batchRowsMax } from '../../src/core/limits.js';
import type { ColumnBatch } from '../../src/sql/exec/batch.js';
import { createPageCompressor, loadParquetCodecs } from '../../src/output/parquet-codecs.js';
import { PARQUET_EXPORT_DEFAULTS } from '../../src/output/parquet-params.js';
import type { ExportColumn, ParquetExportOptions, ParquetWrittenCodec } from '../../src/output/parquet-params.js';
import { ParquetFileWriter, parquetSchemaElement } from '../../src/output/parquet-writer.js';
import { encodeParquet } from '../../src/output/parquet-thread.js';
import { medianMs } from '../lib/figures.js';

const rowCount = Number(process.argv[2] ?? 1_000_000);
const runs = 5;
const START_MICROS = 1_704_067_200_000_000;
const COLUMNS: readonly ExportColumn[] = [
  { name: 'ts', type: 'TIMESTAMP' }, { name: 'sym', type: 'SYMBOL' }, { name: 'price', type: 'DOUBLE' }, { name: 'amount', type: 'LONG' },
];
const SYMBOLS = Array.from({ length: 100 }, (_, i) => `S${i}`);

const DUCK_LOAD = `create table t as select
  timestamp '2024-01-01' + to_milliseconds(i * 100) ts,
  'S' || (i % 100) sym,
  round(((i::HUGEINT * 1103515245 + 12345) % 2147483648) / 2147483648.0 * 1000, 2) price,
  (i * 48271) % 10000 + 1 amount
from range(${rowCount}) r(i)`;

/** The table as storage would hand it out: batches of batchRowsMax rows, 64-bit columns with their exact values. */
function standardBatches(): ColumnBatch[] {
  const batches: ColumnBatch[] = [];
  for (let start = 0; start < rowCount; start += batchRowsMax) {
    const rows = Math.min(batchRowsMax, rowCount - start);
    const ts = new Float64Array(rows);
    const tsExact = new BigInt64Array(rows);
    const sym = new Int32Array(rows);
    const price = new Float64Array(rows);
    const amount = new Float64Array(rows);
    const amountExact = new BigInt64Array(rows);
    for (let j = 0; j < rows; j++) {
      const i = start + j;
      const big = BigInt(i);
      ts[j] = START_MICROS + i * 100_000;
      tsExact[j] = BigInt(ts[j]);
      sym[j] = i % 100;
      price[j] = Math.round((Number((big * 1103515245n + 12345n) % 2147483648n) / 2147483648) * 1000 * 100) / 100;
      amount[j] = Number((big * 48271n) % 10000n) + 1;
      amountExact[j] = BigInt(amount[j]);
    }
    batches.push({
      rowCount: rows,
      vectors: [
        { type: 'TIMESTAMP', data: ts, exact: tsExact }, { type: 'SYMBOL', data: sym, symbols: SYMBOLS },
        { type: 'DOUBLE', data: price }, { type: 'LONG', data: amount, exact: amountExact },
      ],
    });
  }
  return batches;
}

function options(codec: ParquetWrittenCodec): ParquetExportOptions {
  return { ...PARQUET_EXPORT_DEFAULTS, codec };
}

function writeInProcess(batches: readonly ColumnBatch[], codec: ParquetWrittenCodec): number {
  let bytes = 0;
  const writer = new ParquetFileWriter(COLUMNS, options(codec), (chunk) => {
    bytes += chunk.length;
  });
  for (const batch of batches) writer.writeBatch(batch);
  writer.finish();
  return bytes;
}

async function writeInThread(batches: readonly ColumnBatch[], codec: ParquetWrittenCodec): Promise<number> {
  async function* source(): AsyncGenerator<ColumnBatch> {
    yield* batches;
  }
  let bytes = 0;
  for await (const chunk of encodeParquet({ columns: COLUMNS, options: options(codec), timestampIndex: 0, batches: source() })) bytes += chunk.length;
  return bytes;
}

/** hyparquet-writer alone: JS arrays per row group (BigInt for INT64, strings for symbols), its own encoders. */
function writeWithLibrary(batches: readonly ColumnBatch[], codec: ParquetWrittenCodec): number {
  const writer = new ByteWriter();
  const schema: SchemaElement[] = [{ name: 'schema', num_children: COLUMNS.length }, ...COLUMNS.map((c) => parquetSchemaElement(c.name, c.type))];
  const compressor = createPageCompressor(codec, PARQUET_EXPORT_DEFAULTS.compressionLevel);
  const library = new ParquetWriter({ writer, schema, codec, compressors: compressor === undefined ? {} : { [codec]: compressor } });
  for (const batch of batches) {
    const [ts, sym, price, amount] = batch.vectors;
    const symbols = sym?.symbols ?? [];
    const keys = sym?.data as Int32Array;
    library.write({
      rowGroupSize: batch.rowCount,
      columnData: [
        { name: 'ts', data: Array.from(ts?.exact ?? [], (v) => v) },
        { name: 'sym', data: Array.from(keys, (k) => symbols[k]) },
        { name: 'price', data: Array.from(price?.data as Float64Array) },
        { name: 'amount', data: Array.from(amount?.exact ?? [], (v) => v) },
      ],
    });
  }
  library.finish();
  return writer.offset;
}

interface Line {
  readonly name: string;
  readonly ms: number;
  readonly bytes: number;
}

function printLines(title: string, lines: readonly Line[], duckdbMs: number): void {
  const out = [`\n${title}`, '| writer | ms (median) | rows/s | MB out | time / DuckDB 2 threads |', '|---|---:|---:|---:|---:|'];
  for (const line of lines) {
    const rate = rowCount / (line.ms / 1000);
    out.push(`| ${line.name} | ${line.ms.toFixed(0)} | ${(rate / 1e6).toFixed(2)} M | ${(line.bytes / 1e6).toFixed(2)} | ${(line.ms / duckdbMs).toFixed(2)} |`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

async function duckdbCopy(threads: number, codec: ParquetWrittenCodec): Promise<Line> {
  const duck = await (await DuckDBInstance.create(':memory:', { threads: String(threads) })).connect();
  try {
    await duck.run(DUCK_LOAD);
    const path = `${process.env['TMPDIR'] ?? '/tmp'}/svc-bench-duckdb-${process.pid}.parquet`;
    const level = codec === 'ZSTD' ? ', COMPRESSION_LEVEL 9' : '';
    const copy = `copy t to '${path}' (FORMAT parquet, COMPRESSION ${codec.toLowerCase()}${level}, ROW_GROUP_SIZE 100000, PARQUET_VERSION V2)`;
    await duck.run(copy);
    const ms = await medianMs(runs, () => duck.run(copy));
    const size = await duck.runAndReadAll(`select size from read_blob('${path}')`);
    const bytes = Number(size.getRowObjectsJson()[0]?.['size'] ?? 0);
    await duck.run(`copy (select 1) to '${path}'`);
    return { name: `DuckDB COPY TO, ${threads} thread${threads === 1 ? '' : 's'}`, ms, bytes };
  } finally {
    duck.closeSync();
  }
}

async function main(): Promise<void> {
  await loadParquetCodecs();
  const batches = standardBatches();
  for (const codec of ['SNAPPY', 'ZSTD', 'LZ4_RAW'] as const) {
    const duck1 = await duckdbCopy(1, codec);
    const duck2 = await duckdbCopy(2, codec);
    writeInProcess(batches, codec);
    await writeInThread(batches, codec); // starts the thread, which later exports reuse
    let bytes = 0;
    const inProcess = await medianMs(runs, async () => {
      bytes = writeInProcess(batches, codec);
    });
    const inThread = await medianMs(runs, () => writeInThread(batches, codec));
    let libraryBytes = 0;
    const library = await medianMs(1, async () => {
      libraryBytes = writeWithLibrary(batches, codec);
    });
    printLines(`Parquet export, ${rowCount} rows, ${codec} (level 9 where it applies), format v2, 100,000-row groups`, [
      { name: 'svc ParquetFileWriter, in process', ms: inProcess, bytes },
      { name: 'svc encodeParquet (worker thread, reused)', ms: inThread, bytes },
      { name: 'hyparquet-writer alone (JS arrays)', ms: library, bytes: libraryBytes },
      duck1,
      duck2,
    ], duck2.ms);
  }
}

await main();
