// After a checkpoint completes, history older than the previous checkpoint goes: its segments and older
// checkpoints. The previous checkpoint and the segments after it stay, so a replica that was a little behind
// when the new checkpoint appeared still finds the segments it needs; one further behind re-syncs from the
// newest checkpoint. Pruning failures are logged and retried at the next checkpoint.
import type { ObjectStore } from '../objectstore/object-store.js';
import { getLogger } from '../log/logger.js';
import { CHECKPOINT_PREFIX, listCheckpoints, padSeq, parseSegmentKey, SEGMENT_PREFIX } from './store-layout.js';

const log = getLogger('replication');

export async function pruneBeforeCheckpoint(store: ObjectStore): Promise<void> {
  try {
    const checkpoints = await listCheckpoints(store);
    const keepFrom = checkpoints.at(-2);
    if (keepFrom === undefined) return;
    const segments = (await store.list(SEGMENT_PREFIX)).map(parseSegmentKey).filter((key) => key !== null && key.seq <= keepFrom);
    const oldCheckpoints = (await store.list(CHECKPOINT_PREFIX)).filter((info) => info.key < `${CHECKPOINT_PREFIX}${padSeq(keepFrom)}`);
    const keys = [...segments.flatMap((key) => (key === null ? [] : [key.key])), ...oldCheckpoints.map((info) => info.key)];
    if (keys.length > 0) await store.delete(keys);
  } catch (error) {
    log.error(`replication: pruning old segments failed, retried after the next checkpoint: ${error instanceof Error ? error.message : String(error)}`);
  }
}
