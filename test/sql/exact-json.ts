// JSON parsing for .slt results that keeps 64-bit integers exact: an integer token beyond ±(2^53 - 1) outside a
// string becomes the string `<digits>n` before JSON.parse, so 9007199254740993 and 9007199254740992 (one double)
// compare unequal. Expected rows and actual results go through the same function.
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export function parseJsonExactIntegers(text: string): unknown {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const char = text[at] as string;
    if (char === '"') {
      const end = stringEnd(text, at);
      out += text.slice(at, end);
      at = end;
      continue;
    }
    if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER_TOKEN.lastIndex = at;
      const token = NUMBER_TOKEN.exec(text)?.[0] ?? char;
      const big = /^-?\d+$/.test(token) ? BigInt(token) : undefined;
      out += big !== undefined && (big > SAFE || big < -SAFE) ? `"${token}n"` : token;
      at += token.length;
      continue;
    }
    out += char;
    at++;
  }
  return JSON.parse(out) as unknown;
}

/** The index just past the string literal that starts at `start` (a double quote). */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
  return at + 1;
}
