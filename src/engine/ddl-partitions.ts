// ALTER TABLE t DROP PARTITION LIST 'name'[, ...] | WHERE <predicate on the designated timestamp>.
// LIST names a partition by its directory name or by any timestamp inside it. WHERE (bound in sql/,
// bindPartitionFilter) is evaluated once per partition with the designated timestamp bound to the partition's
// start (QuestDB's partition timestamp), so `WHERE ts < '2024-01-03'` drops the day partitions before the 3rd.
// All drops land in one _txn.
import type { AlterTableStatement, Expr } from '../sql/compiler.js';
import { bindPartitionFilter, createRuntime } from '../sql/compiler.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { PartitionEntry } from '../storage/txn-file.js';
import type { RowChunk } from '../storage/row-chunk.js';
import { partitionSpanOf } from '../storage/partition-layout.js';
import { parseTimestamp } from '../types/timestamp-parse.js';
import { formatTimestamp, partitionFloor } from '../types/timestamp.js';
import { sqlSemanticError } from '../core/errors.js';
import { assert } from '../core/assert.js';
import type { ParquetPartitionEncoder } from '../storage/parquet/parquet-partition-encoder-contract.js';

type DropPartition = Extract<AlterTableStatement['action'], { kind: 'dropPartition' }>;
type ConvertPartition = Extract<AlterTableStatement['action'], { kind: 'convertPartition' }>;

function listedPartition(writer: TableWriter, expr: Expr, convertTo?: string): PartitionEntry {
  const meta = writer.meta;
  const text = expr.kind === 'literal' && expr.value !== null ? String(expr.value) : undefined;
  if (text === undefined) throw sqlSemanticError('partition name expected', expr.position);
  const byName = writer.txn.partitions.find((entry) => entry.name === text);
  if (byName !== undefined) return byName;
  const micros = parseTimestamp(text);
  if (micros === undefined) throw sqlSemanticError(`Invalid date [str=${text}]`, expr.position);
  const name = partitionSpanOf(micros, meta.partitionBy).name;
  const found = writer.txn.partitions.find((entry) => entry.name === name);
  if (found === undefined && convertTo !== undefined) throw sqlSemanticError(`cannot convert partition to ${convertTo}, partition does not exist`, expr.position);
  if (found === undefined) {
    const floor = formatTimestamp(partitionFloor(micros, meta.partitionBy));
    throw sqlSemanticError(`could not remove partition [table=${meta.name}, partitionTimestamp=${floor}, partitionBy=${meta.partitionBy}]`, expr.position);
  }
  return found;
}

function matchingPartitions(writer: TableWriter, where: Expr, nowMicros: number): PartitionEntry[] {
  const meta = writer.meta;
  const { filter } = bindPartitionFilter(where, meta);
  const entries = writer.txn.partitions;
  const starts = Float64Array.from(entries, (entry) => partitionFloor(entry.minTimestamp, meta.partitionBy));
  const selection = new Int32Array(entries.length);
  const count = filter.run({ rowCount: entries.length, vectors: [{ type: 'TIMESTAMP', data: starts }] }, createRuntime(nowMicros), selection);
  return Array.from(selection.subarray(0, count), (index) => entries[index]);
}

/** Partitions a LIST or WHERE selects (LIST names must exist), without the newest (active) one. */
export function selectInactivePartitions(writer: TableWriter, selection: { readonly list?: readonly Expr[]; readonly where?: Expr }, nowMicros: number, verb: string): PartitionEntry[] {
  const chosen = selection.where !== undefined ? matchingPartitions(writer, selection.where, nowMicros) : (selection.list ?? []).map((expr) => listedPartition(writer, expr, verb));
  const active = writer.txn.partitions[writer.txn.partitions.length - 1]?.name;
  return chosen.filter((entry) => entry.name !== active);
}

export function dropPartitions(writer: TableWriter, action: DropPartition, nowMicros: number): void {
  if (writer.meta.partitionBy === 'NONE') throw sqlSemanticError('table is not partitioned', action.position);
  const dropped = action.where !== undefined ? matchingPartitions(writer, action.where, nowMicros) : (action.list ?? []).map((expr) => listedPartition(writer, expr));
  if (dropped.length === 0) return;
  const empty: RowChunk = { rowCount: 0, columns: [] };
  writer.rewritePartitions(new Map(dropped.map((entry) => [entry.name, empty])));
}

/**
 * ALTER TABLE t CONVERT PARTITION TO PARQUET | NATIVE. The active (newest) partition is never converted: as in
 * QuestDB it is skipped, not refused, so `WHERE ts > 0` converts every other partition. One _txn for all.
 */
const unreachableEncoder: ParquetPartitionEncoder = () => {
  assert(false, 'conversions to native never encode Parquet');
  return Buffer.alloc(0);
};

export function convertPartitions(writer: TableWriter, action: ConvertPartition, nowMicros: number, encode: ParquetPartitionEncoder | undefined): void {
  if (writer.meta.partitionBy === 'NONE') throw sqlSemanticError('table is not partitioned', action.position);
  const format = action.toParquet ? 'parquet' : 'native';
  const chosen = action.where !== undefined ? matchingPartitions(writer, action.where, nowMicros) : (action.list ?? []).map((expr) => listedPartition(writer, expr, format));
  const partitions = writer.txn.partitions;
  const active = partitions[partitions.length - 1]?.name;
  const names = chosen.map((entry) => entry.name).filter((name) => name !== active);
  if (names.length === 0) return;
  assert(encode !== undefined || !action.toParquet, 'the server wires a Parquet encoder into the engine');
  writer.convertPartitions(names, action.toParquet, encode ?? unreachableEncoder);
}
