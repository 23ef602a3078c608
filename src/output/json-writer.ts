// /exec JSON: `{"query","columns","timestamp","dataset":[...],"count"[,"timings"][,"explain"]}` with
// QuestDB's fixed key order and compact form. Rows are rendered batch by batch into text chunks, so a
// large result streams with bounded memory.
import type { ColumnBatch, OutputColumn } from '../sql/compiler.js';
import type { CellFormatter } from './json-cells.js';
import { jsonCellFormatter } from './json-cells.js';
import { jsonString } from '../types/value-format.js';
import type { ValueType } from '../types/column-type.js';
import { typeDisplayName } from '../types/column-type.js';
import { arrayTypeDimCount, isArrayType } from '../types/double-array.js';

export interface JsonResultOptions {
  readonly query: string;
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;
  readonly skipMetadata: boolean;
  readonly quoteLargeNum: boolean;
}

export function columnsJson(columns: readonly OutputColumn[]): string {
  return `[${columns.map((column) => `{"name":${jsonString(column.name)},${columnTypeJson(column.type)}}`).join(',')}]`;
}

/** QuestDB describes an array column by its element type and dimension count instead of a type name. */
function columnTypeJson(type: ValueType): string {
  if (isArrayType(type)) return `"type":"ARRAY","dim":${arrayTypeDimCount(type)},"elemType":"DOUBLE"`;
  return `"type":"${typeDisplayName(type)}"`;
}

export class JsonResultWriter {
  private readonly formatters: CellFormatter[];
  private rowsWritten = 0;

  constructor(private readonly options: JsonResultOptions) {
    this.formatters = options.columns.map((column) => jsonCellFormatter(column.type, options.quoteLargeNum));
  }

  head(): string {
    if (this.options.skipMetadata) return '{"dataset":[';
    return `{"query":${jsonString(this.options.query)},"columns":${columnsJson(this.options.columns)},"timestamp":${this.options.timestampIndex},"dataset":[`;
  }

  /** Renders rows [from, to) of a batch. */
  rows(batch: ColumnBatch, from: number, to: number): string {
    const formatters = this.formatters;
    const vectors = batch.vectors;
    const width = formatters.length;
    let out = '';
    for (let row = from; row < to; row++) {
      out += this.rowsWritten === 0 ? '[' : ',[';
      for (let column = 0; column < width; column++) {
        if (column > 0) out += ',';
        out += formatters[column](vectors[column], row);
      }
      out += ']';
      this.rowsWritten++;
    }
    return out;
  }

  tail(count: number, timings?: { compiler: number; execute: number; count: number }, explain?: { jitCompiled: boolean }): string {
    let out = `],"count":${count}`;
    if (timings !== undefined) out += `,"timings":{"authentication":0,"compiler":${timings.compiler},"execute":${timings.execute},"count":${timings.count}}`;
    if (explain !== undefined) out += `,"explain":{"jitCompiled":${explain.jitCompiled}}`;
    return `${out}}`;
  }

  /** Closes a body whose rows were already streamed when an error happened (QuestDB's form, status stays 200). */
  errorTail(count: number, message: string, position: number): string {
    return `],"count":${count},"error":${jsonString(message)}, "errorPos":${position}}`;
  }
}
