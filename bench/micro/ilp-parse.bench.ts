// Parser micro-bench: IlpParser alone over pre-generated bodies (no HTTP, no commit), rows/s and MB/s for the
// narrow standard rows and TSBS cpu-only rows, beside a plain byte scan for newlines as the floor.
import { IlpParser } from '../../src/ilp/line-parser.js';
import { ilpBodies, standardIlpRow, tsbsCpuRow } from '../lib/ilp-bodies.js';

const rows = Number(process.env['BENCH_ROWS'] ?? 1_000_000);

function parseAll(bodies: readonly Buffer[]): number {
  let parsed = 0;
  for (const body of bodies) {
    const parser = new IlpParser({
      precision: 'ns', lineBytesMax: 1 << 20, autoCreateTables: true, autoCreateColumns: true, tablesMax: 100,
      lookupTable: () => undefined, nowMicros: () => Date.now() * 1000,
    });
    for (let at = 0; at < body.length; at += 65536) parser.feed(body.subarray(at, Math.min(body.length, at + 65536)));
    parser.finish();
    for (const table of parser.tables()) parsed += table.toChunk().rowCount;
  }
  return parsed;
}

function scanNewlines(bodies: readonly Buffer[]): number {
  let lines = 0;
  for (const body of bodies) for (let at = body.indexOf(10); at >= 0; at = body.indexOf(10, at + 1)) lines++;
  return lines;
}

for (const [name, row] of [['narrow', standardIlpRow], ['tsbs', (i: number) => tsbsCpuRow(i, 1000)]] as const) {
  const bodies = ilpBodies(rows, 50_000, row);
  const megabytes = bodies.reduce((sum, body) => sum + body.length, 0) / 1e6;
  for (let round = 0; round < Number(process.env["BENCH_ROUNDS"] ?? 3); round++) {
    let started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    const parsed = parseAll(bodies);
    const cpu = process.cpuUsage(cpuBefore);
    const parseSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuMicrosPerRow = (cpu.user + cpu.system) / parsed;
    started = process.hrtime.bigint();
    scanNewlines(bodies);
    const scanSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    process.stdout.write(`${name}: ${parsed} rows, parse ${(parsed / parseSeconds / 1e6).toFixed(2)}M rows/s ${(megabytes / parseSeconds).toFixed(0)} MB/s, ${(cpuMicrosPerRow * 1000).toFixed(0)} ns CPU per row; newline scan ${(megabytes / scanSeconds).toFixed(0)} MB/s\n`);
  }
}
