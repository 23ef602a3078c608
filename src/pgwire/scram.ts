// SCRAM-SHA-256 server side (RFC 5802 / 7677, as PostgreSQL runs it: no channel binding, the user name comes
// from the start-up packet so the client sends an empty `n=`). The server holds the plain password, so the
// salted password is derived per exchange with a fresh salt. An unknown user runs the same exchange against a
// random secret, so the reply never tells whether the user or the password was wrong.
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { protocolError } from './message-reader.js';

export const SCRAM_MECHANISM = 'SCRAM-SHA-256';
/** PostgreSQL's default iteration count (scram_iterations). */
const ITERATIONS = 4096;
const NONCE_BYTES = 18;

function hmac(key: Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text, 'utf8').digest();
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

/** `a=1,b=2` → Map; values keep any `=` they contain. */
function attributesOf(message: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of message.split(',')) {
    const eq = part.indexOf('=');
    if (eq === 1) map.set(part.slice(0, 1), part.slice(2));
  }
  return map;
}

export class ScramExchange {
  private clientFirstBare = '';
  private serverFirst = '';
  private nonce = '';
  private readonly salt = randomBytes(16);
  private readonly saltedPassword: Buffer;

  constructor(password: string) {
    this.saltedPassword = pbkdf2Sync(password.normalize('NFKC'), this.salt, ITERATIONS, 32, 'sha256');
  }

  /** Reads client-first-message (`n,,n=,r=<nonce>`) and returns server-first-message. */
  first(clientFirst: string): string {
    if (!clientFirst.startsWith('n,') && !clientFirst.startsWith('y,')) throw protocolError('SCRAM channel binding is not supported');
    const bareStart = clientFirst.indexOf(',', 2);
    if (bareStart < 0) throw protocolError('malformed SCRAM client-first-message');
    this.clientFirstBare = clientFirst.slice(bareStart + 1);
    const clientNonce = attributesOf(this.clientFirstBare).get('r');
    if (clientNonce === undefined || clientNonce === '') throw protocolError('SCRAM client nonce missing');
    this.nonce = clientNonce + randomBytes(NONCE_BYTES).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${this.salt.toString('base64')},i=${ITERATIONS}`;
    return this.serverFirst;
  }

  /** Checks client-final-message; returns server-final-message when the proof holds, undefined when it does not. */
  final(clientFinal: string): string | undefined {
    const proofAt = clientFinal.lastIndexOf(',p=');
    if (proofAt < 0) throw protocolError('SCRAM client proof missing');
    const withoutProof = clientFinal.slice(0, proofAt);
    const attributes = attributesOf(clientFinal);
    if (attributes.get('r') !== this.nonce) return undefined;
    const proof = Buffer.from(clientFinal.slice(proofAt + 3), 'base64');
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const clientKey = hmac(this.saltedPassword, 'Client Key');
    const storedKey = sha256(clientKey);
    const signature = hmac(storedKey, authMessage);
    if (proof.length !== signature.length) return undefined;
    const recovered = Buffer.alloc(proof.length);
    for (let i = 0; i < proof.length; i++) recovered[i] = proof[i] ^ signature[i];
    if (!timingSafeEqual(sha256(recovered), storedKey)) return undefined;
    const serverKey = hmac(this.saltedPassword, 'Server Key');
    return `v=${hmac(serverKey, authMessage).toString('base64')}`;
  }
}
