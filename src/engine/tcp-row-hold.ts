// The primary's out-of-order hold for rows that arrive over ILP TCP. Several connections writing one table
// each send their rows in time order, but they reach the primary skewed: under load a connection's rows wait
// behind megabytes in its client's send buffer, so a group commit of every connection's units spans their
// positions, and the next group's rows land below what the previous one committed. Each such group was an
// out-of-order merge that copied and rewrote the partition from the lowest new row on (1.4-2.2 rows written
// per row for 8 connections). Senders get no answer over TCP, so the primary may keep rows back: it learns how
// far below the newest row seen recent groups reached (the lag), commits the rows older than newest - lag,
// in order, and keeps the rest, sorted, for the next group, which then appends instead of merging. A sender
// in time order never reaches back, its lag stays 0 and nothing is held.
// Held rows are committed at the latest when: a later group's newest rows pass them; they have waited
// ageMaxMs; the table's held rows would pass bytesMax (the oldest commit first); nothing arrived for the table
// for a commit interval, the last TCP connection closed, or any other write runs (TcpRowHold.drain, called by
// the writer service); the server shuts down. Rows held are not yet in the WAL: a crash of the primary loses
// them, as it loses rows still in a connection's unit (TCP acknowledges nothing).
import type { TableWriter } from '../storage/table-writer.js';
import type { ColumnMeta } from '../storage/table-meta.js';
import type { ScratchMemory } from '../core/scratch-memory.js';
import { TurnMemory } from '../core/turn-memory.js';
import { realIdleTimers } from '../core/idle-check.js';
import { turnMemoryIdleMs } from '../core/limits.js';
import { assert } from '../core/assert.js';
import { concatIncomingChunks, nullSymbolIds, type IncomingChunk, type IncomingColumnData } from '../storage/symbol-ids.js';
import { copyIncomingChunk, gatherIncomingChunk, sliceIncomingChunk } from '../storage/incoming-rows.js';
import { gatherColumn } from '../storage/row-chunk.js';
import { gatherKeys, isAscending, stableSortPermutation, timestampKeysOf, timestampsOf } from '../storage/partition-layout.js';
import { nullColumnData } from '../storage/column-files.js';
import { newestTimestamp } from '../storage/txn-file.js';

/** Groups whose reach-back sets the lag: enough to cover the skew's swings, few enough to forget an old burst. */
const REACH_GROUPS = 8;
/** The lag is the largest recent reach-back times this, so a group reaching a little further still appends. */
const LAG_MARGIN = 2;
/** Rows a table may always hold, whatever its newest partition holds: copying and sorting them costs milliseconds. */
const HELD_ROWS_FLOOR = 100_000;
/**
 * Copies a held row costs per group it waits: concatenated with the next group's rows, gathered into order,
 * kept in the hold's memory. A merge copies the partition's rows once (the older ones in the kernel).
 */
const HOLD_COPIES = 3;
/** A table that holds nothing and got no rows for this long is forgotten, its lag learned anew. */
const FORGET_AFTER_MS = 10 * 60_000;
/** Arrival times are kept per held row in units of this many ms (an int32 then spans years). */
const ARRIVAL_UNIT_MS = 100;

export interface TcpRowHoldOptions {
  /** Held rows older than this are committed with the next group. */
  readonly ageMaxMs: number;
  /** Bytes of rows one table may hold; past it the oldest rows commit. */
  readonly bytesMax: number;
  /**
   * The least lag (µs) once a table's groups reached back at all: twice the commit interval. A worker's units
   * that miss a tick's group come with the next one, a whole interval of rows below the newest; with rows
   * stamped by the clock that is what the groups reach, after smaller reaches that would set a lag too short.
   */
  readonly lagFloorMicros: number;
}

interface TableHold {
  /** Held rows, ascending by designated timestamp, in `memory`; undefined when none. */
  rows: IncomingChunk | undefined;
  /** Arrival of each held row, in ARRIVAL_UNIT_MS since the hold was created. */
  arrivals: Int32Array | undefined;
  readonly memory: TurnMemory;
  /** Newest designated timestamp seen (µs), committed or held. */
  seenMax: number;
  /** Reach-backs (µs) of the last REACH_GROUPS groups, 0 for one that reached nothing. */
  readonly reaches: number[];
  /** When rows last arrived for the table (ms). */
  lastArrivalMs: number;
}

/** A column of `rowCount` nulls in the form the line protocol's rows take (SYMBOLs as dictionary ids). */
export function absentIncomingColumn(column: ColumnMeta, rowCount: number): IncomingColumnData {
  return column.type === 'SYMBOL' ? nullSymbolIds(rowCount) : nullColumnData(column.type, rowCount);
}

export class TcpRowHold {
  private readonly tables = new Map<TableWriter, TableHold>();
  private readonly startMs: number;

  constructor(private readonly options: TcpRowHoldOptions, nowMs: number) {
    this.startMs = nowMs;
  }

  /** Rows held across every table. */
  get heldRows(): number {
    let rows = 0;
    for (const hold of this.tables.values()) rows += hold.rows?.rowCount ?? 0;
    return rows;
  }

  /** Whether `writer`'s table has rows held. */
  holds(writer: TableWriter): boolean {
    return (this.tables.get(writer)?.rows?.rowCount ?? 0) > 0;
  }

  /** Tables with rows held whose last rows arrived at least `quietMs` before `nowMs`. */
  quietTables(nowMs: number, quietMs: number): TableWriter[] {
    return [...this.tables].filter(([, hold]) => (hold.rows?.rowCount ?? 0) > 0 && nowMs - hold.lastArrivalMs >= quietMs).map(([writer]) => writer);
  }

  /** Tables with rows held. */
  heldTables(): TableWriter[] {
    return [...this.tables].filter(([, hold]) => (hold.rows?.rowCount ?? 0) > 0).map(([writer]) => writer);
  }

  /**
   * The rows of `writer`'s table to commit now, in `memory` (ascending when some are held back; in arrival
   * order when all of them commit, which the writer sorts as it does any group): the held rows and `incoming` (laid out
   * in the table's current columns) up to the newest seen less the lag; the rest is held. With `mayHold`
   * false (rows another client waits for, or no TCP connection left) everything held and incoming commits.
   */
  admit(writer: TableWriter, incoming: readonly IncomingChunk[], mayHold: boolean, nowMs: number, memory: ScratchMemory): IncomingChunk {
    const meta = writer.meta;
    assert(incoming.length > 0, 'a table of a group has rows');
    if (meta.timestampIndex < 0) return concatIncomingChunks(incoming, memory);
    const hold = this.tables.get(writer) ?? this.newHold(writer, nowMs);
    const nanos = meta.columns[meta.timestampIndex]?.type === 'TIMESTAMP_NS';
    const held = hold.rows === undefined ? undefined : withColumns(hold.rows, meta.columns);
    const heldCount = held?.rowCount ?? 0;
    const all = concatIncomingChunks(held === undefined ? incoming : [held, ...incoming], memory);
    const count = all.rowCount;
    const micros = timestampsOf(assertFixed(all.columns[meta.timestampIndex]), count, nanos, memory.float64(count));
    const watermark = mayHold ? this.learn(hold, writer, micros.subarray(heldCount)) : Infinity;
    hold.lastArrivalMs = nowMs;
    // Nothing to hold (a sender in time order, a backfill, a held row too old: see commitsEverything): the rows
    // go on as they came, unsorted, and the writer places them (merging the units' runs, cheaper than a sort).
    if (watermark === Infinity || this.commitsEverything(micros, heldCount, hold.arrivals, watermark, nowMs, bytesPerRow(all), lastPartitionRows(writer))) {
      emptyHold(hold);
      return all;
    }
    const arrivals = memory.int32(count);
    if (hold.arrivals !== undefined) arrivals.set(hold.arrivals.subarray(0, heldCount));
    arrivals.fill(Math.floor((nowMs - this.startMs) / ARRIVAL_UNIT_MS), heldCount);
    // Sort once: the rows to commit are then a prefix, the rows to hold the rest.
    const keys = nanos ? timestampKeysOf(assertFixed(all.columns[meta.timestampIndex]), count, true, memory) : micros;
    let sorted = all;
    let sortedMicros = micros;
    let sortedArrivals = arrivals;
    if (!isAscending(keys)) {
      const order = stableSortPermutation(keys, memory);
      sorted = gatherIncomingChunk(all, order, 0, count, memory);
      const gathered = gatherKeys(micros, order, memory);
      assert(gathered instanceof Float64Array, 'µs timestamps gather as doubles');
      sortedMicros = gathered;
      const arrivalColumn = gatherColumn({ kind: 'fixed', width: 4, bytes: Buffer.from(arrivals.buffer, arrivals.byteOffset, arrivals.byteLength) }, order, 0, count, memory);
      assert(arrivalColumn.kind === 'fixed', 'arrivals gather as a fixed-width column');
      sortedArrivals = new Int32Array(arrivalColumn.bytes.buffer, arrivalColumn.bytes.byteOffset, count);
    }
    const cut = firstAbove(sortedMicros, watermark);
    this.keep(hold, sliceIncomingChunk(sorted, cut, count), sortedArrivals.subarray(cut, count));
    return sliceIncomingChunk(sorted, 0, cut);
  }

  /** Every row held for `writer`'s table, ascending (views valid until the next admit for it); none held after. */
  drain(writer: TableWriter): IncomingChunk | undefined {
    const hold = this.tables.get(writer);
    const rows = hold?.rows;
    if (hold === undefined || rows === undefined) return undefined;
    emptyHold(hold);
    return withColumns(rows, writer.meta.columns);
  }

  /**
   * Forgets tables that hold nothing and got no rows for a while (dropped ones among them) with what they
   * learned. Called once per group before its tables are admitted: a scan of every table per table admitted
   * would cost a group of many tables their count squared.
   */
  forgetIdle(nowMs: number): void {
    for (const [writer, hold] of this.tables) {
      if (hold.rows === undefined && nowMs - hold.lastArrivalMs > FORGET_AFTER_MS) this.tables.delete(writer);
    }
  }

  private newHold(writer: TableWriter, nowMs: number): TableHold {
    const hold: TableHold = {
      rows: undefined, arrivals: undefined, seenMax: -Infinity, reaches: [], lastArrivalMs: nowMs,
      memory: new TurnMemory({ bytesMax: this.options.bytesMax, idleMs: turnMemoryIdleMs, ...realIdleTimers }),
    };
    this.tables.set(writer, hold);
    return hold;
  }

  /**
   * Records how far the incoming rows (`micros`, their µs timestamps) reached below the newest row seen before
   * them, and returns the watermark: rows at or below it commit.
   */
  private learn(hold: TableHold, writer: TableWriter, micros: Float64Array): number {
    const seenBefore = Math.max(hold.seenMax, newestTimestamp(writer.txn.partitions));
    const low = lowest(micros);
    const high = highest(micros);
    hold.reaches.push(Number.isFinite(seenBefore) && low < seenBefore ? seenBefore - low : 0);
    if (hold.reaches.length > REACH_GROUPS) hold.reaches.shift();
    hold.seenMax = Math.max(seenBefore, high);
    const reach = Math.max(...hold.reaches);
    return reach > 0 ? hold.seenMax - Math.max(reach * LAG_MARGIN, this.options.lagFloorMicros) : Infinity;
  }

  /**
   * Whether all rows commit now rather than those at or below the watermark only: when a held row above it is
   * too old, or when holding would copy more than the merge it avoids (below). Decided before any sort: rows above
   * the watermark are the ones a sort would put last. `micros`: held rows first (`heldArrivals` theirs), then incoming.
   */
  private commitsEverything(
    micros: Float64Array, heldCount: number, heldArrivals: Int32Array | undefined, watermark: number, nowMs: number, rowBytes: number, partitionRows: number,
  ): boolean {
    const oldest = Math.floor((nowMs - this.startMs - this.options.ageMaxMs) / ARRIVAL_UNIT_MS);
    let above = 0;
    for (let row = 0; row < micros.length; row++) {
      if (micros[row] <= watermark) continue;
      above++;
      if (row < heldCount && heldArrivals !== undefined && heldArrivals[row] <= oldest) return true;
    }
    // Holding copies the held rows about HOLD_COPIES times per group they wait; the merge it avoids copies
    // about the newest partition once. So rows are held while they are fewer than that partition's rows over
    // HOLD_COPIES, or no more than the group commits now. Senders that reach back further (a backfill of old
    // data over many connections at full speed, whose units each span hours of data, all overlapping) would
    // hold most of a group only to commit it with the next one, out of order all the same: they merge.
    const rowsMax = Math.min(Math.floor(this.options.bytesMax / Math.max(rowBytes, 1)), Math.max(Math.floor(partitionRows / HOLD_COPIES), micros.length - above, HELD_ROWS_FLOOR));
    return above > rowsMax;
  }

  /** Keeps `rows` (views into this turn's memory) in the table's own memory, replacing what it held. */
  private keep(hold: TableHold, rows: IncomingChunk, arrivals: Int32Array): void {
    if (rows.rowCount === 0) {
      emptyHold(hold);
      return;
    }
    // The previous held rows were copied into the turn's memory by admit: their memory is free to overwrite.
    hold.memory.scope(() => {
      hold.rows = copyIncomingChunk(rows, hold.memory);
      const kept = hold.memory.int32(arrivals.length);
      kept.set(arrivals);
      hold.arrivals = kept;
    });
  }
}

/** The table holds no rows any more (they were committed or handed to the caller). */
function emptyHold(hold: TableHold): void {
  hold.rows = undefined;
  hold.arrivals = undefined;
}

// The scans live in functions of their own: inline in learn, the loop ran at about 60 ns a row in the server
// (a profile of one TCP connection put learn at a sixth of the primary's commit time), against 1.5 ns alone.
function lowest(micros: Float64Array): number {
  let low = Infinity;
  for (let row = 0; row < micros.length; row++) if (micros[row] < low) low = micros[row];
  return low;
}

function highest(micros: Float64Array): number {
  let high = -Infinity;
  for (let row = 0; row < micros.length; row++) if (micros[row] > high) high = micros[row];
  return high;
}

/** The first of ascending `micros` above `watermark` (their length when none is): rows before it commit. */
function firstAbove(micros: Float64Array, watermark: number): number {
  let low = 0;
  let high = micros.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (micros[middle] <= watermark) low = middle + 1;
    else high = middle;
  }
  return low;
}

function assertFixed(column: IncomingColumnData | undefined): Extract<IncomingColumnData, { kind: 'fixed' }> {
  assert(column !== undefined && column.kind === 'fixed', 'the designated timestamp is a fixed-width column');
  return column;
}

/** `rows` with nulls for the columns added to the table since they were held (columns are only ever appended). */
function withColumns(rows: IncomingChunk, columns: readonly ColumnMeta[]): IncomingChunk {
  if (rows.columns.length === columns.length) return rows;
  assert(rows.columns.length < columns.length, 'a table with held rows only gains columns (other changes commit them first)');
  return { rowCount: rows.rowCount, columns: [...rows.columns, ...columns.slice(rows.columns.length).map((column) => absentIncomingColumn(column, rows.rowCount))] };
}

/** Rows of the table's newest partition: about what an out-of-order merge into it copies. */
function lastPartitionRows(writer: TableWriter): number {
  const partitions = writer.txn.partitions;
  return partitions.length === 0 ? 0 : partitions[partitions.length - 1].rowCount;
}

/** Average bytes a row of `chunk` takes (dictionaries not counted). */
function bytesPerRow(chunk: IncomingChunk): number {
  if (chunk.rowCount === 0) return 0;
  let bytes = 0;
  for (const column of chunk.columns) bytes += column.kind === 'symbolIds' ? column.ids.length : column.bytes.length + (column.kind === 'var' ? column.offsets.length * 8 : 0);
  return bytes / chunk.rowCount + 4;
}
