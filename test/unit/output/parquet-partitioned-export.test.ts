// partition_by ≠ NONE: one Parquet file per partition of the designated timestamp inside one streamed ZIP.
// The archive is read back twice: by a minimal central-directory reader here (names, CRCs, stored data) and,
// where the tool exists, by `unzip -t`; every file is then read by DuckDB.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { crc32 } from 'node:zlib';
import type { ColumnBatch } from '../../../src/sql/exec/batch.js';
import { loadParquetCodecs } from '../../../src/output/parquet-codecs.js';
import { PARQUET_EXPORT_DEFAULTS } from '../../../src/output/parquet-params.js';
import type { ExportColumn, ParquetExportOptions, ParquetPartitionUnit } from '../../../src/output/parquet-params.js';
import { createParquetExportWriter, parquetExportDownload, partitionRange } from '../../../src/output/partitioned-export.js';
import { encodeParquet } from '../../../src/output/parquet-thread.js';
import { ZipStreamWriter } from '../../../src/output/zip-stream-writer.js';
import { ParquetReader } from '../../helpers/duckdb-parquet.js';

let reader: ParquetReader;
test.before(async () => {
  await loadParquetCodecs();
  reader = await ParquetReader.open();
});
test.after.always(() => reader.close());

const COLUMNS: readonly ExportColumn[] = [{ name: 'v', type: 'INT' }, { name: 'ts', type: 'TIMESTAMP' }];
const HOUR = 3_600_000_000;
const JAN_1_2024 = 1_704_067_200_000_000;

/** One row per given timestamp, `v` counting rows. */
function timedBatch(timestamps: readonly number[], firstValue = 0): ColumnBatch {
  return {
    rowCount: timestamps.length,
    vectors: [{ type: 'INT', data: Int32Array.from(timestamps, (_, k) => firstValue + k) }, { type: 'TIMESTAMP', data: Float64Array.from(timestamps) }],
  };
}

function exportZip(batches: readonly ColumnBatch[], partitionBy: ParquetPartitionUnit): Buffer {
  const parts: Uint8Array[] = [];
  const options: ParquetExportOptions = { ...PARQUET_EXPORT_DEFAULTS, partitionBy };
  const writer = createParquetExportWriter(COLUMNS, options, 1, (bytes) => parts.push(bytes));
  for (const batch of batches) writer.writeBatch(batch);
  writer.finish();
  return Buffer.concat(parts);
}

/** Entries of a ZIP from its central directory; checks each stored entry's CRC and its local header. */
function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let k = 0; k < count; k++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('central directory entry expected');
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (zip.readUInt32LE(offset) !== 0x04034b50) throw new Error(`local header of ${name} expected`);
    const dataStart = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const data = zip.subarray(dataStart, dataStart + size);
    if (crc32(data) !== crc) throw new Error(`CRC of ${name}`);
    entries.set(name, data);
    at += 46 + nameLength + skip;
  }
  return entries;
}

function unzipTest(t: { is: (a: unknown, b: unknown, m?: string) => void }, path: string): void {
  const probe = spawnSync('unzip', ['-tq', path], { encoding: 'utf8' });
  if (probe.error !== undefined) return; // no unzip on this machine
  t.is(probe.status, 0, probe.stdout + probe.stderr);
}

test('DAY: one file per day named like QuestDB partitions, each holding that day’s rows', async (t) => {
  const day = 24 * HOUR;
  const stamps = Array.from({ length: 30 }, (_, k) => JAN_1_2024 + Math.floor(k / 10) * day + (k % 10) * HOUR);
  const zip = exportZip([timedBatch(stamps.slice(0, 15)), timedBatch(stamps.slice(15), 15)], 'DAY');
  unzipTest(t, reader.save('days.zip', zip));
  const entries = readZip(zip);
  t.deepEqual([...entries.keys()], ['2024-01-01.parquet', '2024-01-02.parquet', '2024-01-03.parquet']);
  for (const [index, [name, bytes]] of [...entries].entries()) {
    const rows = await reader.rows(`select min(v)::INT lo, max(v)::INT hi, count(*)::INT n from read_parquet('${reader.save(name, bytes)}')`);
    t.deepEqual(rows, [{ lo: index * 10, hi: index * 10 + 9, n: 10 }], name);
  }
});

test('partition names and bounds for every unit, and a null timestamp', (t) => {
  const at = JAN_1_2024 + 35 * 24 * HOUR + 5 * HOUR + 1; // 2024-02-05T05:00:00.000001Z, a Monday
  t.deepEqual(partitionRange('HOUR', at), { lo: at - 1, hi: at - 1 + HOUR, name: '2024-02-05T05' });
  t.is(partitionRange('DAY', at).name, '2024-02-05');
  t.deepEqual(partitionRange('WEEK', at), { lo: at - 1 - 5 * HOUR, hi: at - 1 - 5 * HOUR + 7 * 24 * HOUR, name: '2024-W06' });
  t.is(partitionRange('MONTH', at).name, '2024-02');
  t.is(partitionRange('YEAR', at).name, '2024');
  t.is(partitionRange('WEEK', JAN_1_2024 - 1).name, '2023-W52');
  t.is(partitionRange('DAY', Number.NaN).name, 'null');
});

test('a partition the rows come back to gets a further file; no row is lost', async (t) => {
  const stamps = [JAN_1_2024, JAN_1_2024 + HOUR, JAN_1_2024 + 2 * HOUR, JAN_1_2024 + 10, JAN_1_2024 + 2 * HOUR + 5];
  const entries = readZip(exportZip([timedBatch(stamps)], 'HOUR'));
  t.deepEqual([...entries.keys()], ['2024-01-01T00.parquet', '2024-01-01T01.parquet', '2024-01-01T02.parquet', '2024-01-01T00.1.parquet', '2024-01-01T02.1.parquet']);
  let total = 0;
  for (const [name, bytes] of entries) {
    const [row] = await reader.rows(`select count(*)::INT n from read_parquet('${reader.save(name, bytes)}')`);
    total += Number(row?.['n']);
  }
  t.is(total, stamps.length);
});

test('through the thread: a valid archive, with the download named .zip', async (t) => {
  const stamps = Array.from({ length: 5000 }, (_, k) => JAN_1_2024 + k * 60_000_000 * 7);
  async function* batches(): AsyncGenerator<ColumnBatch> {
    for (let from = 0; from < stamps.length; from += 1000) yield timedBatch(stamps.slice(from, from + 1000), from);
  }
  const options: ParquetExportOptions = { ...PARQUET_EXPORT_DEFAULTS, partitionBy: 'WEEK', rowGroupRows: 700 };
  t.deepEqual(parquetExportDownload(options), { contentType: 'application/zip', extension: '.zip' });
  t.deepEqual(parquetExportDownload(PARQUET_EXPORT_DEFAULTS), { contentType: 'application/vnd.apache.parquet', extension: '.parquet' });
  const parts: Uint8Array[] = [];
  for await (const part of encodeParquet({ columns: COLUMNS, options, timestampIndex: 1, batches: batches() })) parts.push(part);
  const zip = Buffer.concat(parts);
  unzipTest(t, reader.save('weeks.zip', zip));
  const entries = readZip(zip);
  t.deepEqual([...entries.keys()], ['2024-W01.parquet', '2024-W02.parquet', '2024-W03.parquet', '2024-W04.parquet']);
  const paths = [...entries].map(([name, bytes]) => `'${reader.save(name, bytes)}'`);
  const [row] = await reader.rows(`select count(*)::INT n, sum(v)::BIGINT::VARCHAR total from read_parquet([${paths.join(', ')}])`);
  t.deepEqual(row, { n: 5000, total: String((4999 * 5000) / 2) });
});

test('ZIP writer: an empty archive and UTF-8 names are valid', (t) => {
  const parts: Uint8Array[] = [];
  const empty = new ZipStreamWriter((bytes) => parts.push(bytes));
  empty.finish();
  const emptyZip = Buffer.concat(parts);
  t.is(emptyZip.length, 22);
  t.is(readZip(emptyZip).size, 0);
  parts.length = 0;
  const named = new ZipStreamWriter((bytes) => parts.push(bytes), new Date(Date.UTC(2024, 0, 2, 3, 4, 6)));
  named.beginEntry('données/été.txt');
  named.writeEntryData(Buffer.from('bonjour '));
  named.writeEntryData(Buffer.from('été'));
  named.endEntry();
  named.finish();
  const zip = Buffer.concat(parts);
  unzipTest(t, reader.save('names.zip', zip));
  t.deepEqual([...readZip(zip)].map(([name, data]) => [name, data.toString('utf8')]), [['données/été.txt', 'bonjour été']]);
});
