// A streaming ZIP writer (PKWARE APPNOTE 6.3): entries are STOREd (Parquet pages are already compressed) and
// written as their bytes arrive, with sizes and CRC in a trailing data descriptor, so no entry is ever held
// whole in memory. Zip64 fields are added only where a size, offset or count outgrows the 32/16-bit ones,
// as Java's ZipOutputStream and Go's archive/zip do. Only the central directory records are kept until the end.
import { crc32 } from 'node:zlib';
import { assert } from '../core/assert.js';

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
/** Bit 3: sizes follow the data; bit 11: names are UTF-8. */
const FLAGS = 0x0808;
const U32_MAX = 0xffffffff;
const U16_MAX = 0xffff;

interface EntryRecord {
  readonly name: Uint8Array;
  readonly offset: number;
  crc: number;
  size: number;
}

export class ZipStreamWriter {
  private readonly entries: EntryRecord[] = [];
  private current: EntryRecord | undefined;
  private offset = 0;
  private finished = false;
  private readonly dosTime: number;
  private readonly dosDate: number;

  constructor(private readonly emit: (bytes: Uint8Array) => void, modified = new Date()) {
    // MS-DOS time has no zone; UTC keeps archives reproducible across servers.
    this.dosTime = (modified.getUTCHours() << 11) | (modified.getUTCMinutes() << 5) | (modified.getUTCSeconds() >> 1);
    this.dosDate = ((Math.max(1980, modified.getUTCFullYear()) - 1980) << 9) | ((modified.getUTCMonth() + 1) << 5) | modified.getUTCDate();
  }

  beginEntry(name: string): void {
    assert(this.current === undefined && !this.finished, 'entries are written one after another, before finish()');
    const nameBytes = Buffer.from(name, 'utf8');
    assert(nameBytes.length <= U16_MAX, 'entry names fit the 16-bit length field');
    const header = new DataView(new ArrayBuffer(30 + nameBytes.length));
    header.setUint32(0, LOCAL_HEADER, true);
    header.setUint16(4, 20, true); // version needed: 2.0
    header.setUint16(6, FLAGS, true);
    header.setUint16(8, 0, true); // method: stored
    header.setUint16(10, this.dosTime, true);
    header.setUint16(12, this.dosDate, true);
    // CRC and sizes (offsets 14..25) stay 0: they are in the data descriptor.
    header.setUint16(26, nameBytes.length, true);
    header.setUint16(28, 0, true);
    new Uint8Array(header.buffer).set(nameBytes, 30);
    this.current = { name: nameBytes, offset: this.offset, crc: 0, size: 0 };
    this.write(new Uint8Array(header.buffer));
  }

  writeEntryData(bytes: Uint8Array): void {
    const entry = this.current;
    assert(entry !== undefined, 'entry data is written between beginEntry and endEntry');
    entry.crc = crc32(bytes, entry.crc);
    entry.size += bytes.length;
    this.write(bytes);
  }

  endEntry(): void {
    const entry = this.current;
    assert(entry !== undefined, 'endEntry closes an open entry');
    const wide = entry.size >= U32_MAX;
    const descriptor = new DataView(new ArrayBuffer(wide ? 24 : 16));
    descriptor.setUint32(0, DATA_DESCRIPTOR, true);
    descriptor.setUint32(4, entry.crc, true);
    if (wide) {
      descriptor.setBigUint64(8, BigInt(entry.size), true);
      descriptor.setBigUint64(16, BigInt(entry.size), true);
    } else {
      descriptor.setUint32(8, entry.size, true);
      descriptor.setUint32(12, entry.size, true);
    }
    this.write(new Uint8Array(descriptor.buffer));
    this.entries.push(entry);
    this.current = undefined;
  }

  /** Writes the central directory and the end records; the archive is complete after this. */
  finish(): void {
    assert(this.current === undefined && !this.finished, 'finish() follows the last endEntry, once');
    this.finished = true;
    const directoryStart = this.offset;
    for (const entry of this.entries) this.write(centralHeader(entry, this.dosTime, this.dosDate));
    const directorySize = this.offset - directoryStart;
    const count = this.entries.length;
    if (count >= U16_MAX || directoryStart >= U32_MAX || directorySize >= U32_MAX) {
      this.write(zip64End(count, directoryStart, directorySize, this.offset));
    }
    const end = new DataView(new ArrayBuffer(22));
    end.setUint32(0, END_OF_CENTRAL_DIRECTORY, true);
    end.setUint16(8, Math.min(count, U16_MAX), true);
    end.setUint16(10, Math.min(count, U16_MAX), true);
    end.setUint32(12, Math.min(directorySize, U32_MAX), true);
    end.setUint32(16, Math.min(directoryStart, U32_MAX), true);
    this.write(new Uint8Array(end.buffer));
  }

  private write(bytes: Uint8Array): void {
    this.offset += bytes.length;
    this.emit(bytes);
  }
}

function centralHeader(entry: EntryRecord, dosTime: number, dosDate: number): Uint8Array {
  // Zip64 extra field (id 1): only the values that overflow, in the order size, compressed size, offset.
  const wide: number[] = [];
  if (entry.size >= U32_MAX) wide.push(entry.size, entry.size);
  if (entry.offset >= U32_MAX) wide.push(entry.offset);
  const extraLength = wide.length > 0 ? 4 + 8 * wide.length : 0;
  const header = new DataView(new ArrayBuffer(46 + entry.name.length + extraLength));
  const version = wide.length > 0 ? 45 : 20;
  header.setUint32(0, CENTRAL_HEADER, true);
  header.setUint16(4, (3 << 8) | version, true); // made by: Unix, so the permission bits below apply
  header.setUint16(6, version, true);
  header.setUint16(8, FLAGS, true);
  header.setUint16(10, 0, true);
  header.setUint16(12, dosTime, true);
  header.setUint16(14, dosDate, true);
  header.setUint32(16, entry.crc, true);
  header.setUint32(20, Math.min(entry.size, U32_MAX), true);
  header.setUint32(24, Math.min(entry.size, U32_MAX), true);
  header.setUint16(28, entry.name.length, true);
  header.setUint16(30, extraLength, true);
  header.setUint32(38, 0o100644 << 16 >>> 0, true); // regular file, rw-r--r--
  header.setUint32(42, Math.min(entry.offset, U32_MAX), true);
  new Uint8Array(header.buffer).set(entry.name, 46);
  if (wide.length > 0) {
    const at = 46 + entry.name.length;
    header.setUint16(at, 1, true);
    header.setUint16(at + 2, 8 * wide.length, true);
    wide.forEach((value, index) => header.setBigUint64(at + 4 + 8 * index, BigInt(value), true));
  }
  return new Uint8Array(header.buffer);
}

function zip64End(count: number, directoryStart: number, directorySize: number, recordOffset: number): Uint8Array {
  const record = new DataView(new ArrayBuffer(56 + 20));
  record.setUint32(0, ZIP64_END_OF_CENTRAL_DIRECTORY, true);
  record.setBigUint64(4, 44n, true); // size of the rest of the record
  record.setUint16(12, (3 << 8) | 45, true);
  record.setUint16(14, 45, true);
  record.setBigUint64(24, BigInt(count), true);
  record.setBigUint64(32, BigInt(count), true);
  record.setBigUint64(40, BigInt(directorySize), true);
  record.setBigUint64(48, BigInt(directoryStart), true);
  record.setUint32(56, ZIP64_LOCATOR, true);
  record.setBigUint64(64, BigInt(recordOffset), true);
  record.setUint32(72, 1, true); // total number of disks
  return new Uint8Array(record.buffer);
}
