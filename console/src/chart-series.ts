// Turns a result with a timestamp column into chart series: one per numeric column, or, when the result has a
// SYMBOL column, one per symbol value (and numeric column). Series share one ascending time axis in seconds
// (uPlot's unit). A null value draws a gap; a time at which a series has no row at all (another symbol's
// time) holds undefined, which uPlot spans, so per-symbol lines stay connected.
import type { Cell, Column, RowsResult } from './exec-answer.js';

/** Lines beyond this many are unreadable; the rest are dropped and the chart says so. */
export const CHART_SERIES_MAX = 24;

const NUMERIC_TYPES = new Set(['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE']);
const TIME_TYPES = new Set(['TIMESTAMP', 'DATE']);

export interface ChartSeries {
  readonly label: string;
  readonly values: (number | null | undefined)[];
}

export interface ChartData {
  readonly timeColumn: string;
  /** Seconds since the epoch, ascending, unique. */
  readonly times: number[];
  readonly series: ChartSeries[];
  /** Series left out beyond CHART_SERIES_MAX. */
  readonly droppedSeries: number;
}

export function timeColumnIndex(columns: readonly Column[], designated: number): number {
  if (designated >= 0 && TIME_TYPES.has(columns[designated]?.type ?? '')) return designated;
  return columns.findIndex((column) => TIME_TYPES.has(column.type));
}

/** ISO text (µs precision) or epoch numbers from the JSON answer → seconds; undefined for nulls. */
function seconds(cell: Cell): number | undefined {
  if (typeof cell === 'number') return cell / 1000;
  if (typeof cell !== 'string') return undefined;
  const millis = Date.parse(cell);
  if (Number.isNaN(millis)) return undefined;
  // Date.parse keeps milliseconds; add the microsecond digits back so sub-ms points stay distinct.
  const micros = /\.\d{3}(\d{3})/.exec(cell);
  return millis / 1000 + (micros === null ? 0 : Number(micros[1]) / 1e6);
}

function numeric(cell: Cell): number | null {
  if (typeof cell === 'number') return cell;
  if (typeof cell === 'string' && cell.trim() !== '') {
    const value = Number(cell);
    return Number.isFinite(value) ? value : null;
  }
  return null;
}

/** Returns undefined when the result has no time column or no numeric column to plot. */
export function chartData(result: RowsResult): ChartData | undefined {
  const timeIndex = timeColumnIndex(result.columns, result.timestampIndex);
  if (timeIndex < 0) return undefined;
  const valueIndexes = result.columns.flatMap((column, index) => (NUMERIC_TYPES.has(column.type) && index !== timeIndex ? [index] : []));
  if (valueIndexes.length === 0) return undefined;
  const symbolIndex = result.columns.findIndex((column) => column.type === 'SYMBOL');

  const rows = result.dataset.flatMap((row) => {
    const time = seconds(row[timeIndex] ?? null);
    return time === undefined ? [] : [{ time, row }];
  });
  const times = [...new Set(rows.map((entry) => entry.time))].sort((a, b) => a - b);
  const slot = new Map(times.map((time, index) => [time, index]));

  const byLabel = new Map<string, (number | null | undefined)[]>();
  const dropped = new Set<string>();
  for (const { time, row } of rows) {
    const prefix = symbolIndex < 0 ? '' : `${String(row[symbolIndex] ?? 'null')}`;
    for (const valueIndex of valueIndexes) {
      const name = result.columns[valueIndex]?.name ?? '';
      const label = prefix === '' ? name : valueIndexes.length === 1 ? prefix : `${prefix} ${name}`;
      let values = byLabel.get(label);
      if (values === undefined) {
        if (byLabel.size >= CHART_SERIES_MAX) {
          dropped.add(label);
          continue;
        }
        values = new Array<number | null | undefined>(times.length).fill(undefined);
        byLabel.set(label, values);
      }
      values[slot.get(time) ?? 0] = numeric(row[valueIndex] ?? null);
    }
  }
  const series = [...byLabel].map(([label, values]) => ({ label, values }));
  return { timeColumn: result.columns[timeIndex]?.name ?? '', times, series, droppedSeries: dropped.size };
}
