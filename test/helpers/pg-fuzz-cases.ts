// Seeded malformed PostgreSQL protocol cases for test/e2e/pg-fuzz.test.ts: bad lengths, unknown types, bodies
// that do not match their type, truncated messages, messages out of order, huge parameters and start-up
// packets gone wrong. Every case is rebuilt from its seed, so a failure names the seed that replays it.
import { seededRandom } from './seeded-random.js';
import {
  bindMessage, closeMessage, cstring, describeMessage, executeMessage, flushMessage, parseMessage, queryMessage, syncMessage, typedMessage,
} from './pg-messages.js';

export interface PgFuzzCase {
  readonly kind: string;
  /** Authenticate first (a start-up fuzz case sends its own start-up bytes). */
  readonly authenticate: boolean;
  readonly bytes: Buffer;
  /** The client cuts the connection after sending (a truncated message can never complete). */
  readonly disconnect: boolean;
}

type Random = () => number;

const TYPES = 'PBDECSHQXpdcfF';
const SQL_WORDS = ['select', 'from', 'where', '*', 't', 'x', '(', ')', ',', "'", '"', '$1', '$99999', '::', 'timestamp', 'sample by', '1h', ';', 'insert into', 'values', 'null', '1e400', '--', '/*'];

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function randomBytes(random: Random, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  for (let i = 0; i < length; i++) buffer[i] = Math.floor(random() * 256);
  return buffer;
}

function randomSql(random: Random): string {
  const words: string[] = [];
  const count = 1 + Math.floor(random() * 12);
  for (let k = 0; k < count; k++) words.push(pick(random, SQL_WORDS));
  return words.join(' ');
}

function validExchange(random: Random): Buffer {
  const name = random() < 0.5 ? '' : `s${Math.floor(random() * 3)}`;
  return Buffer.concat([parseMessage(name, 'select x from long_sequence(5) where x > $1', [20]), bindMessage('', name, [Buffer.from(String(Math.floor(random() * 5)))]),
    describeMessage('P', ''), executeMessage('', Math.floor(random() * 3)), syncMessage()]);
}

const GENERATORS: Record<string, (random: Random) => Omit<PgFuzzCase, 'kind'>> = {
  unknownType: (random) => ({ authenticate: true, disconnect: false, bytes: typedMessage(String.fromCharCode(pick(random, [0, 1, 0x41, 0x5a, 0x7f, 0xff, 0x71])), randomBytes(random, Math.floor(random() * 40))) }),
  badLength: (random) => ({ authenticate: true, disconnect: false, bytes: typedMessage(pick(random, [...TYPES]), randomBytes(random, 8), pick(random, [0, 1, 2, 3, -1, -2147483648])) }),
  hugeLength: (random) => ({ authenticate: true, disconnect: false, bytes: typedMessage(pick(random, [...TYPES]), randomBytes(random, 16), pick(random, [2 * 1024 * 1024, 2147483647, 1024 * 1024 + 1])) }),
  truncated: (random) => {
    const whole = Buffer.concat([parseMessage('', randomSql(random)), bindMessage('', '', []), executeMessage('')]);
    return { authenticate: true, disconnect: true, bytes: whole.subarray(0, 1 + Math.floor(random() * (whole.length - 1))) };
  },
  outOfOrder: (random) => {
    const steps = [executeMessage('nope'), describeMessage('S', 'missing'), describeMessage('P', 'missing'), bindMessage('', 'missing', []),
      closeMessage('S', 'x'), executeMessage(''), bindMessage('p', '', [Buffer.from('1')]), flushMessage(), syncMessage(),
      typedMessage('D', Buffer.concat([Buffer.from('Z'), cstring('')])), typedMessage('C', Buffer.concat([Buffer.from('Q'), cstring('')])), typedMessage('d', randomBytes(random, 5)), typedMessage('c', Buffer.alloc(0))];
    const count = 1 + Math.floor(random() * 6);
    return { authenticate: true, disconnect: false, bytes: Buffer.concat(Array.from({ length: count }, () => pick(random, steps))) };
  },
  malformedBody: (random) => ({ authenticate: true, disconnect: false, bytes: typedMessage(pick(random, [...'PBDECQ']), randomBytes(random, Math.floor(random() * 64))) }),
  hugeParameter: (random) => {
    const variants = [
      // A value length beyond the message: the field runs past the body.
      typedMessage('B', Buffer.concat([cstring(''), cstring(''), Buffer.from([0, 0, 0, 1, 0x7f, 0xff, 0xff, 0xff])])),
      // 32767 values announced, none sent.
      typedMessage('B', Buffer.concat([cstring(''), cstring(''), Buffer.from([0, 0, 0x7f, 0xff])])),
      // A large text value for a real statement (under the message bound).
      Buffer.concat([parseMessage('', 'select length($1)'), bindMessage('', '', [Buffer.alloc(300_000 + Math.floor(random() * 300_000), 0x61)]), executeMessage('')]),
      // A value that does not parse as its declared type.
      Buffer.concat([parseMessage('', 'select $1 + 1', [23]), bindMessage('', '', [randomBytes(random, 3)]), executeMessage('')]),
      // Binary value of the wrong width.
      Buffer.concat([parseMessage('', 'select $1', [20]), typedMessage('B', Buffer.concat([cstring(''), cstring(''), Buffer.from([0, 1, 0, 1, 0, 1, 0, 0, 0, 3, 1, 2, 3, 0, 0])])), executeMessage('')]),
      // Negative counts.
      typedMessage('P', Buffer.concat([cstring(''), cstring('select 1'), Buffer.from([0xff, 0xff])])),
    ];
    return { authenticate: true, disconnect: false, bytes: Buffer.concat([pick(random, variants), syncMessage()]) };
  },
  randomSql: (random) => ({ authenticate: true, disconnect: false, bytes: random() < 0.5 ? queryMessage(randomSql(random)) : Buffer.concat([parseMessage('', randomSql(random)), bindMessage('', '', []), executeMessage(''), syncMessage()]) }),
  valid: (random) => ({ authenticate: true, disconnect: false, bytes: validExchange(random) }),
  startup: (random) => {
    const variants = [
      randomBytes(random, 8 + Math.floor(random() * 40)),
      Buffer.from([0, 0, 0, 8, 0, 2, 0, 0]),
      Buffer.from([0, 0, 0, 3]),
      Buffer.concat([Buffer.from([0, 0, 0, 40, 0, 3, 0, 0]), Buffer.from('user\0admin\0database', 'latin1'), Buffer.alloc(13, 0x41)]),
      typedMessage('p', cstring('quest')),
      Buffer.from([0, 0, 0, 16, 4, 0xd2, 0x16, 0x2e, 0, 0, 0, 1, 0, 0, 0, 2]),
    ];
    return { authenticate: false, disconnect: false, bytes: pick(random, variants) };
  },
};

export const PG_FUZZ_KINDS = Object.keys(GENERATORS);

export function pgFuzzCase(seed: number): PgFuzzCase {
  const random = seededRandom(seed);
  const kind = pick(random, PG_FUZZ_KINDS);
  const generate = GENERATORS[kind];
  if (generate === undefined) throw new Error(`no generator ${kind}`);
  return { kind, ...generate(random) };
}
