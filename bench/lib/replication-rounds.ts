// The replication bench's rounds: what one on or off run measured, and the table of medians and spreads
// over the rounds. Ratios are taken per round (the on and off runs of one round ran back to back), then
// summarised, so a round on a busier machine moves one ratio, not every figure.

/** One run: rows/s, and CPU seconds of each process while it ingested the bodies (replica and store: until caught up). */
export interface RoundFigures {
  readonly rate: number;
  readonly primary: number;
  readonly workers: number;
  readonly replica: number;
  readonly store: number;
}

export interface RoundsReport {
  readonly off: readonly RoundFigures[];
  readonly on: readonly RoundFigures[];
  readonly rowCount: number;
  readonly rowsPerBody: number;
  readonly loadBefore: number;
  readonly loadAfter: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** "median (min–max)" with `digits` decimals. */
function spread(values: readonly number[], digits: number): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

function perMillion(report: RoundsReport, pick: (figures: RoundFigures) => number): (figures: RoundFigures) => number {
  return (figures) => (pick(figures) * 1e6) / report.rowCount;
}

function cpuRows(report: RoundsReport): string[] {
  const rows: [string, (figures: RoundFigures) => number][] = [
    ['primary process', (figures) => figures.primary],
    ['worker processes', (figures) => figures.workers],
    ['replica (primary + workers)', (figures) => figures.replica],
    ["Swift's daemons (upper bound: the store is shared)", (figures) => figures.store],
  ];
  return rows.map(([name, pick]) => `| CPU s per 1M rows, ${name}, off / on | ${spread(report.off.map(perMillion(report, pick)), 2)} / ${spread(report.on.map(perMillion(report, pick)), 2)} | |`);
}

export function printRounds(report: RoundsReport): void {
  const pairs = report.on.map((on, index) => ({ on, off: report.off[index] ?? on }));
  const primaryCpu = (figures: RoundFigures): number => figures.primary + figures.workers;
  const allCpu = (figures: RoundFigures): number => primaryCpu(figures) + figures.replica + figures.store;
  process.stdout.write([
    `\nReplication through Swift s3api, ${report.rowCount} rows in ILP bodies of ${report.rowsPerBody} rows, 2 senders, 1 worker per process;`
      + ` ${report.on.length} rounds alternating off-on / on-off, fresh servers each run; load average ${report.loadBefore.toFixed(1)} → ${report.loadAfter.toFixed(1)}.`,
    'Figures are median (min–max) over the rounds; ratios are per round, then summarised.',
    '| measure | value | goal |', '|---|---:|---|',
    `| ingest rate off / on, rows/s | ${spread(report.off.map((figures) => figures.rate), 0)} / ${spread(report.on.map((figures) => figures.rate), 0)} | |`,
    `| on ÷ off by wall clock (the store and a replica share the 2 cores) | ${spread(pairs.map((pair) => pair.on.rate / pair.off.rate), 2)} | ≥ 0.9 |`,
    ...cpuRows(report),
    `| off ÷ on by the primary's CPU (primary + workers) | ${spread(pairs.map((pair) => primaryCpu(pair.off) / primaryCpu(pair.on)), 2)} | ≥ 0.9 |`,
    `| off ÷ on by all CPU on the cores (primary, workers, replica, Swift) | ${spread(pairs.map((pair) => allCpu(pair.off) / allCpu(pair.on)), 2)} | |`,
  ].join('\n') + '\n');
}
