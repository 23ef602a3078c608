// Network chunks cut lines anywhere: for representative bodies (text, escapes, raw and escaped newlines, CRLF,
// multi-byte UTF-8, protocol 2 binary doubles whose bytes hold delimiters, bad lines) the parser must build
// exactly the same columns, or raise exactly the same error, whether the body arrives in one piece, cut in two
// at every byte position, cut in three at every pair of positions, or one byte at a time.
import test from 'ava';
import { binaryDouble, bytesOf, doubleWithDelimiterBytes, existingTables, parseChunks, tableMeta, type ParseOutcome } from '../../helpers/ilp-parse.js';
import type { IlpParserOptions } from '../../../src/ilp/line-parser.js';

/** A comparable rendering of an outcome: bigints as text, -0 and NaN kept apart from 0 and null. */
function render(outcome: ParseOutcome): string {
  if ('error' in outcome) return `error ${outcome.error.httpStatus} ${outcome.error.code} line ${outcome.error.line}: ${outcome.error.message}`;
  return JSON.stringify(outcome.tables, (_key, value: unknown) => {
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'number' && (Object.is(value, -0) || Number.isNaN(value) || !Number.isFinite(value))) return `number:${Object.is(value, -0) ? '-0' : String(value)}`;
    return value;
  });
}

/** Cut points at which a two-piece parse disagrees with the whole-body parse (empty when all agree). */
function twoPieceMismatches(body: Buffer, options: Partial<IlpParserOptions> = {}): string[] {
  const whole = render(parseChunks([body], options));
  const mismatches: string[] = [];
  for (let cut = 0; cut <= body.length; cut++) {
    const split = render(parseChunks([body.subarray(0, cut), body.subarray(cut)], options));
    if (split !== whole) mismatches.push(`cut ${cut}: ${split.slice(0, 200)}`);
  }
  return mismatches;
}

function threePieceMismatches(body: Buffer, options: Partial<IlpParserOptions> = {}): string[] {
  const whole = render(parseChunks([body], options));
  const mismatches: string[] = [];
  for (let first = 1; first < body.length; first++) {
    for (let second = first; second < body.length; second++) {
      const split = render(parseChunks([body.subarray(0, first), body.subarray(first, second), body.subarray(second)], options));
      if (split !== whole && mismatches.length < 5) mismatches.push(`cuts ${first},${second}: ${split.slice(0, 200)}`);
    }
  }
  return mismatches;
}

function byteAtATime(body: Buffer, options: Partial<IlpParserOptions> = {}): string {
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at++) chunks.push(body.subarray(at, at + 1));
  return render(parseChunks(chunks, options));
}

const TEXT_BODY = bytesOf(
  '# readings\n',
  'cpu,host=h\\ 1,region=eu\\,west usage=12.5,count=3i,ok=t,note="say \\"hi\\"",seen=1700000000000001t 1700000000000000000\n',
  '\n',
  'cpu,host=h2 usage=-0.0,count=-9223372036854775807i,ok=FALSE,note="two\\\nlines" 1700000000000000001n\r\n',
  'cpu,host=h3 note="raw\nnewline",usage=1e+21,extra=NaN,count=9223372036854775807i 1700000000000000t\n',
  '# done\r\n',
  'mem free=1.5,used=2i\n',
  'cpu,host=é\\=ü usage=.5,note="🙂 ünïcödé"\n',
  'mem used=3i,free=Infinity',
);

test('a text body with every field type, escapes and line ends parses the same cut at every byte', (t) => {
  t.true(render(parseChunks([TEXT_BODY])).startsWith('[{"name":"cpu","rowCount":4'), 'the body is valid');
  t.deepEqual(twoPieceMismatches(TEXT_BODY), []);
  t.is(byteAtATime(TEXT_BODY), render(parseChunks([TEXT_BODY])));
});

const BINARY_BODY = bytesOf(
  'bin,sensor=a x==', binaryDouble(doubleWithDelimiterBytes()), ',y==', binaryDouble(1.5), ',n=1i 1000n\n',
  'bin,sensor=b y==', binaryDouble(-0), ',x==', binaryDouble(NaN), '\r\n',
  'bin x==', binaryDouble(Buffer.from([0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a]).readDoubleLE(0)), ' 2000t\n',
  'bin y==', binaryDouble(Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x23, 0x0a, 0x5c, 0x0a]).readDoubleLE(0)), ',x=2.5',
);

test('protocol 2 binary doubles (bytes 0x0A, CR, space, comma, quote and backslash inside) parse the same cut at every byte', (t) => {
  t.true(render(parseChunks([BINARY_BODY])).startsWith('[{"name":"bin","rowCount":4'), 'the body is valid');
  t.deepEqual(twoPieceMismatches(BINARY_BODY), []);
  t.is(byteAtATime(BINARY_BODY), render(parseChunks([BINARY_BODY])));
});

/** A protocol 2 array field value: type 14, doubles, the shape, then the elements (bytes of any value, LF included). */
function binaryArray(shape: readonly number[], values: readonly number[]): Buffer {
  const head = Buffer.alloc(3 + 4 * shape.length);
  head.writeUInt8(14, 0);
  head.writeUInt8(10, 1);
  head.writeUInt8(shape.length, 2);
  shape.forEach((length, d) => head.writeUInt32LE(length, 3 + 4 * d));
  return Buffer.concat([head, ...values.map((value) => binaryDouble(value).subarray(1))]);
}

test('protocol 2 arrays (elements whose bytes hold line feeds, NULL arrays, 2-D) parse the same cut at every byte', (t) => {
  const lineFeeds = Buffer.from([0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a]).readDoubleLE(0);
  const body = bytesOf(
    'arr v==', binaryArray([2], [lineFeeds, 1.5]), ',m==', binaryArray([2, 1], [3, 4]), ' 1000t\n',
    'arr v==', Buffer.from([14, 33]), ',x=1i\n',
    'arr m==', binaryArray([1, 0], []), ',v==', binaryArray([1], [lineFeeds]), '\n',
  );
  const whole = render(parseChunks([body]));
  t.true(whole.startsWith('[{"name":"arr","rowCount":3'), whole.slice(0, 200));
  t.deepEqual(twoPieceMismatches(body), []);
  t.is(byteAtATime(body), whole);
});

test('columns appearing mid-request, repeated fields and several tables parse the same cut at every pair of positions', (t) => {
  const body = Buffer.from('a x=1i\nb,s=q y="v"\na x=2i,z=t,x=5i\nB y="w",w=1.5\na,s=r z=f 99\n');
  t.deepEqual(threePieceMismatches(body), []);
});

test('existing tables with converted columns parse the same cut at every byte', (t) => {
  const options = { lookupTable: existingTables(tableMeta('ex', [['i', 'INT'], ['f', 'FLOAT'], ['c', 'CHAR'], ['u', 'UUID'], ['ts', 'TIMESTAMP']], 'ts')) };
  const body = Buffer.from('ex i=5i,f=2.5,c="é",u="11111111-2222-3333-4444-555555555555" 1000000\nex f=7i,new=1i\n');
  t.true(render(parseChunks([body], options)).includes('"rowCount":2'));
  t.deepEqual(twoPieceMismatches(body, options), []);
});

test('repeated tag sections (replayed from the tag-set cache) parse the same cut at every pair of positions', (t) => {
  // Row 4 brings a new tag value: cut inside its fields, the row is cut off again with the value it added.
  const body = Buffer.from('t,h=a,r=x v=1i\nt,h=b,r=x v=2i\nt,h=a,r=x v=3i\nt,h=c,r=x v=4i\nt,h=c,r=x v=5i\nt,h=a,r=x\nt,h=a,r=x v=6i\n');
  t.true(render(parseChunks([body])).includes('"rowCount":7'));
  t.deepEqual(threePieceMismatches(body), []);
  t.is(byteAtATime(body), render(parseChunks([body])));
});

test('bad bodies raise the same error with the same line number cut at every byte', (t) => {
  const bodies = [
    bytesOf('t a=1i\n# c\n\nt a=2i\r\nt a=1.5\nt a=3i\n'),
    bytesOf('t s="é"\nt s="', Buffer.from([0xc3, 0x28]), '"\n'),
    bytesOf('t a=1i\nt x==', Buffer.from([14, 11, 1, 1, 0, 0, 0]), binaryDouble(1).subarray(1), '\n'),
    bytesOf('t a=1i\nt a=1i --5000n\n'),
    bytesOf('t a=1i\n../x a=1i\n'),
    bytesOf('t a=1i\nt a=2i -1000\nt a=3i\n'),
    bytesOf('t a=1i\nt s="unterminated\n'),
    bytesOf('t a=1i\nt a=1i\r\r\n'),
    bytesOf('t a=1i\nt a=0x10i\n'),
  ];
  for (const body of bodies) {
    t.true('error' in parseChunks([body]), body.toString('latin1'));
    t.deepEqual(twoPieceMismatches(body), [], body.toString('latin1'));
  }
});

test('an overlong line is a 413 on its line cut at every byte; lines before and after it do not matter', (t) => {
  const options = { lineBytesMax: 48 };
  const body = Buffer.from(`t a=1i\n# short\nt s="${'y'.repeat(60)}",b=2i\nt a=3i\n`);
  t.regex(render(parseChunks([body], options)), /^error 413 SVC_ILP_TOO_LARGE line 3: /);
  t.deepEqual(twoPieceMismatches(body, options), []);
});

test('a multi-byte character cut between chunks is still valid UTF-8 in names and values', (t) => {
  const body = Buffer.from('tåble,tägs=välue fïeld="ünïcödé 🙂",ok=t\n');
  t.true(render(parseChunks([body])).includes('ünïcödé 🙂'));
  t.deepEqual(twoPieceMismatches(body), []);
  t.deepEqual(threePieceMismatches(body), []);
});
