// Strict parsing of Basic credentials: the user stops at the first colon, the password keeps the rest, and
// anything that is not clean Base64 of clean UTF-8 text is refused rather than repaired.
import test from 'ava';
import { parseBasicCredentials, splitAuthorization } from '../../../../src/http/auth/basic-credentials.js';
import { constantTimeEquals } from '../../../../src/http/auth/constant-time.js';

const encode = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

test('user before the first colon, password with colons after it', (t) => {
  t.deepEqual(parseBasicCredentials(encode('admin:a:b::c')), { user: 'admin', password: 'a:b::c' });
  t.deepEqual(parseBasicCredentials(encode('admin:')), { user: 'admin', password: '' });
  t.deepEqual(parseBasicCredentials(encode('ünï:cødé')), { user: 'ünï', password: 'cødé' });
});

test('malformed values are refused', (t) => {
  for (const value of [
    '', encode('nocolon'), encode(':password'), encode('admin:pass\n'), encode('admin:pass\r\n'), encode('ad\u0000min:x'),
    `${encode('admin:pass')}\n`, encode('admin:pass').replace(/=+$/, ''), 'YWRtaW46cGFzcw=', 'YWRt aW46cGFzcw==', '!!!!', 'A'.repeat(5000),
    Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64'),
  ]) {
    t.is(parseBasicCredentials(value), undefined, JSON.stringify(value));
  }
});

test('the scheme is split off case-insensitively', (t) => {
  t.deepEqual(splitAuthorization('Basic abc'), { scheme: 'basic', value: 'abc' });
  t.deepEqual(splitAuthorization('BEARER  tok '), { scheme: 'bearer', value: 'tok' });
  t.deepEqual(splitAuthorization('Basic'), { scheme: 'basic', value: '' });
});

test('constant-time comparison is plain equality on the text', (t) => {
  t.true(constantTimeEquals('secret', 'secret'));
  t.false(constantTimeEquals('secret', 'secreT'));
  t.false(constantTimeEquals('secret', 'secret '));
  t.false(constantTimeEquals('', 'x'));
});
