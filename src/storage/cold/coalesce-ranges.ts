// Groups the byte ranges of one object into range requests: ranges that touch (the next starts where the
// previous ends) join one request as long as its span stays within the cap. Ranges with a gap between them join
// only when the gap is at most `gapBytesMax` (0: never): fetching and dropping a few KiB of another column is
// cheaper than a round trip, while a larger gap (an unrelated column in bulk) keeps column pruning. Pure.
import { assert } from '../../core/assert.js';

export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

export interface RangeGroup {
  readonly offset: number;
  readonly length: number;
  /** The ranges this request serves, in offset order. */
  readonly members: readonly ByteRange[];
}

/** The reference's span cap for one coalesced request. */
export const COALESCED_SPAN_BYTES_MAX = 64 * 1024 * 1024;

export function coalesceRanges(ranges: readonly ByteRange[], spanBytesMax: number = COALESCED_SPAN_BYTES_MAX, gapBytesMax = 0): RangeGroup[] {
  assert(spanBytesMax > 0 && gapBytesMax >= 0, 'the coalescing span cap is positive, the gap allowance not negative');
  const sorted = [...ranges].sort((a, b) => a.offset - b.offset);
  const groups: RangeGroup[] = [];
  let members: ByteRange[] = [];
  let start = 0;
  let end = 0;
  for (const range of sorted) {
    assert(range.offset >= 0 && range.length > 0, 'coalesced ranges are non-empty and inside the object');
    if (members.length > 0 && range.offset >= end && range.offset - end <= gapBytesMax && range.offset + range.length - start <= spanBytesMax) {
      members.push(range);
      end = range.offset + range.length;
      continue;
    }
    if (members.length > 0) groups.push({ offset: start, length: end - start, members });
    members = [range];
    start = range.offset;
    end = range.offset + range.length;
  }
  if (members.length > 0) groups.push({ offset: start, length: end - start, members });
  return groups;
}
