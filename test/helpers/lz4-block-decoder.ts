// An LZ4 block decoder written from the format description (lz4 doc/lz4_Block_format.md), independent of the
// compressor it checks. Besides decoding, it enforces the end-of-block rules a compressor must keep (the last
// sequence carries only literals, at least 5 of them after a match, and the last match starts 12 or more bytes
// before the end), which lenient decoders accept but the reference fast decoder relies on.

export class Lz4BlockError extends Error {}

interface BlockCursor {
  index: number;
}

/** A 4-bit length field; 15 means 255-valued extension bytes follow until one is below 255. */
function readLength(block: Uint8Array, cursor: BlockCursor, field: number): number {
  let length = field;
  if (field !== 15) return length;
  for (;;) {
    if (cursor.index >= block.length) throw new Lz4BlockError('a length extension runs past the block');
    const byte = block[cursor.index++];
    length += byte;
    if (byte !== 255) return length;
  }
}

/** Decodes one block into exactly `outputBytes` bytes; throws Lz4BlockError on any malformation. */
export function decodeLz4Block(block: Uint8Array, outputBytes: number): Uint8Array {
  const output = new Uint8Array(outputBytes);
  const cursor: BlockCursor = { index: 0 };
  let out = 0;
  let lastMatchStart = -1;
  let closingLiterals = 0;
  for (;;) {
    if (cursor.index >= block.length) throw new Lz4BlockError('the block ends without a closing literal sequence');
    const token = block[cursor.index++];
    const literalBytes = readLength(block, cursor, token >>> 4);
    if (cursor.index + literalBytes > block.length || out + literalBytes > outputBytes) throw new Lz4BlockError('literals run past the block or the output');
    output.set(block.subarray(cursor.index, cursor.index + literalBytes), out);
    cursor.index += literalBytes;
    out += literalBytes;
    if (cursor.index === block.length) {
      closingLiterals = literalBytes;
      break;
    }
    if (cursor.index + 2 > block.length) throw new Lz4BlockError('an offset runs past the block');
    const offset = block[cursor.index] | (block[cursor.index + 1] << 8);
    cursor.index += 2;
    if (offset === 0 || offset > out) throw new Lz4BlockError(`offset ${offset} reaches before the output's start (at ${out})`);
    const matchBytes = readLength(block, cursor, token & 15) + 4;
    if (out + matchBytes > outputBytes) throw new Lz4BlockError('a match runs past the output');
    lastMatchStart = out;
    // Byte by byte: a match may overlap its own output (an offset below the length repeats a pattern).
    for (let k = 0; k < matchBytes; k++, out++) output[out] = output[out - offset];
  }
  if (out !== outputBytes) throw new Lz4BlockError(`decoded ${out} bytes, expected ${outputBytes}`);
  if (lastMatchStart >= 0 && outputBytes - lastMatchStart < 12) throw new Lz4BlockError(`the last match starts ${outputBytes - lastMatchStart} bytes before the end, not 12 or more`);
  if (lastMatchStart >= 0 && closingLiterals < 5) throw new Lz4BlockError(`the block ends with ${closingLiterals} literals after a match, not 5 or more`);
  return output;
}
