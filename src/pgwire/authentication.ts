// Password authentication of a PostgreSQL connection (pg.auth.method): cleartext (QuestDB's), MD5 with a
// per-connection salt, or SCRAM-SHA-256. Users are pg.user (read-write) and, when enabled, pg.readonly.user.
// Every failure reads the same to the client ("invalid username/password"): it never says which part was wrong.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { BodyReader } from './body-reader.js';
import type { MessageWriter } from './message-writer.js';
import { protocolError } from './message-reader.js';
import { SCRAM_MECHANISM, ScramExchange } from './scram.js';

export const AUTH_METHODS = ['cleartext', 'md5', 'scram-sha-256'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export interface PgUser {
  readonly name: string;
  readonly password: string;
  readonly readOnly: boolean;
}

export type AuthStep =
  | { readonly kind: 'continue' }
  | { readonly kind: 'ok'; readonly readOnly: boolean }
  | { readonly kind: 'failed' };

const AUTH_OK = 0;
const AUTH_CLEARTEXT = 3;
const AUTH_MD5 = 5;
const AUTH_SASL = 10;
const AUTH_SASL_CONTINUE = 11;
const AUTH_SASL_FINAL = 12;

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Time-constant comparison whatever the lengths (both sides hashed first). */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

function md5Hex(data: Buffer | string): string {
  return createHash('md5').update(data).digest('hex');
}

export class PasswordAuthentication {
  private readonly salt = randomBytes(4);
  private scram: ScramExchange | undefined;
  private readonly user: PgUser | undefined;

  constructor(private readonly method: AuthMethod, userName: string, users: readonly PgUser[]) {
    this.user = users.find((candidate) => sameSecret(candidate.name, userName));
  }

  /** Sends the first authentication request. */
  start(out: MessageWriter): void {
    switch (this.method) {
      case 'cleartext': out.authentication(AUTH_CLEARTEXT); return;
      case 'md5': out.authentication(AUTH_MD5, this.salt); return;
      case 'scram-sha-256': out.authentication(AUTH_SASL, Buffer.from(`${SCRAM_MECHANISM}\0\0`, 'utf8')); return;
    }
  }

  /** Handles one PasswordMessage / SASLInitialResponse / SASLResponse ('p'). */
  onPasswordMessage(body: Buffer, out: MessageWriter): AuthStep {
    switch (this.method) {
      case 'cleartext': return this.finish(this.user !== undefined && sameSecret(new BodyReader(body).cstring(), this.user.password), out);
      case 'md5': {
        const given = new BodyReader(body).cstring();
        const user = this.user;
        const expected = user === undefined ? '' : `md5${md5Hex(Buffer.concat([Buffer.from(md5Hex(user.password + user.name), 'utf8'), this.salt]))}`;
        return this.finish(user !== undefined && sameSecret(given, expected), out);
      }
      case 'scram-sha-256': return this.onScramMessage(body, out);
    }
  }

  private onScramMessage(body: Buffer, out: MessageWriter): AuthStep {
    const reader = new BodyReader(body);
    if (this.scram === undefined) {
      const mechanism = reader.cstring();
      if (mechanism !== SCRAM_MECHANISM) throw protocolError(`unsupported SASL mechanism [${mechanism.slice(0, 64)}]`);
      const length = reader.int32();
      // An unknown user still gets a full exchange, against a secret nobody knows.
      this.scram = new ScramExchange(this.user?.password ?? randomBytes(32).toString('base64'));
      const serverFirst = this.scram.first(reader.bytes(length).toString('utf8'));
      out.authentication(AUTH_SASL_CONTINUE, Buffer.from(serverFirst, 'utf8'));
      return { kind: 'continue' };
    }
    const serverFinal = this.scram.final(reader.bytes(reader.remaining).toString('utf8'));
    if (serverFinal === undefined || this.user === undefined) return { kind: 'failed' };
    out.authentication(AUTH_SASL_FINAL, Buffer.from(serverFinal, 'utf8'));
    return this.finish(true, out);
  }

  private finish(ok: boolean, out: MessageWriter): AuthStep {
    if (!ok || this.user === undefined) return { kind: 'failed' };
    out.authentication(AUTH_OK);
    return { kind: 'ok', readOnly: this.user.readOnly };
  }
}
