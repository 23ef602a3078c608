// LZ4 block decoder (the raw block format Parquet calls LZ4_RAW): tokens of literal and match lengths, 16-bit
// little-endian match offsets, lengths extended by 255-bytes (lz4 doc/lz4_Block_format.md). The output size is
// known from the page header, so the output is allocated once and every copy is bounds-checked against it.
// Short copies run as byte loops (creating a subarray per sequence cost more than the copy for PLAIN pages).
import { StorageError } from '../../core/errors.js';

const MIN_MATCH_BYTES = 4;
/** Copies at least this long go through set/copyWithin; shorter ones are byte loops. */
const BULK_COPY_BYTES = 32;

export function decompressLz4Block(input: Uint8Array, outputBytes: number): Uint8Array {
  const output = new Uint8Array(outputBytes);
  const inEnd = input.length;
  let inPos = 0;
  let outPos = 0;
  while (inPos < inEnd) {
    const token = input[inPos++];
    let literalBytes = token >>> 4;
    if (literalBytes === 15) {
      let extra = 255;
      while (extra === 255 && inPos < inEnd) {
        extra = input[inPos++];
        literalBytes += extra;
      }
    }
    const literalEnd = inPos + literalBytes;
    if (literalEnd > inEnd || outPos + literalBytes > outputBytes) throw corrupt();
    if (literalBytes >= BULK_COPY_BYTES) {
      output.set(input.subarray(inPos, literalEnd), outPos);
      outPos += literalBytes;
      inPos = literalEnd;
    } else {
      while (inPos < literalEnd) output[outPos++] = input[inPos++];
    }
    if (inPos >= inEnd) break; // the last sequence has literals only
    if (inPos + 2 > inEnd) throw corrupt();
    const offset = input[inPos] | (input[inPos + 1] << 8);
    inPos += 2;
    let matchBytes = (token & 15) + MIN_MATCH_BYTES;
    if ((token & 15) === 15) {
      let extra = 255;
      while (extra === 255 && inPos < inEnd) {
        extra = input[inPos++];
        matchBytes += extra;
      }
    }
    let from = outPos - offset;
    const matchEnd = outPos + matchBytes;
    if (offset === 0 || from < 0 || matchEnd > outputBytes) throw corrupt();
    if (matchBytes >= BULK_COPY_BYTES && offset >= matchBytes) {
      output.copyWithin(outPos, from, from + matchBytes);
      outPos = matchEnd;
    } else {
      // Overlapping matches repeat the last `offset` bytes: a forward byte loop reproduces that by construction.
      while (outPos < matchEnd) output[outPos++] = output[from++];
    }
  }
  if (outPos !== outputBytes) throw corrupt();
  return output;
}

function corrupt(): StorageError {
  return new StorageError('corrupt LZ4_RAW parquet page');
}
