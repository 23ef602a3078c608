// Remembers which row ranges of mapped LONG column files hold only values in [0, 2^32) (every high word zero),
// so that sum and avg over LONG prove it once per range and afterwards add the values as subnormal doubles with
// the very loop of a DOUBLE sum. Only memory that isMappedColumnMemory vouches for is remembered: the committed
// rows of a mapped column file never change while its mapping lives (appends go past them, rewrites make new
// files), and the memo is keyed by that mapping, so it goes away with it. Any other buffer is checked every time.
import { isMappedColumnMemory } from '../../../storage/mmap.js';

/** Ranges remembered per mapping; past this a mapping's memo starts over (a bound, never reached by batch scans). */
const rangesPerMappingMax = 65_536;

/**
 * Per mapping: byte offset of a range's first value → rows from there known to be small (positive count) or
 * known to contain a value that is not (negative count: that many rows include one).
 */
const memo = new WeakMap<ArrayBufferLike, Map<number, number>>();

export type SmallRangeKnowledge = 'small' | 'not-small' | 'unknown';

/** What is known of the `rowCount` int64 values of `values`. */
export function knownSmallRange(values: BigInt64Array, rowCount: number): SmallRangeKnowledge {
  const ranges = memo.get(values.buffer);
  if (ranges === undefined) return 'unknown';
  const known = ranges.get(values.byteOffset);
  if (known === undefined) return 'unknown';
  if (known >= rowCount) return 'small';
  // A range that includes an outsider: every longer range from the same start includes it too.
  if (known < 0 && -known <= rowCount) return 'not-small';
  return 'unknown';
}

/** Records what a full check of the `rowCount` values found, when their memory is a column-file mapping. */
export function rememberSmallRange(values: BigInt64Array, rowCount: number, small: boolean): void {
  if (!isMappedColumnMemory(values.buffer)) return;
  let ranges = memo.get(values.buffer);
  if (ranges === undefined) {
    ranges = new Map();
    memo.set(values.buffer, ranges);
  } else if (ranges.size >= rangesPerMappingMax) {
    ranges.clear();
  }
  ranges.set(values.byteOffset, small ? rowCount : -rowCount);
}
