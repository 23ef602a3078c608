// Reads the fields of one frontend message body with bounds checks: a field that runs past the end of the
// body is a protocol error, never an out-of-range read.
import { protocolError } from './message-reader.js';

export class BodyReader {
  private offset = 0;

  constructor(private readonly body: Buffer) {}

  get remaining(): number {
    return this.body.length - this.offset;
  }

  int8(): number {
    this.need(1);
    return this.body.readInt8(this.offset++);
  }

  int16(): number {
    this.need(2);
    const value = this.body.readInt16BE(this.offset);
    this.offset += 2;
    return value;
  }

  int32(): number {
    this.need(4);
    const value = this.body.readInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  /** A NUL-terminated UTF-8 string. */
  cstring(): string {
    const end = this.body.indexOf(0, this.offset);
    if (end < 0) throw protocolError('unterminated string in message');
    const text = this.body.toString('utf8', this.offset, end);
    this.offset = end + 1;
    return text;
  }

  bytes(count: number): Buffer {
    if (count < 0) throw protocolError(`invalid field length [length=${count}]`);
    this.need(count);
    const value = this.body.subarray(this.offset, this.offset + count);
    this.offset += count;
    return value;
  }

  /** A count (int16) that must not be negative. */
  count16(what: string): number {
    const count = this.int16();
    if (count < 0) throw protocolError(`invalid ${what} count [count=${count}]`);
    return count;
  }

  private need(bytes: number): void {
    if (this.offset + bytes > this.body.length) throw protocolError('message is shorter than its fields');
  }
}
