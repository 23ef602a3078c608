// The ILP TCP authentication file (QuestDB's auth.txt format) and the ECDSA challenge-response, without sockets:
// what the file accepts and how it refuses, the challenge's exact shape, DER and raw r||s signatures, and every
// way a handshake is refused (unknown key id, another key's signature, overlong lines, a response sent early).
import test from 'ava';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { parseIlpAuthDb } from '../../../src/ilp/tcp-auth-db.js';
import { CHALLENGE_BYTES, IlpTcpHandshake, newChallenge, type HandshakeStep } from '../../../src/ilp/tcp-auth.js';
import { ConfigError } from '../../../src/core/errors.js';

interface TestKey {
  readonly privateKey: KeyObject;
  readonly x: string;
  readonly y: string;
}

function newKey(): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { x, y } = publicKey.export({ format: 'jwk' });
  if (x === undefined || y === undefined) throw new Error('a P-256 public JWK has x and y');
  return { privateKey, x, y };
}

const alice = newKey();
const mallory = newKey();
const authDb = parseIlpAuthDb(`alice ec-p-256-sha256 ${alice.x} ${alice.y}\n`, 'auth.txt');

function configError(text: string): string {
  const error = (() => {
    try {
      parseIlpAuthDb(text, 'auth.txt');
    } catch (caught) {
      return caught;
    }
    throw new Error('expected the file to be refused');
  })();
  if (!(error instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return error.message;
}

/** The challenge a handshake sends after `keyId`, without its line feed. */
function challengeFor(handshake: IlpTcpHandshake, keyId: string): Buffer {
  const step = handshake.receive(Buffer.from(`${keyId}\n`));
  if (step.kind !== 'wait' || step.reply === undefined) throw new Error(`expected a challenge, got ${step.kind}`);
  return step.reply.subarray(0, CHALLENGE_BYTES);
}

function respond(handshake: IlpTcpHandshake, signature: Buffer, after = ''): HandshakeStep {
  return handshake.receive(Buffer.from(`${signature.toString('base64')}\n${after}`));
}

test('the auth file: comments, blank lines and trailing comments; keys compared exactly', (t) => {
  const db = parseIlpAuthDb(`# keys\n\n  alice ec-p-256-sha256 ${alice.x} ${alice.y}   # laptop\nBob ec-p-256-sha256 ${mallory.x} ${mallory.y}\n`, 'auth.txt');
  t.deepEqual([...db.keys()], ['alice', 'Bob']);
  t.is(db.get('bob'), undefined);
});

test('the auth file refuses malformed lines, naming the file and line', (t) => {
  const good = `alice ec-p-256-sha256 ${alice.x} ${alice.y}`;
  t.regex(configError(`${good}\nbob ec-p-256-sha256 ${alice.x}\n`), /auth\.txt, line 2: expected '<key id> ec-p-256-sha256 <x> <y>', found 3 field\(s\)/);
  t.regex(configError(`bob rsa ${alice.x} ${alice.y}\n`), /line 1: unsupported key type 'rsa'/);
  t.regex(configError(`${good}\n${good}\n`), /line 2: duplicate key id 'alice'/);
  t.regex(configError(`bob ec-p-256-sha256 ${alice.x}! ${alice.y}\n`), /line 1: x is not base64url/);
  t.regex(configError(`bob ec-p-256-sha256 ${alice.x}AAAA ${alice.y}\n`), /line 1: x is 35 bytes, a P-256 coordinate has 32/);
  t.regex(configError(`bob ec-p-256-sha256 ${alice.x} ${alice.x}\n`), /line 1: not a P-256 public key/);
  t.regex(configError(`${good}\n`.replace('alice', 'a b')), /found 5 field/);
});

test('a challenge is 512 random printable ASCII bytes (0x20..0x7e) and a line feed', (t) => {
  const first = newChallenge();
  t.is(first.length, CHALLENGE_BYTES + 1);
  t.is(first[CHALLENGE_BYTES], 10);
  t.true(first.subarray(0, CHALLENGE_BYTES).every((byte) => byte >= 0x20 && byte <= 0x7e));
  t.notDeepEqual(newChallenge(), first);
});

test('a DER signature (what the official client sends) is accepted; bytes after it are line protocol', (t) => {
  const handshake = new IlpTcpHandshake(authDb);
  const challenge = challengeFor(handshake, 'alice');
  const step = respond(handshake, sign('sha256', challenge, alice.privateKey), 't a=1i\n');
  t.is(step.kind, 'accepted');
  if (step.kind === 'accepted') {
    t.is(step.keyId, 'alice');
    t.is(step.rest.toString(), 't a=1i\n');
  }
});

test('a raw r||s signature (64 bytes, IEEE P1363) is accepted too; the handshake may arrive byte by byte', (t) => {
  const handshake = new IlpTcpHandshake(authDb);
  let challenge: Buffer | undefined;
  for (const byte of Buffer.from('alice\n')) {
    const step = handshake.receive(Buffer.from([byte]));
    if (step.kind === 'wait' && step.reply !== undefined) challenge = step.reply.subarray(0, CHALLENGE_BYTES);
  }
  if (challenge === undefined) throw new Error('no challenge');
  const response = Buffer.from(`${sign('sha256', challenge, { key: alice.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64')}\n`);
  let last: HandshakeStep = { kind: 'wait' };
  for (const byte of response) last = handshake.receive(Buffer.from([byte]));
  t.is(last.kind, 'accepted');
});

test('refusals: another key, an unknown key id (after a challenge all the same), garbage, zeros', (t) => {
  const wrongKey = new IlpTcpHandshake(authDb);
  t.deepEqual(respond(wrongKey, sign('sha256', challengeFor(wrongKey, 'alice'), mallory.privateKey)), { kind: 'refused', reason: "key id 'alice': the signature does not verify" });
  const unknown = new IlpTcpHandshake(authDb);
  t.deepEqual(respond(unknown, sign('sha256', challengeFor(unknown, 'mallory'), mallory.privateKey)), { kind: 'refused', reason: "unknown key id 'mallory'" });
  const garbage = new IlpTcpHandshake(authDb);
  challengeFor(garbage, 'alice');
  t.is(garbage.receive(Buffer.from('bm90IGEgc2lnbmF0dXJl\n')).kind, 'refused');
  const zeros = new IlpTcpHandshake(authDb);
  challengeFor(zeros, 'alice');
  t.is(respond(zeros, Buffer.alloc(64)).kind, 'refused');
});

test('refusals: an overlong key id or signature line, a response sent before the challenge', (t) => {
  t.deepEqual(new IlpTcpHandshake(authDb).receive(Buffer.alloc(1025, 0x61)), { kind: 'refused', reason: 'the key id line is longer than 1024 bytes' });
  const long = new IlpTcpHandshake(authDb);
  challengeFor(long, 'alice');
  t.is(long.receive(Buffer.alloc(97, 0x41)).kind, 'refused');
  t.is(new IlpTcpHandshake(authDb).receive(Buffer.from('alice\nAAAA\n')).kind, 'refused');
});
