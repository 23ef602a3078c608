// URL parameters as the bytes the client percent-encoded, before any UTF-8 decoding. URLSearchParams turns
// bytes that are not UTF-8 into U+FFFD silently; QuestDB refuses such a query instead, so the routes that must
// tell the two apart read the bytes here. Decoding follows application/x-www-form-urlencoded as URLSearchParams
// does (`+` is a space, a `%` not followed by two hex digits stays as is), so valid text decodes identically.

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The percent-decoded bytes of the first `name=` parameter of a request URL; null when it is absent. */
export function urlParamBytes(url: string, name: string): Uint8Array | null {
  const queryIndex = url.indexOf('?');
  if (queryIndex < 0) return null;
  const search = url.slice(queryIndex + 1);
  for (const pair of search.split('&')) {
    const equals = pair.indexOf('=');
    const key = equals < 0 ? pair : pair.slice(0, equals);
    if (percentDecodeText(key) !== name) continue;
    return percentDecode(equals < 0 ? '' : pair.slice(equals + 1));
  }
  return null;
}

/** Form-urlencoded bytes of one key or value: `+` → space, `%XX` → byte, other characters as their UTF-8. */
export function percentDecode(text: string): Uint8Array {
  const source = Buffer.from(text.replace(/\+/g, ' '), 'utf8');
  const out = new Uint8Array(source.length);
  let length = 0;
  for (let index = 0; index < source.length; index++) {
    const byte = source[index];
    if (byte === 0x25 && index + 2 < source.length && isHex(source[index + 1]) && isHex(source[index + 2])) {
      out[length++] = (hexValue(source[index + 1]) << 4) | hexValue(source[index + 2]);
      index += 2;
    } else {
      out[length++] = byte;
    }
  }
  return out.subarray(0, length);
}

/** UTF-8 text of the bytes, or undefined when they are not well-formed UTF-8. */
export function decodeUtf8Strict(bytes: Uint8Array): string | undefined {
  try {
    return utf8Strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The query text QuestDB echoes when it is not UTF-8: every byte becomes one character, bytes from 0x80 up
 * sign-extended as Java widens a byte to a char (0xC3 → U+FFC3), so `select%C3(` is echoed as `selectￃ(`.
 */
export function bytesAsSignExtendedChars(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += String.fromCharCode(byte < 0x80 ? byte : 0xff00 | byte);
  return out;
}

function percentDecodeText(text: string): string {
  return decodeUtf8Strict(percentDecode(text)) ?? '';
}

function isHex(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}

function hexValue(byte: number): number {
  return byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x61 + 10;
}
