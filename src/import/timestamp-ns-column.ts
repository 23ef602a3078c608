// Text → TIMESTAMP_NS column values for /imp: ISO timestamps with up to nine fraction digits (kept exact) and,
// when the column accepts epoch numbers, integers taken as nanoseconds. Values go through BigInt, so this path
// is slower than the µs parsers; it only runs for columns declared TIMESTAMP_NS.
import type { ParseJob } from './column-target.js';
import { reportBad } from './string-columns.js';
import { INT64_NULL, parseTimestampNanos } from '../types/timestamp-ns.js';

const EPOCH_DIGITS = /^-?\d{1,19}$/;

function writeNanos(words: Int32Array, index: number, value: bigint): void {
  words[index * 2] = Number(value & 0xffffffffn) | 0;
  words[index * 2 + 1] = Number(BigInt.asIntN(32, value >> 32n));
}

function nanosOfText(text: string, acceptEpochNumbers: boolean): bigint | undefined {
  const parsed = parseTimestampNanos(text);
  if (parsed !== undefined || !acceptEpochNumbers || !EPOCH_DIGITS.test(text)) return parsed;
  const epoch = BigInt(text);
  return epoch === BigInt.asIntN(64, epoch) && epoch !== INT64_NULL ? epoch : undefined;
}

export function parseTimestampNsColumn(job: ParseJob, words: Int32Array, acceptEpochNumbers: boolean): number {
  const { buf, fieldStart, fieldEnd, width, rowCount, base, nullIsError } = job;
  let errors = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    if (s === e) {
      writeNanos(words, base + r, INT64_NULL);
      if (nullIsError) errors = reportBad(job, r, errors);
      continue;
    }
    const nanos = nanosOfText(buf.toString('latin1', s, e), acceptEpochNumbers);
    if (nanos === undefined) errors = reportBad(job, r, errors);
    writeNanos(words, base + r, nanos ?? INT64_NULL);
  }
  return errors;
}
