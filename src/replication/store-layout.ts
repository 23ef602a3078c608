// Where replication keeps its objects under the store root, and the parsing of those keys back:
//   segments/<seq, 16 digits>-<capture time ms>     one or more commits, in sequence order
//   checkpoints/<seq>/part-<n, 6 digits>           a full copy of the tracked files, in parts
//   checkpoints/<seq>/_done                        written last: the checkpoint is complete
//   _writer/<generation>                           the primary's lease (objectstore/writer-lease.ts)
// Zero-padded numbers make the store's key order the sequence order.
import type { ObjectStore, ObjectInfo } from '../objectstore/object-store.js';
import { SvcError } from '../core/errors.js';

const SEQ_DIGITS = 16;
/**
 * Under sustained writes a primary starts captures (so segments) at least this far apart; a replica that
 * just found one segment does not list again until about this long after (replica-follower.ts).
 */
export const SEGMENT_SPACING_MS = 500;
export const SEGMENT_PREFIX = 'segments/';
export const CHECKPOINT_PREFIX = 'checkpoints/';
export const CHECKPOINT_DONE = '_done';

export interface SegmentKey { readonly key: string; readonly seq: number; readonly capturedAtMs: number; readonly sizeBytes: number }

export function padSeq(seq: number): string {
  return String(seq).padStart(SEQ_DIGITS, '0');
}

export function segmentKey(seq: number, capturedAtMs: number): string {
  return `${SEGMENT_PREFIX}${padSeq(seq)}-${capturedAtMs}`;
}

/** Keys sorting after every segment key of `seq` and before those of seq + 1 ('.' sorts after '-'). */
export function segmentStartAfter(seq: number): string {
  return `${SEGMENT_PREFIX}${padSeq(seq)}.`;
}

export function checkpointPartKey(seq: number, part: number): string {
  return `${CHECKPOINT_PREFIX}${padSeq(seq)}/part-${String(part).padStart(6, '0')}`;
}

export function checkpointDoneKey(seq: number): string {
  return `${CHECKPOINT_PREFIX}${padSeq(seq)}/${CHECKPOINT_DONE}`;
}

const SEGMENT_PATTERN = /^segments\/(\d{16})-(\d+)$/;
const CHECKPOINT_DONE_PATTERN = /^checkpoints\/(\d{16})\/_done$/;

export function parseSegmentKey(info: ObjectInfo): SegmentKey | null {
  const match = SEGMENT_PATTERN.exec(info.key);
  if (match === null) return null;
  return { key: info.key, seq: Number(match[1]), capturedAtMs: Number(match[2]), sizeBytes: info.sizeBytes };
}

/** Segments after `afterSeq`, ascending. */
export async function listSegments(store: ObjectStore, afterSeq: number, signal?: AbortSignal): Promise<SegmentKey[]> {
  const listed = await store.list(SEGMENT_PREFIX, { startAfter: segmentStartAfter(afterSeq), ...(signal === undefined ? {} : { signal }) });
  return listed.map(parseSegmentKey).filter((key): key is SegmentKey => key !== null && key.seq > afterSeq);
}

/** Sequence numbers of complete checkpoints, ascending. */
export async function listCheckpoints(store: ObjectStore, signal?: AbortSignal): Promise<number[]> {
  const listed = await store.list(CHECKPOINT_PREFIX, signal === undefined ? {} : { signal });
  return listed.flatMap((info) => {
    const match = CHECKPOINT_DONE_PATTERN.exec(info.key);
    return match === null ? [] : [Number(match[1])];
  });
}

/** The highest sequence number anything in the store carries (0 for an empty store). */
export async function highestSeq(store: ObjectStore): Promise<number> {
  const segments = await store.list(SEGMENT_PREFIX);
  const last = segments.map(parseSegmentKey).filter((key): key is SegmentKey => key !== null).at(-1)?.seq ?? 0;
  const listed = await store.list(CHECKPOINT_PREFIX);
  const checkpointSeqs = listed.map((info) => /^checkpoints\/(\d{16})\//.exec(info.key)).flatMap((match) => (match === null ? [] : [Number(match[1])]));
  return Math.max(last, ...checkpointSeqs);
}

export function checkpointDoneBody(seq: number, parts: number, generation: number): Buffer {
  return Buffer.from(JSON.stringify({ format: 'svc-replication-checkpoint', seq, parts, generation, createdAtMs: Date.now() }));
}

export function parseCheckpointDone(body: Buffer, key: string): { seq: number; parts: number } {
  const value: unknown = JSON.parse(body.toString('utf8'));
  if (typeof value !== 'object' || value === null) throw new SvcError('SVC_OBJECT_STORE', `malformed checkpoint record [key=${key}]`, 500);
  const record = value as Record<string, unknown>;
  if (record['format'] !== 'svc-replication-checkpoint' || !Number.isSafeInteger(record['seq']) || !Number.isSafeInteger(record['parts'])) {
    throw new SvcError('SVC_OBJECT_STORE', `malformed checkpoint record [key=${key}]`, 500);
  }
  return { seq: record['seq'] as number, parts: record['parts'] as number };
}
