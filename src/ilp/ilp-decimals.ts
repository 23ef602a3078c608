// Protocol 3 DECIMAL fields, as QuestDB 9.2's LineTcpParser reads them: text `<number>d` (`NaNd` is null) and
// binary `name==` byte 23, a scale byte, a length byte and that many bytes of the unscaled value, big-endian
// two's complement (length 0 is null). Values are staged as the column's canonical decimal text; a value that
// would lose digits in the column's scale or not fit its precision rejects the line. Integer, double and
// string fields also go into DECIMAL columns (QuestDB casts from INTEGER, FLOAT and STRING).
import type { IlpColumn } from './ilp-table-builder.js';
import { IlpValueError } from './ilp-errors.js';
import type { VarColumnBuilder } from './column-builder.js';
import type { DecimalType } from '../types/decimal.js';
import {
  DECIMAL_PRECISION_MAX, decimalPrecision, decimalScale, fitsPrecision, formatDecimal, isDecimalType, readDecimalText, rescaleDecimal,
} from '../types/decimal.js';

/** Byte after `name==` that announces a binary DECIMAL. */
export const BINARY_DECIMAL = 23;
const UNSCALED_BYTES_MAX = 32;

export interface BinaryDecimal {
  readonly unscaled: bigint | null;
  readonly scale: number;
  /** Offset just past the value. */
  readonly end: number;
}

/** The binary value whose type byte is at `at`; undefined when its bytes have not all arrived. */
export function readBinaryDecimal(table: string, data: Buffer, at: number): BinaryDecimal | undefined {
  if (at + 2 >= data.length) return undefined;
  const scale = data[at + 1];
  const length = data[at + 2];
  if (scale > DECIMAL_PRECISION_MAX) throw new IlpValueError(`table: ${table}; decimal scale ${scale} is out of range [0..${DECIMAL_PRECISION_MAX}]`);
  if (length > UNSCALED_BYTES_MAX) throw new IlpValueError(`table: ${table}; decimal value of ${length} bytes is longer than ${UNSCALED_BYTES_MAX}`);
  const start = at + 3;
  if (start + length > data.length) return undefined;
  if (length === 0) return { unscaled: null, scale, end: start };
  let unscaled = 0n;
  for (let k = 0; k < length; k++) unscaled = (unscaled << 8n) | BigInt(data[start + k]);
  return { unscaled: BigInt.asIntN(length * 8, unscaled), scale, end: start + length };
}

/** The text form without its `d`: an exact decimal, or null for NaN. */
export function readTextDecimal(table: string, text: string): { unscaled: bigint | null; scale: number } {
  if (text === 'NaN') return { unscaled: null, scale: 0 };
  const read = readDecimalText(text);
  if (read === undefined || /[mM]$/.test(text)) throw new IlpValueError(`table: ${table}; invalid decimal value: ${text}`);
  return read;
}

/** The type a DECIMAL field creates a column with: QuestDB's default DECIMAL(18,3). */
export const NEW_DECIMAL_COLUMN_TYPE: DecimalType = 'DECIMAL(18,3)';

/** A decimal value (unscaled at `scale`) into a DECIMAL column, exactly, or the line is rejected. */
export function writeDecimalValue(table: string, column: IlpColumn, kind: string, unscaled: bigint | null, scale: number): void {
  const builder = column.builder;
  const type = column.type;
  if (builder.kind !== 'var' || !isDecimalType(type)) {
    throw new IlpValueError(`table: ${table}, column: ${column.name}; cast error from protocol type: ${kind} to column type: ${type}`);
  }
  if (unscaled === null) {
    builder.appendNull();
    return;
  }
  const targetScale = decimalScale(type);
  const rescaled = rescaleDecimal(unscaled, scale, targetScale);
  if (rescaleDecimal(rescaled, targetScale, scale) !== unscaled || !fitsPrecision(rescaled, decimalPrecision(type))) {
    throw new IlpValueError(`table: ${table}, column: ${column.name}; decimal value does not fit column type: ${type}`);
  }
  appendText(builder, formatDecimal(rescaled, targetScale));
}

/** A double field into a DECIMAL column: through its shortest text, exactly. */
export function writeDoubleAsDecimal(table: string, column: IlpColumn, value: number): void {
  if (value !== value) {
    writeDecimalValue(table, column, 'FLOAT', null, 0);
    return;
  }
  const read = Number.isFinite(value) ? readDecimalText(String(value)) : undefined;
  if (read === undefined) throw new IlpValueError(`table: ${table}, column: ${column.name}; cast error from protocol type: FLOAT to column type: ${column.type}`);
  writeDecimalValue(table, column, 'FLOAT', read.unscaled, read.scale);
}

/** A string field into a DECIMAL column: parsed exactly; an empty string is null. */
export function writeTextAsDecimal(table: string, column: IlpColumn, text: string): void {
  if (text.length === 0) {
    writeDecimalValue(table, column, 'STRING', null, 0);
    return;
  }
  const read = readDecimalText(text);
  if (read === undefined) throw new IlpValueError(`table: ${table}, column: ${column.name}; cast error from protocol type: STRING to column type: ${column.type}`);
  writeDecimalValue(table, column, 'STRING', read.unscaled, read.scale);
}

function appendText(builder: VarColumnBuilder, value: string): void {
  const payload = builder.reserve(value.length);
  builder.bytes.write(value, payload, 'latin1');
}
