// _txn codec: the committed state of a table. The primary replaces the file atomically at each commit;
// readers pin a table by reading it once and see exactly the partitions and row counts it lists.
import { assert } from '../core/assert.js';
import { StorageError } from '../core/errors.js';

export interface PartitionEntry {
  /** Partition name by period (`2024-01-01`), or `default` for PARTITION BY NONE. */
  readonly name: string;
  /** Directory version: 0 is the plain name, otherwise the directory is `<name>.<version>`. */
  readonly version: number;
  readonly rowCount: number;
  /** Smallest and largest designated timestamp in µs; 0 when the table has none. */
  readonly minTimestamp: number;
  readonly maxTimestamp: number;
  /**
   * Set when the partition is stored as one Parquet file (`<dir>/data.parquet`) instead of column files: the
   * file's size in bytes. Absent for native partitions (and in every _txn written before Parquet partitions).
   */
  readonly parquetBytes?: number;
  /**
   * Set once the partition's Parquet file has a live copy in the cold object store: `key` relative to the store's
   * root (as the objectstore layer takes it), `etag` and `bytes` of that object. `local: false` after DROP LOCAL:
   * the directory then holds only `footer.parquet` (the file's last footer length + 8 bytes: Thrift FileMetaData,
   * its int32 length and `PAR1`) and reads must come from the store. Absent in _txn files written before.
   */
  readonly cold?: ColdCopy;
}

/** The footer block a cold partition's directory keeps (see PartitionEntry.cold). */
export const COLD_FOOTER_FILE = 'footer.parquet';

export interface ColdCopy {
  readonly key: string;
  readonly etag: string;
  readonly bytes: number;
  readonly local: boolean;
}

export interface TxnState {
  readonly txn: number;
  readonly tableId: number;
  readonly structureVersion: number;
  /** Sequence number of the last WAL record whose effect this state contains. */
  readonly walSeq: number;
  readonly rowCount: number;
  /** Ordered by partition start time (insertion order for `default`). */
  readonly partitions: readonly PartitionEntry[];
  /** Committed dictionary size per column index (0 for non-SYMBOL columns). */
  readonly symbolCounts: readonly number[];
}

export function partitionDirName(entry: Pick<PartitionEntry, 'name' | 'version'>): string {
  return entry.version === 0 ? entry.name : `${entry.name}.${entry.version}`;
}

/** The newest designated timestamp (µs) committed in `partitions`; -Infinity when they are none. */
export function newestTimestamp(partitions: readonly PartitionEntry[]): number {
  return partitions.reduce((max, entry) => Math.max(max, entry.maxTimestamp), -Infinity);
}

/**
 * Rows a commit wrote into column files, from the partition lists before and after it: all of a partition
 * directory the commit created (a new partition, or an out-of-order merge's new version, whose older rows were
 * copied or rewritten), and the rows appended to a directory that was there before.
 */
export function rowsWrittenToFiles(before: readonly PartitionEntry[], after: readonly PartitionEntry[]): number {
  const rowsBefore = new Map(before.map((entry) => [partitionDirName(entry), entry.rowCount]));
  return after.reduce((sum, entry) => sum + entry.rowCount - (rowsBefore.get(partitionDirName(entry)) ?? 0), 0);
}

export function encodeTxn(state: TxnState): Buffer {
  assertTxn(state, 'encoding _txn');
  return Buffer.from(JSON.stringify(state), 'utf8');
}

export function decodeTxn(bytes: Buffer, path: string): TxnState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new StorageError(`corrupt _txn [path=${path}]`);
  }
  if (typeof parsed !== 'object' || parsed === null) throw new StorageError(`corrupt _txn [path=${path}]`);
  const record = parsed as Record<string, unknown>;
  const partitions = record['partitions'];
  const symbolCounts = record['symbolCounts'];
  if (!Array.isArray(partitions) || !Array.isArray(symbolCounts)) throw new StorageError(`corrupt _txn [path=${path}]`);
  const state: TxnState = {
    txn: Number(record['txn']),
    tableId: Number(record['tableId']),
    structureVersion: Number(record['structureVersion']),
    walSeq: Number(record['walSeq']),
    rowCount: Number(record['rowCount']),
    partitions: partitions.map((entry: unknown) => narrowPartition(entry, path)),
    symbolCounts: symbolCounts.map(Number),
  };
  assertTxn(state, 'decoding _txn');
  return state;
}

function narrowPartition(value: unknown, path: string): PartitionEntry {
  if (typeof value !== 'object' || value === null) throw new StorageError(`corrupt _txn partition [path=${path}]`);
  const record = value as Record<string, unknown>;
  const entry: PartitionEntry = {
    name: String(record['name']),
    version: Number(record['version']),
    rowCount: Number(record['rowCount']),
    minTimestamp: Number(record['minTimestamp']),
    maxTimestamp: Number(record['maxTimestamp']),
  };
  const parquetBytes = record['parquetBytes'];
  const withParquet = parquetBytes === undefined ? entry : { ...entry, parquetBytes: Number(parquetBytes) };
  const cold = record['cold'];
  return cold === undefined ? withParquet : { ...withParquet, cold: narrowColdCopy(cold, path) };
}

function narrowColdCopy(value: unknown, path: string): ColdCopy {
  if (typeof value !== 'object' || value === null) throw new StorageError(`corrupt _txn cold copy [path=${path}]`);
  const get = (name: string): unknown => Reflect.get(value, name);
  const key = get('key');
  const etag = get('etag');
  const bytes = get('bytes');
  const local = get('local');
  if (typeof key !== 'string' || typeof etag !== 'string' || typeof bytes !== 'number' || typeof local !== 'boolean') {
    throw new StorageError(`corrupt _txn cold copy [path=${path}]`);
  }
  return { key, etag, bytes, local };
}

export function assertTxn(state: TxnState, why: string): void {
  assert(Number.isInteger(state.txn) && state.txn >= 0, `${why}: txn is a whole number`);
  let total = 0;
  for (const partition of state.partitions) {
    assert(partition.rowCount > 0, `${why}: partitions listed in _txn are not empty`);
    assert(partition.minTimestamp <= partition.maxTimestamp, `${why}: partition timestamps ordered`);
    assert(partition.parquetBytes === undefined || (Number.isInteger(partition.parquetBytes) && partition.parquetBytes > 0), `${why}: a Parquet partition has a file size`);
    assert(partition.cold === undefined || (partition.parquetBytes === partition.cold.bytes && partition.cold.key !== ''), `${why}: a cold copy is the partition's Parquet file`);
    total += partition.rowCount;
  }
  assert(total === state.rowCount, `${why}: rowCount is the sum of partition row counts`);
}

export function emptyTxn(tableId: number, columnCount: number): TxnState {
  return { txn: 0, tableId, structureVersion: 0, walSeq: 0, rowCount: 0, partitions: [], symbolCounts: new Array<number>(columnCount).fill(0) };
}
