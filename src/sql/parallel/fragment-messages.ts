// The messages between a worker process's calling thread and its parallel query threads, and the compact form
// of a result batch that crosses between them. Typed arrays are copied to their row count (a view over a mapped
// column file would otherwise clone the whole mapping) and cloned, never transferred: transferring detaches the
// buffer in the sending thread, and the first detached buffer of an isolate makes V8 recompile every optimized
// typed-array loop of that isolate with a detach check on each access, which cost the threads' scan kernels
// 20-30% more CPU per row than the calling thread's for the rest of their life. The partial results are small
// (groups or top rows), so the second copy costs little. SYMBOL vectors travel as their texts, so no dictionary
// is cloned per batch. Data from the other thread enters as unknown and is narrowed here.
import type { ColumnBatch, Vector, VectorData } from '../exec/batch.js';
import type { Statement } from '../syntax/ast.js';
import type { TableMeta } from '../../storage/table-meta.js';
import type { TxnState } from '../../storage/txn-file.js';
import type { PartitionRows } from '../../storage/table-reader.js';

/** What a thread needs to rebuild the caller's table snapshot: the same _meta and _txn, so the same rows. */
export interface SnapshotDescriptor {
  readonly dir: string;
  readonly meta: TableMeta;
  readonly txn: TxnState;
}

/** What stays the same run after run of one statement text over one table version. */
export interface FragmentContext {
  /** Names the statement for the thread's plan cache: equal keys over one table version mean equal statements. */
  readonly planKey: string;
  readonly statement: Statement;
  readonly snapshot: SnapshotDescriptor;
}

export interface FragmentRequest {
  readonly kind: 'run';
  readonly fragmentId: number;
  /** Names `context` (fragment-contexts.ts). */
  readonly contextKey: string;
  /** Undefined when the thread already holds the context under `contextKey` (the pool knows: fragment-contexts.ts). */
  readonly context: FragmentContext | undefined;
  readonly slice: readonly PartitionRows[];
  readonly queryNowMicros: number;
  readonly deadlineMs: number;
  readonly timeoutMs: number;
  /** Int32 flag `cancelIndex` of this buffer turns non-zero when the query is cancelled; threads check it between batches. */
  readonly cancelFlag: SharedArrayBuffer;
  readonly cancelIndex: number;
}

export interface FragmentFailure {
  readonly message: string;
  readonly position: number;
  /** Set when the thread threw an SqlError (a user-facing failure such as a timeout or a bad cast). */
  readonly sqlCode: string | undefined;
}

export type FragmentReply =
  | { readonly kind: 'done'; readonly fragmentId: number; readonly batches: readonly ColumnBatch[] }
  | { readonly kind: 'failed'; readonly fragmentId: number; readonly failure: FragmentFailure };

/** A batch in the compact form it is cloned in (no buffer of it is shared with the thread's own data). */
export function encodeBatch(batch: ColumnBatch): ColumnBatch {
  const vectors = batch.vectors.map((vector): Vector => {
    if (vector.type === 'SYMBOL') {
      const texts = new Array<string | null>(batch.rowCount);
      for (let row = 0; row < batch.rowCount; row++) texts[row] = symbolText(vector, row);
      return { type: 'STRING', data: texts };
    }
    const data = compactData(vector.data, batch.rowCount);
    if (vector.exact === undefined) return { type: vector.type, data };
    return { type: vector.type, data, exact: vector.exact.slice(0, batch.rowCount) };
  });
  return { rowCount: batch.rowCount, vectors };
}

function compactData(data: VectorData, rowCount: number): VectorData {
  return data.slice(0, rowCount) as VectorData;
}

/** Narrows a message from a thread; anything else is a bug in this module's pair. */
export function isFragmentReply(value: unknown): value is FragmentReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as { kind?: unknown; fragmentId?: unknown; batches?: unknown; failure?: unknown };
  if (typeof reply.fragmentId !== 'number') return false;
  return (reply.kind === 'done' && Array.isArray(reply.batches)) || (reply.kind === 'failed' && typeof reply.failure === 'object' && reply.failure !== null);
}

export function isFragmentRequest(value: unknown): value is FragmentRequest {
  if (typeof value !== 'object' || value === null) return false;
  const request = value as { kind?: unknown; fragmentId?: unknown; contextKey?: unknown; context?: unknown; cancelFlag?: unknown; cancelIndex?: unknown };
  if (request.kind !== 'run' || typeof request.fragmentId !== 'number' || typeof request.contextKey !== 'string') return false;
  return request.cancelFlag instanceof SharedArrayBuffer && typeof request.cancelIndex === 'number' && (request.context === undefined || isFragmentContext(request.context));
}

function isFragmentContext(value: unknown): value is FragmentContext {
  if (typeof value !== 'object' || value === null) return false;
  const context = value as { planKey?: unknown; statement?: unknown; snapshot?: unknown };
  return typeof context.planKey === 'string' && typeof context.statement === 'object' && context.statement !== null && typeof context.snapshot === 'object' && context.snapshot !== null;
}

function symbolText(vector: Vector, row: number): string | null {
  const key = (vector.data as Int32Array)[row];
  return key < 0 ? null : ((vector.symbols as readonly string[])[key] ?? null);
}
