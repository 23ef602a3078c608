// One ILP commit unit (an HTTP request, or what a TCP connection sent since its last commit): lines are parsed
// into column builders; once the builders hold more than a bound, their rows move to a staged file under
// db/.staging/ and the builders are reused, so a worker's memory stays bounded however large the body.
// commitRequest() stages the rest and describes it for the primary, which reads the file before it answers;
// committed() then gives the file back to the process's pool (staged-file-pool.ts), discard() deletes it.
import * as fs from 'node:fs';
import type { IlpCommitRequest, IlpTableBatch, IlpTableStart, WriterClient } from '../engine/writer-client.js';
import type { IlpTableBuilder } from './ilp-table-builder.js';
import type { Catalog } from '../storage/catalog.js';
import type { TableMeta } from '../storage/table-meta.js';
import { StagedChunksWriter } from '../storage/staged-chunks.js';
import { stagingRoot } from '../storage/staging-segment.js';
import { stagedFiles } from './staged-file-pool.js';
import { IlpParser } from './line-parser.js';
import type { TimestampUnit } from './ilp-numbers.js';
import { ilpRowsHintTablesMax, ilpTablesPerRequestMax } from '../core/limits.js';

export interface IlpIngestOptions {
  readonly dbDir: string;
  readonly catalog: Catalog;
  readonly lineBytesMax: number;
  readonly autoCreateTables: boolean;
  readonly autoCreateColumns: boolean;
  readonly partitionBy: string;
  /** Timestamp columns this request creates are TIMESTAMP_NS. */
  readonly nanosTimestamps?: boolean;
  /** Parsed bytes held in memory before they move to the staged file. */
  readonly spillBytes: number;
}

/** The table's structure as committed now, or undefined. */
export function lookupTableMeta(catalog: Catalog, name: string): TableMeta | undefined {
  const stored = catalog.resolveName(name);
  return stored === undefined ? undefined : catalog.openSnapshot(stored)?.meta;
}

/**
 * Rows the last commit unit of each table held in this process, by lower-case name: the next unit's column
 * builders start with that much room instead of growing from a few hundred rows by doubling copies (2.6% of a
 * worker's time under TSBS load). Cleared whenever it reaches ilpRowsHintTablesMax tables.
 */
const lastUnitRows = new Map<string, number>();
/** The fewest bytes a line with a value takes (`t v=1i\n` is 7): a unit of B bytes holds at most B / this rows. */
const LINE_BYTES_MIN = 8;

function rememberUnitRows(table: string, rows: number): void {
  if (lastUnitRows.size >= ilpRowsHintTablesMax) lastUnitRows.clear();
  lastUnitRows.set(table.toLowerCase(), rows);
}

/** Where a request announces itself to the primary's commit ordering (a WriterClient). */
export type IlpOrderChannel = Pick<WriterClient, 'ilpAnnounce' | 'ilpWithdraw'>;

/** Announcement ids, unique in this process. */
let nextAnnounceId = 1;

/** The first designated timestamp of every table with one, in µs (floored from ns). */
function tableStarts(tables: readonly IlpTableBuilder[]): IlpTableStart[] {
  const starts: IlpTableStart[] = [];
  for (const table of tables) {
    const timestamp = table.timestamp;
    if (timestamp === undefined || timestamp.length === 0) continue;
    const value = new DataView(timestamp.bytes.buffer, timestamp.bytes.byteOffset, 8).getBigInt64(0, true);
    starts.push({ table: table.name, firstMicros: Number(table.nanosTimestamp ? value / 1000n : value) });
  }
  return starts;
}

export class IlpRequest {
  private readonly parser: IlpParser;
  private staged: StagedChunksWriter | undefined;
  private readonly batches: IlpTableBatch[] = [];
  /** First timestamps per table, taken when the first rows were parsed (before any spill empties the builders). */
  private starts: IlpTableStart[] | undefined;
  private announceId: number | undefined;
  private fedBytes = 0;

  /**
   * `expectedBytes`: how large the unit can be (a body's Content-Length), which bounds the rows room is made for.
   * `order`: where a unit still being received once its first rows are parsed announces itself.
   */
  constructor(private readonly options: IlpIngestOptions, precision: TimestampUnit, private readonly expectedBytes = 0, private readonly order?: IlpOrderChannel) {
    const rowsMax = Math.floor(expectedBytes / LINE_BYTES_MIN);
    this.parser = new IlpParser({
      precision, lineBytesMax: options.lineBytesMax, autoCreateTables: options.autoCreateTables,
      autoCreateColumns: options.autoCreateColumns, tablesMax: ilpTablesPerRequestMax, nanosTimestamps: options.nanosTimestamps === true,
      lookupTable: (name) => lookupTableMeta(options.catalog, name),
      nowMicros: () => Date.now() * 1000,
      rowsHint: (name) => Math.min(rowsMax, lastUnitRows.get(name.toLowerCase()) ?? 0),
    });
  }

  /** Rows parsed so far. */
  get rows(): number {
    return this.parser.rows;
  }

  /** Lines finished so far (see IlpParser.linesFinished). */
  get lines(): number {
    return this.parser.linesFinished;
  }

  /** Parsed bytes held in memory: column builders and the unfinished last line. */
  get sizeBytes(): number {
    return this.parser.sizeBytes();
  }

  /** Takes the unfinished last line; the next commit unit of a stream starts with it. */
  takeUnfinishedLine(): Buffer | undefined {
    return this.parser.takeUnfinishedLine();
  }

  /** Parses a chunk of the body (throws IlpError on the first bad line). */
  feed(chunk: Buffer): void {
    this.parser.feed(chunk);
    this.fedBytes += chunk.length;
    if (this.starts === undefined && this.parser.rows > 0) this.takeStarts();
    if (this.parser.sizeBytes() > this.options.spillBytes) this.spill();
  }

  /**
   * Notes where the rows start and, while more of the unit is to come, tells the primary: a unit parsed whole
   * from its first chunk commits right away, and its message would only cost the primary a wake-up.
   */
  private takeStarts(): void {
    const starts = tableStarts(this.parser.tables());
    this.starts = starts;
    if (this.order === undefined || starts.length === 0 || (this.expectedBytes > 0 && this.fedBytes >= this.expectedBytes)) return;
    this.announceId = nextAnnounceId++;
    this.order.ilpAnnounce({ id: this.announceId, starts });
  }

  /** The body ended; parses its last line. */
  finish(): void {
    this.parser.finish();
  }

  private spill(): void {
    const tables = this.parser.tables();
    if (tables.length === 0) return;
    if (this.staged === undefined) {
      const dir = stagingRoot(this.options.dbDir);
      fs.mkdirSync(dir, { recursive: true });
      this.staged = new StagedChunksWriter(stagedFiles.take(dir));
    }
    const refs = this.staged.append(tables.map((table) => table.toChunk()));
    tables.forEach((table, k) => {
      rememberUnitRows(table.name, table.rowCount);
      const chunk = refs[k];
      if (chunk === undefined) return;
      this.batches.push({
        table: table.name,
        ...(table.timestampName === undefined ? {} : { timestampColumn: table.timestampName, timestampType: table.nanosTimestamp ? 'TIMESTAMP_NS' as const : 'TIMESTAMP' as const }),
        columns: table.columns.map((column) => ({ name: column.name, type: column.type })),
        chunk,
      });
    });
    this.parser.resetRows();
  }

  /** Stages every parsed row and describes them for the primary; undefined when the body held no rows. */
  commitRequest(): IlpCommitRequest | undefined {
    if (this.starts === undefined && this.parser.rows > 0) this.starts = tableStarts(this.parser.tables());
    this.spill();
    // Every row is in the staged file now: the builders' memory goes back for the next request.
    this.parser.release();
    const staged = this.staged;
    if (staged === undefined) {
      this.withdraw();
      return undefined;
    }
    staged.close();
    const order = { ...(this.starts === undefined ? {} : { starts: this.starts }), ...(this.announceId === undefined ? {} : { announceId: this.announceId }) };
    return { stagedFile: staged.path, stagedBytes: staged.sizeBytes, tables: [...this.batches], partitionBy: this.options.partitionBy, ...order };
  }

  /** The primary answered the commit as done: it read the staged file, which the next request may now reuse. */
  committed(): void {
    const staged = this.staged;
    this.staged = undefined;
    if (staged !== undefined) stagedFiles.give(staged.path);
  }

  /**
   * Drops what was staged: the request failed before its commit was sent, or the commit failed. The file is
   * deleted, not reused: without an answer (an IPC timeout) the primary may still read it later.
   */
  discard(): void {
    this.parser.release();
    this.staged?.discard();
    this.staged = undefined;
    this.withdraw();
  }

  /** Nothing of this unit will commit: the primary stops holding later units for it. */
  private withdraw(): void {
    if (this.announceId === undefined) return;
    this.order?.ilpWithdraw(this.announceId);
    this.announceId = undefined;
  }
}
