// ECDSA P-256 challenge-response at the start of an ILP TCP connection, as QuestDB's EllipticCurveAuthenticator
// does it: the client sends `<key id>\n`; the server answers with 512 random printable ASCII bytes (0x20-0x7e)
// and `\n`; the client sends the base64 ECDSA SHA-256 signature of those 512 bytes (DER, or 64 bytes of raw
// r||s) and `\n`; whatever follows is line protocol. An unknown key id still gets a challenge and fails at the
// signature, so the server does not tell which key ids exist. Pure: bytes in, steps out; the caller does I/O.
import { randomBytes, verify, type KeyObject } from 'node:crypto';
import type { IlpAuthDb } from './tcp-auth-db.js';
import { ilpTcpKeyIdBytesMax } from '../core/limits.js';
import { assert } from '../core/assert.js';

/** QuestDB's AuthUtils.CHALLENGE_LEN. */
export const CHALLENGE_BYTES = 512;
/** QuestDB's MAX_SIGNATURE_LENGTH_BASE64: base64 of a 72-byte DER signature, the longest P-256 one. */
const SIGNATURE_BASE64_LENGTH_MAX = 96;
/** Raw r||s (IEEE P1363) signatures are exactly this long; anything else is read as DER. */
const RAW_SIGNATURE_BYTES = 64;
const LF = 10;
const PRINTABLE_FIRST = 0x20;
const PRINTABLE_COUNT = 95;
const EMPTY = Buffer.alloc(0);

export type HandshakeStep =
  /** Wait for more bytes, after sending `reply` when there is one. */
  | { readonly kind: 'wait'; readonly reply?: Buffer }
  /** Authenticated; `rest` is the line protocol that arrived with the signature. */
  | { readonly kind: 'accepted'; readonly keyId: string; readonly rest: Buffer }
  | { readonly kind: 'refused'; readonly reason: string };

/** 512 uniformly random bytes in 0x20..0x7e, then `\n`. */
export function newChallenge(): Buffer {
  const challenge = Buffer.alloc(CHALLENGE_BYTES + 1);
  let filled = 0;
  while (filled < CHALLENGE_BYTES) {
    const random = randomBytes(CHALLENGE_BYTES);
    for (let k = 0; k < random.length && filled < CHALLENGE_BYTES; k++) {
      const value = random[k];
      // Rejection sampling: 190 = 2 × 95, so every printable byte is equally likely.
      if (value < 2 * PRINTABLE_COUNT) challenge[filled++] = PRINTABLE_FIRST + (value % PRINTABLE_COUNT);
    }
  }
  challenge[CHALLENGE_BYTES] = LF;
  return challenge;
}

/** True when `signatureText` (base64) is a valid ECDSA SHA-256 signature of `challenge` by `key`. */
export function verifyChallengeSignature(key: KeyObject, challenge: Buffer, signatureText: string): boolean {
  const signature = Buffer.from(signatureText, 'base64');
  // QuestDB refuses all-zero signatures: old JDKs accepted them as valid.
  if (signature.length === 0 || signature.every((byte) => byte === 0)) return false;
  const dsaEncoding = signature.length === RAW_SIGNATURE_BYTES ? 'ieee-p1363' : 'der';
  try {
    return verify('sha256', challenge, { key, dsaEncoding }, signature);
  } catch {
    return false; // a malformed DER structure
  }
}

export class IlpTcpHandshake {
  private state: 'keyId' | 'signature' | 'done' = 'keyId';
  private pending: Buffer = EMPTY;
  private keyId = '';
  /** The challenge sent, without its `\n`. */
  private challenge: Buffer = EMPTY;

  constructor(private readonly authDb: IlpAuthDb, private readonly makeChallenge: () => Buffer = newChallenge) {}

  receive(chunk: Buffer): HandshakeStep {
    assert(this.state !== 'done', 'no bytes reach the handshake once it has decided');
    // Copied: a connection's chunk is only valid during the call (shared-read-buffer.ts).
    this.pending = Buffer.concat([this.pending, chunk]);
    if (this.state === 'keyId') {
      const end = this.pending.indexOf(LF);
      if (end < 0) return this.pending.length > ilpTcpKeyIdBytesMax ? this.refuse(`the key id line is longer than ${ilpTcpKeyIdBytesMax} bytes`) : { kind: 'wait' };
      if (end > ilpTcpKeyIdBytesMax) return this.refuse(`the key id line is longer than ${ilpTcpKeyIdBytesMax} bytes`);
      this.keyId = this.pending.toString('utf8', 0, end);
      this.pending = this.pending.subarray(end + 1);
      // A signature cannot precede the challenge it signs.
      if (this.pending.includes(LF)) return this.refuse(`key id '${this.keyId}': a response line arrived before the challenge was sent`);
      const reply = this.makeChallenge();
      assert(reply.length === CHALLENGE_BYTES + 1 && reply[CHALLENGE_BYTES] === LF, 'a challenge is 512 bytes and a line feed');
      this.challenge = reply.subarray(0, CHALLENGE_BYTES);
      this.state = 'signature';
      return this.pending.length > SIGNATURE_BASE64_LENGTH_MAX ? this.refuse(`key id '${this.keyId}': the signature line is too long`) : { kind: 'wait', reply };
    }
    return this.receiveSignature();
  }

  private receiveSignature(): HandshakeStep {
    const end = this.pending.indexOf(LF);
    if (end > SIGNATURE_BASE64_LENGTH_MAX || (end < 0 && this.pending.length > SIGNATURE_BASE64_LENGTH_MAX)) {
      return this.refuse(`key id '${this.keyId}': the signature line is longer than ${SIGNATURE_BASE64_LENGTH_MAX} characters`);
    }
    if (end < 0) return { kind: 'wait' };
    const key = this.authDb.get(this.keyId);
    if (key === undefined) return this.refuse(`unknown key id '${this.keyId}'`);
    if (!verifyChallengeSignature(key, this.challenge, this.pending.toString('latin1', 0, end))) {
      return this.refuse(`key id '${this.keyId}': the signature does not verify`);
    }
    this.state = 'done';
    const rest = this.pending.subarray(end + 1);
    this.pending = EMPTY;
    return { kind: 'accepted', keyId: this.keyId, rest };
  }

  private refuse(reason: string): HandshakeStep {
    this.state = 'done';
    this.pending = EMPTY;
    return { kind: 'refused', reason };
  }
}
