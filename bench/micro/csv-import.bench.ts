// CSV import parse throughput: the import session (byte lexer + column parsers → storage-form row chunks, no disk)
// beside the naive toString → split → Number/Date.parse parser, over the standard table's CSV shape
// (`ts,sym,price,amount`, ISO µs timestamps) generated in memory and fed in 64 KiB chunks.
// Run: npx tsx bench/micro/csv-import.bench.ts [rows]   (default 2,000,000 rows)
import { batchRowsMax } from '../../src/core/limits.js';
import type { PartitionedRows } from '../../src/storage/partition-split.js';
import { createImportSession } from '../../src/import/import-session.js';
import { parseSchemaPart } from '../../src/import/schema-part.js';

const CHUNK_BYTES = 64 * 1024;
const START_MS = Date.UTC(2024, 0, 1);

/** Row i of the standard table as one CSV line (integer arithmetic in BigInt, as the reference table does). */
function standardLine(i: number): string {
  const iso = new Date(START_MS + i * 100).toISOString();
  const ts = `${iso.slice(0, 23)}000Z`;
  const big = BigInt(i);
  const price = Math.round(Number((big * 1103515245n + 12345n) % 2147483648n) / 2147483648.0 * 1000 * 100) / 100;
  const amount = Number((big * 48271n) % 10000n) + 1;
  return `${ts},S${i % 100},${price},${amount}\n`;
}

function generateChunks(rows: number): Buffer[] {
  const chunks: Buffer[] = [Buffer.from('ts,sym,price,amount\n')];
  let pending: string[] = [];
  let pendingBytes = 0;
  for (let i = 0; i < rows; i++) {
    const line = standardLine(i);
    pending.push(line);
    pendingBytes += line.length;
    if (pendingBytes >= CHUNK_BYTES) {
      chunks.push(Buffer.from(pending.join('')));
      pending = [];
      pendingBytes = 0;
    }
  }
  if (pending.length > 0) chunks.push(Buffer.from(pending.join('')));
  return chunks;
}

async function runSession(chunks: Buffer[], schemaText?: string): Promise<number> {
  let rows = 0;
  const session = createImportSession({
    analysisMaxLines: 1000, forceHeader: false, atomicity: 'skipCol', skipLev: false, timestampColumn: 'ts',
    schema: schemaText === undefined ? undefined : parseSchemaPart(schemaText),
    onBatch: (batch: PartitionedRows) => {
      for (const part of batch.parts) rows += part.rows.rowCount;
    },
  });
  for (const chunk of chunks) await session.push(chunk);
  const summary = await session.finish();
  if (summary.rowsImported !== rows) throw new RangeError('batch rows disagree with the summary');
  return rows;
}

/** The simplest alternative: decode, split lines and fields, convert with the built-ins. */
function runNaive(chunks: Buffer[]): number {
  const ts = new Float64Array(batchRowsMax);
  const sym: string[] = new Array<string>(batchRowsMax);
  const price = new Float64Array(batchRowsMax);
  const amount = new Float64Array(batchRowsMax);
  let tail = '';
  let rows = 0;
  let header = true;
  let fill = 0;
  for (const chunk of chunks) {
    const lines = (tail + chunk.toString('utf8')).split('\n');
    tail = lines.pop() ?? '';
    for (const line of lines) {
      if (header) {
        header = false;
        continue;
      }
      const fields = line.split(',');
      ts[fill] = Date.parse(fields[0]) * 1000;
      sym[fill] = fields[1];
      price[fill] = Number(fields[2]);
      amount[fill] = Number(fields[3]);
      rows++;
      if (++fill === batchRowsMax) fill = 0;
    }
  }
  return rows;
}

interface Figure {
  name: string;
  ms: number[];
  rows: number;
}

async function measure(name: string, repeats: number, bytes: number, run: () => Promise<number> | number): Promise<Figure> {
  const ms: number[] = [];
  let rows = 0;
  for (let k = 0; k < repeats; k++) {
    const start = performance.now();
    rows = await run();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  void bytes;
  return { name, ms, rows };
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 2_000_000);
  const chunks = generateChunks(rows);
  const bytes = chunks.reduce((sum, c) => sum + c.length, 0);
  console.log(`csv-import: ${rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB in ${chunks.length} chunks of ${CHUNK_BYTES} B`);
  await runSession(chunks); // warm-up: lets V8 optimise the loops before timing
  const symbolSchema = '[{"name":"sym","type":"SYMBOL"},{"name":"amount","type":"LONG"}]';
  const figures = [
    await measure('session (detected types)', 5, bytes, () => runSession(chunks)),
    await measure('session (sym SYMBOL, amount LONG)', 5, bytes, () => runSession(chunks, symbolSchema)),
    await measure('naive split + Number/Date.parse', 3, bytes, () => runNaive(chunks)),
  ];
  console.log('| parser | rows | p50 ms | min ms | rows/s (p50) | MB/s (p50) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const f of figures) {
    const p50 = f.ms[Math.floor(f.ms.length / 2)];
    console.log(`| ${f.name} | ${f.rows} | ${p50.toFixed(0)} | ${f.ms[0].toFixed(0)} | ${(f.rows / (p50 / 1000) / 1e6).toFixed(2)} M | ${(bytes / 1e6 / (p50 / 1000)).toFixed(0)} |`);
  }
}

await main();
