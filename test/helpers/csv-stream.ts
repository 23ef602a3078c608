// Generates the standard table's CSV (ts,sym,price,amount) on the fly, in chunks, so tests and benches can
// stream hundreds of megabytes without holding them. Integer arithmetic only, as in the performance reference.
const START_MICROS = Date.UTC(2024, 0, 1) * 1000;

function timestampText(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const iso = new Date(millis).toISOString();
  return `${iso.slice(0, 23)}${String(micros % 1000).padStart(3, '0')}Z`;
}

export function standardCsvRow(i: number): string {
  const price = Math.round((Number((BigInt(i) * 1103515245n + 12345n) % 2147483648n) / 2147483648) * 1000 * 100) / 100;
  const amount = ((i * 48271) % 10000) + 1;
  return `${timestampText(START_MICROS + i * 100_000)},S${i % 100},${price},${amount}\n`;
}

/** Yields the CSV (header first) in chunks of about `chunkBytes`. */
export function* standardCsvChunks(rowCount: number, chunkBytes = 1 << 20): Generator<Buffer> {
  let text = 'ts,sym,price,amount\n';
  for (let i = 0; i < rowCount; i++) {
    text += standardCsvRow(i);
    if (text.length >= chunkBytes) {
      yield Buffer.from(text);
      text = '';
    }
  }
  if (text.length > 0) yield Buffer.from(text);
}
