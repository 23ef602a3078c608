// Named builders for import tests: CSV text from rows, chunkings of an upload (whole, every byte, seeded
// random splits), a session runner that collects batches, and decoders that turn storage-form values back
// into JS values.
import type { ColumnData, RowChunk } from '../../../src/storage/row-chunk.js';
import { varValueAsString } from '../../../src/storage/row-chunk.js';
import type { ColumnType } from '../../../src/types/column-type.js';
import { createImportSession, type ImportSessionOptions, type ImportSummary } from '../../../src/import/import-session.js';

export interface CsvTextOptions {
  readonly delimiter?: string;
  readonly lineEnd?: string;
  readonly bom?: boolean;
  /** Line end after the last row (default true). */
  readonly trailingLineEnd?: boolean;
}

/** CSV text from rows of already-quoted cells. */
export function csvText(rows: ReadonlyArray<ReadonlyArray<string>>, options: CsvTextOptions = {}): string {
  const delimiter = options.delimiter ?? ',';
  const lineEnd = options.lineEnd ?? '\n';
  const body = rows.map((cells) => cells.join(delimiter)).join(lineEnd);
  return `${options.bom === true ? '\ufeff' : ''}${body}${options.trailingLineEnd === false ? '' : lineEnd}`;
}

/** The upload as one chunk. */
export function wholeChunks(data: Buffer): Buffer[] {
  return [data];
}

/** The upload cut into pieces of `size` bytes (1 = every byte boundary, including inside UTF-8 sequences). */
export function fixedChunks(data: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) chunks.push(Buffer.from(data.subarray(i, i + size)));
  return chunks;
}

/** The upload cut at pseudo-random points (deterministic for a seed). */
export function randomChunks(data: Buffer, seed: number, maxSize = 17): Buffer[] {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length;) {
    const size = 1 + Math.floor(next() * maxSize);
    chunks.push(Buffer.from(data.subarray(i, i + size)));
    i += size;
  }
  return chunks;
}

export interface ImportRun {
  readonly summary: ImportSummary;
  readonly batches: RowChunk[];
  readonly columns: ReadonlyArray<{ name: string; type: ColumnType }>;
}

export type SessionOverrides = Partial<Omit<ImportSessionOptions, 'onBatch'>>;

/** Runs a whole upload through a session with QuestDB's defaults unless overridden. */
export async function runImport(data: string | Buffer, overrides: SessionOverrides = {}, chunking = wholeChunks): Promise<ImportRun> {
  const batches: RowChunk[] = [];
  const session = createImportSession({
    analysisMaxLines: 1000, forceHeader: false, atomicity: 'skipCol', skipLev: false, ...overrides,
    // Without a layout every batch arrives as one part.
    onBatch: (rows) => {
      for (const part of rows.parts) batches.push(part.rows);
    },
  });
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  for (const chunk of chunking(bytes)) await session.push(chunk);
  const summary = await session.finish();
  return { summary, batches, columns: session.columns() };
}

/** One staged value as a plain JS value: null for nulls, bigint for LONG, numbers for temporal types, text for SYMBOL and UUID. */
export function stagedValue(column: ColumnData, type: ColumnType, row: number): unknown {
  if (column.kind === 'var') return varValueAsString(column, row);
  const at = row * column.width;
  const bytes = column.bytes;
  switch (type) {
    case 'LONG': {
      const value = bytes.readBigInt64LE(at);
      return value === -9223372036854775808n ? null : value;
    }
    case 'DATE': case 'TIMESTAMP': {
      const value = bytes.readBigInt64LE(at);
      return value === -9223372036854775808n ? null : Number(value);
    }
    case 'INT': {
      const value = bytes.readInt32LE(at);
      return value === -2147483648 ? null : value;
    }
    case 'IPV4': return bytes.readInt32LE(at);
    case 'CHAR': {
      const code = bytes.readUInt16LE(at);
      return code === 0 ? null : String.fromCharCode(code);
    }
    case 'DOUBLE': case 'FLOAT': {
      const value = type === 'DOUBLE' ? bytes.readDoubleLE(at) : bytes.readFloatLE(at);
      return Number.isNaN(value) ? null : value;
    }
    case 'SHORT': return bytes.readInt16LE(at);
    default: return bytes.readInt8(at);
  }
}

/** All rows of all batches, each as an array of plain values. */
export function allRows(run: ImportRun): unknown[][] {
  const rows: unknown[][] = [];
  for (const batch of run.batches) {
    for (let r = 0; r < batch.rowCount; r++) rows.push(batch.columns.map((c, k) => stagedValue(c, run.columns[k]?.type ?? 'VARCHAR', r)));
  }
  return rows;
}

/** Epoch microseconds of an ISO text, for expected TIMESTAMP values. */
export function micros(iso: string): number {
  const [whole, fraction = ''] = iso.replace('Z', '').split('.');
  return Date.parse(`${whole}Z`) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}
