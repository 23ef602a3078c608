// CSV export formatting over the standard table shape (ts TIMESTAMP, sym SYMBOL of 100, price DOUBLE,
// amount LONG): svc's column-wise writer (batch → UTF-8 Buffer), the simplest alternative (row by row,
// cells joined per line, one string per batch), and DuckDB's COPY TO csv of the same table in the same run.
// Run: npx tsx bench/micro/csv-writer.bench.ts [rows]   (default 1,000,000 rows)
import { DuckDBInstance } from '@duckdb/node-api';
import { batchRowsMax } from '../../src/core/limits.js';
import type { ColumnBatch } from '../../src/sql/exec/batch.js';
import { createCsvWriter } from '../../src/output/csv-writer.js';
import type { ExportColumn } from '../../src/output/parquet-params.js';
import { formatTimestamp } from '../../src/types/timestamp.js';
import { csvQuoted, formatDouble, formatLong } from '../../src/types/value-format.js';
import { medianMs } from '../lib/figures.js';

const rowCount = Number(process.argv[2] ?? 1_000_000);
const runs = 3;
const COLUMNS: readonly ExportColumn[] = [
  { name: 'ts', type: 'TIMESTAMP' }, { name: 'sym', type: 'SYMBOL' }, { name: 'price', type: 'DOUBLE' }, { name: 'amount', type: 'LONG' },
];
const SYMBOLS = Array.from({ length: 100 }, (_, i) => `S${i}`);

function standardBatches(): ColumnBatch[] {
  const batches: ColumnBatch[] = [];
  for (let start = 0; start < rowCount; start += batchRowsMax) {
    const rows = Math.min(batchRowsMax, rowCount - start);
    const ts = new Float64Array(rows);
    const sym = new Int32Array(rows);
    const price = new Float64Array(rows);
    const amount = new Float64Array(rows);
    for (let j = 0; j < rows; j++) {
      const i = start + j;
      const big = BigInt(i);
      ts[j] = 1_704_067_200_000_000 + i * 100_000;
      sym[j] = i % 100;
      price[j] = Math.round((Number((big * 1103515245n + 12345n) % 2147483648n) / 2147483648) * 1000 * 100) / 100;
      amount[j] = Number((big * 48271n) % 10000n) + 1;
    }
    batches.push({ rowCount: rows, vectors: [{ type: 'TIMESTAMP', data: ts }, { type: 'SYMBOL', data: sym, symbols: SYMBOLS }, { type: 'DOUBLE', data: price }, { type: 'LONG', data: amount }] });
  }
  return batches;
}

function svcCsv(batches: readonly ColumnBatch[]): number {
  const writer = createCsvWriter(COLUMNS, { delimiter: ',', header: true });
  let bytes = Buffer.byteLength(writer.header());
  for (const batch of batches) bytes += writer.writeBatch(batch).length;
  return bytes;
}

/** Row by row: every cell formatted, joined into its line, lines concatenated, the batch encoded at the end. */
function naiveCsv(batches: readonly ColumnBatch[]): number {
  let bytes = 0;
  for (const batch of batches) {
    const [ts, sym, price, amount] = batch.vectors.map((vector) => vector.data) as [Float64Array, Int32Array, Float64Array, Float64Array];
    let text = '';
    for (let r = 0; r < batch.rowCount; r++) {
      text += [`"${formatTimestamp(ts[r] as number)}"`, csvQuoted(SYMBOLS[sym[r] as number] as string), formatDouble(price[r] as number), formatLong(amount[r] as number)].join(',') + '\r\n';
    }
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

async function main(): Promise<void> {
  const batches = standardBatches();
  const lines = ['| writer | ms (median) | rows/s | MB out |', '|---|---:|---:|---:|'];
  const add = (name: string, ms: number, bytes: number): void => {
    lines.push(`| ${name} | ${ms.toFixed(0)} | ${(rowCount / (ms / 1000) / 1e6).toFixed(2)} M | ${(bytes / 1e6).toFixed(1)} |`);
  };
  let bytes = svcCsv(batches);
  add('svc createCsvWriter', await medianMs(runs, async () => { bytes = svcCsv(batches); }), bytes);
  let naive = 0;
  add('row-by-row join (simplest alternative)', await medianMs(runs, async () => { naive = naiveCsv(batches); }), naive);
  for (const threads of [1, 2]) {
    const duck = await (await DuckDBInstance.create(':memory:', { threads: String(threads) })).connect();
    try {
      await duck.run(`create table t as select timestamp '2024-01-01' + to_milliseconds(i * 100) ts, 'S' || (i % 100) sym,
        round(((i::HUGEINT * 1103515245 + 12345) % 2147483648) / 2147483648.0 * 1000, 2) price, (i * 48271) % 10000 + 1 amount
        from range(${rowCount}) r(i)`);
      const path = `${process.env['TMPDIR'] ?? '/tmp'}/svc-bench-duckdb-${process.pid}.csv`;
      const copy = `copy t to '${path}' (HEADER, DELIMITER ',', TIMESTAMPFORMAT '%Y-%m-%dT%H:%M:%S.%fZ')`;
      const ms = await medianMs(runs, () => duck.run(copy));
      const size = await duck.runAndReadAll(`select size from read_blob('${path}')`);
      add(`DuckDB COPY TO csv, ${threads} thread${threads === 1 ? '' : 's'}`, ms, Number(size.getRowObjectsJson()[0]?.['size'] ?? 0));
      await duck.run(`copy (select 1) to '${path}'`);
    } finally {
      duck.closeSync();
    }
  }
  process.stdout.write(`\nCSV export, ${rowCount} rows of the standard table (in memory; DuckDB writes a file)\n${lines.join('\n')}\n`);
}

await main();
