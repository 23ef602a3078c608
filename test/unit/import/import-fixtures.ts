// Named builders for import tests: CSV text from rows, chunkings of an upload (whole, every byte, seeded
// random splits), a session runner that collects batches, and decoders that turn vectors back into JS values.
import type { ColumnBatch, Vector } from '../../../src/sql/exec/batch.js';
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
  readonly batches: ColumnBatch[];
  readonly columns: ReadonlyArray<{ name: string; type: string }>;
}

export type SessionOverrides = Partial<Omit<ImportSessionOptions, 'onBatch'>>;

/** Runs a whole upload through a session with QuestDB's defaults unless overridden. */
export async function runImport(data: string | Buffer, overrides: SessionOverrides = {}, chunking = wholeChunks): Promise<ImportRun> {
  const batches: ColumnBatch[] = [];
  const session = createImportSession({
    analysisMaxLines: 1000, forceHeader: false, atomicity: 'skipCol', skipLev: false, ...overrides,
    onBatch: (batch) => {
      batches.push(batch);
    },
  });
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  for (const chunk of chunking(bytes)) await session.push(chunk);
  const summary = await session.finish();
  return { summary, batches, columns: session.columns() };
}

/** One vector value as a plain JS value: null for nulls, bigint for LONG, text for SYMBOL. */
export function vectorValue(vector: Vector, row: number): unknown {
  const data = vector.data;
  switch (vector.type) {
    case 'LONG': {
      const exact = vector.exact;
      if (exact === undefined) throw new RangeError('LONG vector without exact values');
      return exact[row] === -9223372036854775808n ? null : exact[row];
    }
    case 'SYMBOL': {
      const key = (data as Int32Array)[row];
      return key === -1 ? null : (vector.symbols ?? [])[key];
    }
    case 'INT':
      return (data as Int32Array)[row] === -2147483648 ? null : (data as Int32Array)[row];
    case 'CHAR':
      return (data as Uint16Array)[row] === 0 ? null : String.fromCharCode((data as Uint16Array)[row]);
    default: {
      const value = (data as ArrayLike<unknown>)[row];
      return typeof value === 'number' && Number.isNaN(value) ? null : value;
    }
  }
}

/** All rows of all batches, each as an array of plain values. */
export function allRows(run: ImportRun): unknown[][] {
  const rows: unknown[][] = [];
  for (const batch of run.batches) {
    for (let r = 0; r < batch.rowCount; r++) rows.push(batch.vectors.map((v) => vectorValue(v, r)));
  }
  return rows;
}

/** Epoch microseconds of an ISO text, for expected TIMESTAMP values. */
export function micros(iso: string): number {
  const [whole, fraction = ''] = iso.replace('Z', '').split('.');
  return Date.parse(`${whole}Z`) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}
