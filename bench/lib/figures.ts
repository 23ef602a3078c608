// Timing helpers for benches: the median of values and of repeated runs, and a printed table of svc vs DuckDB figures.
/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export async function medianMs(runs: number, action: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const started = process.hrtime.bigint();
    await action();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

export interface FigureRow {
  readonly name: string;
  readonly svc: number;
  readonly duckdb: number;
  readonly unit: string;
  /** Goal for svc/duckdb (time) or duckdb/svc (rate) from the performance reference. */
  readonly goal?: string;
}

export function printFigures(title: string, rows: readonly FigureRow[]): void {
  const lines = [`\n${title}`, '| measure | svc | DuckDB | ratio svc/DuckDB | goal |', '|---|---:|---:|---:|---|'];
  for (const row of rows) {
    const ratio = row.duckdb === 0 ? NaN : row.svc / row.duckdb;
    lines.push(`| ${row.name} | ${row.svc.toFixed(1)} ${row.unit} | ${row.duckdb.toFixed(1)} ${row.unit} | ${ratio.toFixed(2)} | ${row.goal ?? ''} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
