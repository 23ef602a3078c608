// Raw URL parameter bytes: the same decoding as URLSearchParams for valid text, the bytes kept when they are
// not UTF-8, and QuestDB's echo of such bytes.
import test from 'ava';
import { bytesAsSignExtendedChars, decodeUtf8Strict, urlParamBytes } from '../../../src/http/url-param-bytes.js';

function decoded(url: string, name: string): string | undefined {
  const bytes = urlParamBytes(url, name);
  return bytes === null ? undefined : decodeUtf8Strict(bytes);
}

test('valid text decodes as URLSearchParams decodes it', (t) => {
  for (const search of ['query=select+1', 'query=a%20b%2Bc', 'query=%C2%B5%E2%82%AC', 'query=100%', 'query=%zz%4', 'x=1&query=&query=2', 'q%75ery=k']) {
    t.is(decoded(`/exec?${search}`, 'query'), new URLSearchParams(search).get('query') ?? undefined, search);
  }
});

test('an absent parameter is null; one without = is empty', (t) => {
  t.is(urlParamBytes('/exec', 'query'), null);
  t.is(urlParamBytes('/exec?limit=1', 'query'), null);
  t.deepEqual(urlParamBytes('/exec?cols', 'cols'), new Uint8Array(0));
});

test('bytes that are not UTF-8 are kept, and echoed sign-extended as QuestDB echoes them', (t) => {
  const bytes = urlParamBytes('/exec?query=select%C3(', 'query');
  t.deepEqual(bytes, Uint8Array.of(0x73, 0x65, 0x6c, 0x65, 0x63, 0x74, 0xc3, 0x28));
  t.is(bytes === null ? 'absent' : decodeUtf8Strict(bytes), undefined);
  t.is(bytesAsSignExtendedChars(bytes ?? new Uint8Array(0)), 'select\uffc3(');
});
