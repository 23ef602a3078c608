// The replication bench's rounds: what one on or off run measured, and the table of medians and spreads
// over the rounds. Ratios are taken per round (the runs of one round ran back to back), then summarised, so a
// round on a busier machine moves one ratio, not every figure. Two kinds of on run are reported side by
// side: everything at equal priority on the shared cores, and the replica and store at the lowest priority
// (a model of their own machines); neither replaces the other.
import type { StoreRequestCounts } from './store-requests.js';
import { median } from './figures.js';

/** One run: rows/s, and CPU seconds of each process while it ingested the bodies (replica and store: until caught up). */
export interface RoundFigures {
  readonly rate: number;
  readonly primary: number;
  /** Of `primary`, its main thread's. */
  readonly primaryMain: number;
  /** Of `primary`, its segment encoder thread's (at low priority). */
  readonly primaryEncoder: number;
  readonly workers: number;
  readonly replica: number;
  readonly store: number;
  /** On runs: the store's requests for the run's root, by kind. */
  readonly requests: StoreRequestCounts;
  /** On runs: body bytes the store received for the run's root (uploaded segments and lease writes). */
  readonly receivedBytes: number;
}

export interface RoundsReport {
  readonly off: readonly RoundFigures[];
  readonly on: readonly RoundFigures[];
  /** On runs with the replica and the store's daemons at the lowest CPU priority. */
  readonly onLow: readonly RoundFigures[];
  readonly rowCount: number;
  readonly rowsPerBody: number;
  readonly loadBefore: number;
  readonly loadAfter: number;
}

/** "median (min–max)" with `digits` decimals. */
function spread(values: readonly number[], digits: number): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

function perMillion(report: RoundsReport, pick: (figures: RoundFigures) => number): (figures: RoundFigures) => number {
  return (figures) => (pick(figures) * 1e6) / report.rowCount;
}

/** The two kinds of on run: their key in the report, their short name, and what each models. */
const ON_KINDS = [
  ['on', 'equal priority', 'replica and Swift compete with the primary for the 2 cores'],
  ['onLow', 'low priority', 'replica and Swift at lowest priority: models them on machines of their own'],
] as const;

function cpuRows(report: RoundsReport): string[] {
  const rows: [string, (figures: RoundFigures) => number][] = [
    ['primary process', (figures) => figures.primary],
    ["primary's main thread (of the above)", (figures) => figures.primaryMain],
    ["primary's encoder thread, low priority (of the above)", (figures) => figures.primaryEncoder],
    ["primary's other threads: GC, compiler, libuv (of the above)", (figures) => figures.primary - figures.primaryMain - figures.primaryEncoder],
    ['worker processes', (figures) => figures.workers],
    ['replica (primary + workers)', (figures) => figures.replica],
    ["Swift's daemons (upper bound: the store is shared)", (figures) => figures.store],
  ];
  return rows.map(([name, pick]) => `| CPU s per 1M rows, ${name}, off / on / on low priority | ${[report.off, report.on, report.onLow].map((runs) => spread(runs.map(perMillion(report, pick)), 2)).join(' / ')} | |`);
}

/** Median requests per 1M rows by kind over the on runs of both kinds. */
function requestRows(report: RoundsReport): string[] {
  const runs = [...report.on, ...report.onLow];
  const kinds = [...new Set(runs.flatMap((figures) => [...figures.requests.keys()]))].sort();
  if (kinds.length === 0) return ["| store requests per 1M rows | (no Swift access log found) | |"];
  const perRun = (kind: string) => runs.map((figures) => ((figures.requests.get(kind) ?? 0) * 1e6) / report.rowCount);
  const megabytes = runs.map((figures) => figures.receivedBytes / report.rowCount);
  return [
    ...kinds.map((kind) => `| store requests per 1M rows, ${kind} | ${spread(perRun(kind), 0)} | |`),
    `| MB the store received per 1M rows (uploads) | ${spread(megabytes, 2)} | |`,
  ];
}

/** "median (min–max); per round: a, b, c" of per-round values. */
function spreadWithRounds(values: readonly number[]): string {
  return `${spread(values, 2)}; per round ${values.map((value) => value.toFixed(2)).join(', ')}`;
}

function ratioRows(report: RoundsReport): string[] {
  const primaryMachineCpu = (figures: RoundFigures): number => figures.primary + figures.workers;
  const allCpu = (figures: RoundFigures): number => primaryMachineCpu(figures) + figures.replica + figures.store;
  return ON_KINDS.flatMap(([key, name, model]) => {
    const pairs = report[key].map((on, index) => ({ on, off: report.off[index] ?? on }));
    return [
      `| measured: on ÷ off by wall clock, ${name}: ${model} | ${spreadWithRounds(pairs.map((pair) => pair.on.rate / pair.off.rate))} | ≥ 0.9 |`,
      `| estimate for replica and store on other machines: off ÷ on of the primary machine's CPU per 1M rows (primary + workers), ${name} runs | ${spreadWithRounds(pairs.map((pair) => primaryMachineCpu(pair.off) / primaryMachineCpu(pair.on)))} | ≥ 0.9 |`,
      `| off ÷ on by all CPU on the cores (primary, workers, replica, Swift), ${name} | ${spreadWithRounds(pairs.map((pair) => allCpu(pair.off) / allCpu(pair.on)))} | |`,
    ];
  });
}

export function printRounds(report: RoundsReport): void {
  process.stdout.write([
    `\nReplication through Swift s3api, ${report.rowCount} rows in ILP bodies of ${report.rowsPerBody} rows, 2 senders, 1 worker per process;`
      + ` ${report.on.length} rounds alternating off, on, on at low priority / the reverse, fresh servers each run; load average ${report.loadBefore.toFixed(1)} → ${report.loadAfter.toFixed(1)}.`,
    'Figures are median (min–max) over the rounds; ratios are per round, then summarised. The CPU-based ratio is an estimate of the rate'
      + " ratio where only the primary's machine does the ingest's work (it assumes that machine is CPU-bound); the wall-clock one is measured here."
      + ' "on" runs every process at equal priority on this'
      + " machine's 2 cores; \"on low priority\" runs the replica and Swift's daemons at the lowest CPU priority, a model of the deployment where"
      + ' they have machines of their own (their CPU is still counted below).',
    '| measure | value | goal |', '|---|---:|---|',
    `| ingest rate off / on / on low priority, rows/s | ${[report.off, report.on, report.onLow].map((runs) => spread(runs.map((figures) => figures.rate), 0)).join(' / ')} | |`,
    ...ratioRows(report),
    ...cpuRows(report),
    ...requestRows(report),
  ].join('\n') + '\n');
}
