// The /imp response bodies, byte-compatible with QuestDB's TextImportProcessor: the fixed-width text table
// (default, fmt=tabular) and the compact JSON object (fmt=json), plus the request-level failure forms.
// Text cells are right-aligned and followed by two spaces and `|`; a value wider than its cell keeps its
// last characters behind "..."; every line ends CRLF.
import { assert } from '../core/assert.js';
import { importReportSize, typeDisplayName, type ColumnType } from '../types/column-type.js';
import type { ImportSummary } from './import-session.js';

export interface ImportReportColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly errors: number;
  /** An indexed SYMBOL column prints as "(idx/<indexValueBlockCapacity>) SYMBOL" in the text table. */
  readonly indexValueBlockCapacity?: number;
}

export interface ImportReport {
  /** The table name. */
  readonly location: string;
  /** NONE, HOUR, DAY, WEEK, MONTH or YEAR. */
  readonly partitionBy: string;
  /** The designated timestamp column, if any. */
  readonly timestamp?: string;
  readonly header: boolean;
  readonly rowsHandled: number;
  readonly rowsImported: number;
  readonly rowsRejected: number;
  readonly columns: ReadonlyArray<ImportReportColumn>;
  /** Appending kept the existing table's designated timestamp / partitioning instead of the requested one. */
  readonly timestampFromTable?: boolean;
  readonly partitionByFromTable?: boolean;
}

export type ImportReportFormat = 'tabular' | 'json';

/** Cell widths of QuestDB's table: index, name, pattern, locale, errors; the type cell spans pattern+locale. */
const COL1 = 15;
const COL2 = 50;
const COL3 = 15;
const COL4 = 7;
const COL5 = 12;
const SEPARATOR = `+${'-'.repeat(COL1 + COL2 + COL3 + COL4 + COL5 + 14)}+\r\n`;
const FROM_TABLE = 'From Table';

/** The report of a finished session, for the table the route wrote to. */
export function importReportFromSummary(summary: ImportSummary, target: { location: string; partitionBy: string; timestamp?: string }): ImportReport {
  return { ...target, header: summary.header, rowsHandled: summary.rowsHandled, rowsImported: summary.rowsImported,
    rowsRejected: summary.rowsRejected, columns: summary.columns };
}

function cell(width: number, value: string): string {
  const padding = width - value.length;
  const text = padding < 0 ? `...${value.substring(-padding + 3)}` : `${' '.repeat(padding)}${value}`;
  return `${text}  |`;
}

/** Numbers are padded but never cut, as QuestDB's numeric pad does. */
function numberCell(width: number, value: number): string {
  const text = String(value);
  return `${' '.repeat(Math.max(0, width - text.length))}${text}  |`;
}

function row(...cells: string[]): string {
  return `|${cells.join('')}\r\n`;
}

function assertCounts(report: ImportReport): void {
  // Only the shape is checked: the route may fold commit-time drops into rowsRejected after the session's count.
  assert(Number.isSafeInteger(report.rowsHandled) && Number.isSafeInteger(report.rowsImported)
    && Number.isSafeInteger(report.rowsRejected) && report.rowsImported >= 0 && report.rowsRejected >= 0, 'report counts are non-negative integers');
}

export function renderImportReportText(report: ImportReport): string {
  assertCounts(report);
  let out = SEPARATOR;
  out += row(cell(COL1, 'Location:'), cell(COL2, report.location), cell(COL3, 'Pattern'), cell(COL4, 'Locale'), cell(COL5, 'Errors'));
  out += row(cell(COL1, 'Partition by'), cell(COL2, report.partitionBy), cell(COL3, ''), cell(COL4, ''),
    cell(COL5, report.partitionByFromTable === true ? FROM_TABLE : ''));
  out += row(cell(COL1, 'Timestamp'), cell(COL2, report.timestamp ?? 'NONE'), cell(COL3, ''), cell(COL4, ''),
    cell(COL5, report.timestampFromTable === true ? FROM_TABLE : ''));
  out += SEPARATOR;
  out += row(cell(COL1, 'Rows handled'), numberCell(COL2, report.rowsHandled), cell(COL3, ''), cell(COL4, ''), cell(COL5, ''));
  out += row(cell(COL1, 'Rows imported'), numberCell(COL2, report.rowsImported), cell(COL3, ''), cell(COL4, ''), cell(COL5, ''));
  out += SEPARATOR;
  report.columns.forEach((column, index) => {
    const typeName = typeDisplayName(column.type);
    const typeText = column.indexValueBlockCapacity === undefined ? typeName : `(idx/${column.indexValueBlockCapacity}) ${typeName}`;
    out += row(numberCell(COL1, index), cell(COL2, column.name), cell(COL3 + COL4 + 3, typeText), numberCell(COL5, column.errors));
  });
  out += SEPARATOR;
  return out;
}

/** Compact JSON with QuestDB's key order; `timestamp` and `warnings` only when they apply. */
export function renderImportReportJson(report: ImportReport): string {
  assertCounts(report);
  let out = `{"status":"OK","location":${JSON.stringify(report.location)},"rowsRejected":${report.rowsRejected}`
    + `,"rowsImported":${report.rowsImported},"header":${report.header},"partitionBy":${JSON.stringify(report.partitionBy)},`;
  if (report.timestamp !== undefined) out += `"timestamp":${JSON.stringify(report.timestamp)},`;
  const warnings: string[] = [];
  if (report.timestampFromTable === true) warnings.push('Existing table timestamp column is used');
  if (report.partitionByFromTable === true) warnings.push('Existing table PartitionBy is used');
  if (warnings.length > 0) out += `"warnings":${JSON.stringify(warnings)},`;
  const columns = report.columns.map((c) => `{"name":${JSON.stringify(c.name)},"type":${JSON.stringify(typeDisplayName(c.type))}`
    + `,"size":${importReportSize(c.type)},"errors":${c.errors}}`);
  return `${out}"columns":[${columns.join(',')}]}`;
}

/**
 * A request-level failure: `<reason> [table=<name>]` as plain text (tabular) or `{"status":"…"}` (json).
 * The table suffix is added unless the message already names the table or no table is known yet.
 */
export function renderImportFailure(message: string, table: string | undefined, fmt: ImportReportFormat): string {
  const status = table === undefined || message.includes('table=') ? message : `${message} [table=${table}]`;
  return fmt === 'json' ? `{"status":${JSON.stringify(status)}}` : status;
}
