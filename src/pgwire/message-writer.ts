// Encodes backend messages into one growing buffer per connection; the connection takes the bytes out and
// writes them to the socket at flush points (ReadyForQuery, Flush, or when the buffer passes its flush size).
// Every message is `byte type, int32 length, body`, the length patched in when the message ends.
import { assert } from '../core/assert.js';

const INITIAL_BYTES = 16 * 1024;

export interface ColumnDescription {
  readonly name: string;
  readonly typeOid: number;
  /** pg_type.typlen: -1 for variable size. */
  readonly typeSize: number;
  readonly typeModifier: number;
  /** 0 text, 1 binary. */
  readonly format: number;
}

export interface ErrorFields {
  readonly severity: 'ERROR' | 'FATAL';
  readonly sqlState: string;
  readonly message: string;
  /** 1-based character position in the query text. */
  readonly position?: number;
}

export class MessageWriter {
  private buffer = Buffer.allocUnsafe(INITIAL_BYTES);
  private length = 0;
  private messageStart = -1;

  get bufferedBytes(): number {
    return this.length;
  }

  /** The bytes written so far; the writer starts over empty. */
  take(): Buffer {
    assert(this.messageStart < 0, 'no message is half-written when bytes are taken');
    const out = Buffer.from(this.buffer.subarray(0, this.length));
    this.length = 0;
    if (this.buffer.length > 4 * 1024 * 1024) this.buffer = Buffer.allocUnsafe(INITIAL_BYTES);
    return out;
  }

  begin(type: string): void {
    assert(this.messageStart < 0, 'messages do not nest');
    this.ensure(5);
    this.buffer[this.length] = type.charCodeAt(0);
    this.messageStart = this.length + 1;
    this.length += 5;
  }

  end(): void {
    assert(this.messageStart >= 0, 'end() follows begin()');
    this.buffer.writeInt32BE(this.length - this.messageStart, this.messageStart);
    this.messageStart = -1;
  }

  int8(value: number): void {
    this.ensure(1);
    this.buffer[this.length++] = value & 0xff;
  }

  int16(value: number): void {
    this.ensure(2);
    this.buffer.writeInt16BE(value, this.length);
    this.length += 2;
  }

  int32(value: number): void {
    this.ensure(4);
    this.buffer.writeInt32BE(value, this.length);
    this.length += 4;
  }

  int64(value: bigint): void {
    this.ensure(8);
    this.buffer.writeBigInt64BE(value, this.length);
    this.length += 8;
  }

  float32(value: number): void {
    this.ensure(4);
    this.buffer.writeFloatBE(value, this.length);
    this.length += 4;
  }

  float64(value: number): void {
    this.ensure(8);
    this.buffer.writeDoubleBE(value, this.length);
    this.length += 8;
  }

  cstring(text: string): void {
    this.utf8(text);
    this.int8(0);
  }

  /** UTF-8 bytes of `text`, no terminator; returns the byte count. */
  utf8(text: string): number {
    this.ensure(text.length * 3);
    const written = this.buffer.write(text, this.length, 'utf8');
    this.length += written;
    return written;
  }

  /** A length-prefixed text value (DataRow cell). */
  lengthPrefixedUtf8(text: string): void {
    this.ensure(4 + text.length * 3);
    const written = this.buffer.write(text, this.length + 4, 'utf8');
    this.buffer.writeInt32BE(written, this.length);
    this.length += 4 + written;
  }

  bytes(data: Uint8Array): void {
    this.ensure(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }

  private ensure(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + bytes) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  // ---------- whole messages ----------

  authentication(code: number, payload?: Uint8Array): void {
    this.begin('R');
    this.int32(code);
    if (payload !== undefined) this.bytes(payload);
    this.end();
  }

  parameterStatus(name: string, value: string): void {
    this.begin('S');
    this.cstring(name);
    this.cstring(value);
    this.end();
  }

  backendKeyData(processId: number, secretKey: number): void {
    this.begin('K');
    this.int32(processId);
    this.int32(secretKey);
    this.end();
  }

  readyForQuery(status: 'I' | 'T' | 'E'): void {
    this.begin('Z');
    this.int8(status.charCodeAt(0));
    this.end();
  }

  rowDescription(columns: readonly ColumnDescription[]): void {
    this.begin('T');
    this.int16(columns.length);
    for (const column of columns) {
      this.cstring(column.name);
      this.int32(0);
      this.int16(0);
      this.int32(column.typeOid);
      this.int16(column.typeSize);
      this.int32(column.typeModifier);
      this.int16(column.format);
    }
    this.end();
  }

  parameterDescription(typeOids: readonly number[]): void {
    this.begin('t');
    this.int16(typeOids.length);
    for (const oid of typeOids) this.int32(oid);
    this.end();
  }

  commandComplete(tag: string): void {
    this.begin('C');
    this.cstring(tag);
    this.end();
  }

  /** A message with no body: ParseComplete '1', BindComplete '2', CloseComplete '3', NoData 'n', EmptyQueryResponse 'I', PortalSuspended 's'. */
  empty(type: '1' | '2' | '3' | 'n' | 'I' | 's'): void {
    this.begin(type);
    this.end();
  }

  errorResponse(fields: ErrorFields): void {
    this.begin('E');
    this.field('S', fields.severity);
    this.field('V', fields.severity);
    this.field('C', fields.sqlState);
    this.field('M', fields.message);
    if (fields.position !== undefined) this.field('P', String(fields.position));
    this.int8(0);
    this.end();
  }

  private field(code: string, value: string): void {
    this.int8(code.charCodeAt(0));
    this.cstring(value);
  }
}
