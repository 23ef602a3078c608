// Chart series from query results: one per numeric column, or one per symbol; a shared ascending time axis
// in seconds; nulls as gaps and absent samples as undefined (spanned).
import test from 'ava';
import { CHART_SERIES_MAX, chartData } from '../../../console/src/chart-series.js';
import type { Cell, RowsResult } from '../../../console/src/exec-answer.js';

function result(columns: Array<[string, string]>, dataset: Cell[][], timestampIndex = -1): RowsResult {
  return { kind: 'rows', columns: columns.map(([name, type]) => ({ name, type })), timestampIndex, dataset, count: dataset.length, timings: undefined };
}

const t0 = Date.UTC(2024, 0, 1) / 1000;

test('one series per numeric column over the designated timestamp', (t) => {
  const data = chartData(result([['ts', 'TIMESTAMP'], ['name', 'STRING'], ['price', 'DOUBLE'], ['qty', 'LONG']], [
    ['2024-01-01T00:00:00.000000Z', 'a', 1.5, 10],
    ['2024-01-01T00:01:00.000000Z', 'b', null, 20],
  ], 0));
  t.deepEqual(data, {
    timeColumn: 'ts',
    times: [t0, t0 + 60],
    series: [{ label: 'price', values: [1.5, null] }, { label: 'qty', values: [10, 20] }],
    droppedSeries: 0,
  });
});

test('a SYMBOL column splits the rows into one series per symbol on a shared, sorted time axis', (t) => {
  const data = chartData(result([['sym', 'SYMBOL'], ['ts', 'TIMESTAMP'], ['price', 'DOUBLE']], [
    ['B', '2024-01-01T00:01:00.000000Z', 2],
    ['A', '2024-01-01T00:00:00.000000Z', 1],
    ['A', '2024-01-01T00:02:00.000000Z', 3],
  ]));
  t.deepEqual(data?.times, [t0, t0 + 60, t0 + 120]);
  t.deepEqual(data?.series, [{ label: 'B', values: [undefined, 2, undefined] }, { label: 'A', values: [1, undefined, 3] }]);
});

test('with several numeric columns per symbol, labels name both', (t) => {
  const data = chartData(result([['ts', 'TIMESTAMP'], ['sym', 'SYMBOL'], ['bid', 'DOUBLE'], ['ask', 'DOUBLE']], [['2024-01-01T00:00:00.000000Z', 'X', 1, 2]]));
  t.deepEqual(data?.series.map((series) => series.label), ['X bid', 'X ask']);
});

test('microseconds are kept, so sub-millisecond points stay apart', (t) => {
  const data = chartData(result([['ts', 'TIMESTAMP'], ['v', 'INT']], [['2024-01-01T00:00:00.000001Z', 1], ['2024-01-01T00:00:00.000002Z', 2]]));
  t.is(data?.times.length, 2);
  t.true((data?.times[1] ?? 0) > (data?.times[0] ?? 0));
});

test('results without a time column or without numbers are not charted', (t) => {
  t.is(chartData(result([['x', 'LONG']], [[1]])), undefined);
  t.is(chartData(result([['ts', 'TIMESTAMP'], ['s', 'STRING']], [['2024-01-01T00:00:00.000000Z', 'a']])), undefined);
});

test('series past the cap are counted, not drawn', (t) => {
  const rows: Cell[][] = [];
  for (let index = 0; index < CHART_SERIES_MAX + 5; index++) rows.push(['2024-01-01T00:00:00.000000Z', `s${index}`, index]);
  const data = chartData(result([['ts', 'TIMESTAMP'], ['sym', 'SYMBOL'], ['v', 'DOUBLE']], rows));
  t.is(data?.series.length, CHART_SERIES_MAX);
  t.is(data?.droppedSeries, 5);
});
