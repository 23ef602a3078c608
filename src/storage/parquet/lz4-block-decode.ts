// LZ4 block decoder (the raw block format Parquet calls LZ4_RAW): tokens of literal and match lengths, 16-bit
// little-endian match offsets, lengths extended by 255-bytes (lz4 doc/lz4_Block_format.md). The output size is
// known from the page header, so the output is allocated once and every copy is bounds-checked against it.
import { StorageError } from '../../core/errors.js';

const MIN_MATCH_BYTES = 4;

export function decompressLz4Block(input: Uint8Array, outputBytes: number): Uint8Array {
  const output = new Uint8Array(outputBytes);
  let inPos = 0;
  let outPos = 0;
  const inEnd = input.length;
  while (inPos < inEnd) {
    const token = input[inPos++] as number;
    let literalBytes = token >>> 4;
    if (literalBytes === 15) {
      let extra = 255;
      while (extra === 255 && inPos < inEnd) {
        extra = input[inPos++] as number;
        literalBytes += extra;
      }
    }
    if (inPos + literalBytes > inEnd || outPos + literalBytes > outputBytes) throw corrupt();
    if (literalBytes < 32) {
      // Short runs dominate typical pages: a byte loop beats creating a subarray per run.
      for (let k = 0; k < literalBytes; k++) output[outPos + k] = input[inPos + k] as number;
    } else {
      output.set(input.subarray(inPos, inPos + literalBytes), outPos);
    }
    inPos += literalBytes;
    outPos += literalBytes;
    if (inPos >= inEnd) break; // the last sequence has literals only
    if (inPos + 2 > inEnd) throw corrupt();
    const offset = (input[inPos] as number) | ((input[inPos + 1] as number) << 8);
    inPos += 2;
    let matchBytes = (token & 15) + MIN_MATCH_BYTES;
    if ((token & 15) === 15) {
      let extra = 255;
      while (extra === 255 && inPos < inEnd) {
        extra = input[inPos++] as number;
        matchBytes += extra;
      }
    }
    const from = outPos - offset;
    if (offset === 0 || from < 0 || outPos + matchBytes > outputBytes) throw corrupt();
    if (matchBytes >= 64 && offset >= matchBytes) {
      output.copyWithin(outPos, from, from + matchBytes);
    } else {
      // Short or overlapping matches (bytes repeating with period `offset`) are copied one byte at a time.
      for (let k = 0; k < matchBytes; k++) output[outPos + k] = output[from + k] as number;
    }
    outPos += matchBytes;
  }
  if (outPos !== outputBytes) throw corrupt();
  return output;
}

function corrupt(): StorageError {
  return new StorageError('corrupt LZ4_RAW parquet page');
}
