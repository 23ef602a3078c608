// The `lz4` package (0.6.5) ships no types; this declares the block functions parquet-codecs.ts calls
// (and the decoder its tests check the blocks with).
declare module 'lz4' {
  interface Lz4 {
    /** Largest block encodeBlock can produce for `inputSize` bytes. */
    encodeBound(inputSize: number): number;
    /** Compresses `input` into `output` as one raw LZ4 block; returns the bytes written, 0 when it would not shrink. */
    encodeBlock(input: Buffer, output: Buffer): number;
    /** Decodes one raw LZ4 block into `output`; returns the bytes written (negative on malformed input). */
    decodeBlock(input: Buffer, output: Buffer): number;
  }
  const lz4: Lz4;
  export default lz4;
}
