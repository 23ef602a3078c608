// The chart view: draws chart-series.ts data with uPlot as lines or bars over time, sized to its container
// and redrawn when the container resizes. uPlot draws on a canvas, so thousands of points stay cheap.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartData, CHART_SERIES_MAX } from './chart-series.js';
import type { RowsResult } from './api.js';
import { element } from './format.js';

export type ChartKind = 'line' | 'bar';

/** A categorical palette with enough contrast on white for CHART_SERIES_MAX series (colours repeat after 12). */
const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22', '#7f7f7f', '#393b79', '#637939'];

const CHART_HEIGHT_MIN_PX = 200;

/**
 * Time-axis labels in 24-hour ISO order, as the database prints timestamps. Each row: smallest tick step in
 * seconds, the tick label, then the extra line shown when the year, month, day, hour, minute or second
 * changes between ticks, and 1 = show that extra line only on the first tick after the change (uPlot's format).
 */
const TIME_AXIS_VALUES: uPlot.Axis.TimeValuesConfig = [
  [3600 * 24 * 365, '{YYYY}', null, null, null, null, null, null, 1],
  [3600 * 24 * 28, '{YYYY}-{MM}', '\n{YYYY}', null, null, null, null, null, 1],
  [3600 * 24, '{MM}-{DD}', '\n{YYYY}', null, null, null, null, null, 1],
  [3600, '{HH}:{mm}', '\n{YYYY}-{MM}-{DD}', null, '\n{MM}-{DD}', null, null, null, 1],
  [60, '{HH}:{mm}', '\n{YYYY}-{MM}-{DD}', null, '\n{MM}-{DD}', null, null, null, 1],
  [1, '{HH}:{mm}:{ss}', '\n{YYYY}-{MM}-{DD}', null, '\n{MM}-{DD}', null, null, null, 1],
  [0.001, '{ss}.{fff}', '\n{YYYY}-{MM}-{DD} {HH}:{mm}', null, '\n{MM}-{DD} {HH}:{mm}', null, '\n{HH}:{mm}', null, 1],
];

export interface ChartView {
  /** Draws the result; returns false (and shows why) when it has no time column or no numeric column. */
  show(result: RowsResult, kind: ChartKind): boolean;
  clear(text: string): void;
}

function seriesOptions(label: string, index: number, kind: ChartKind): uPlot.Series {
  const color = PALETTE[index % PALETTE.length] ?? '#1f77b4';
  const bars = kind === 'bar' ? uPlot.paths.bars : undefined;
  return {
    label,
    stroke: color,
    width: kind === 'bar' ? 1 : 1.5,
    fill: kind === 'bar' ? `${color}99` : undefined,
    paths: bars === undefined ? undefined : bars({ size: [0.8, 64], align: 0 }),
    points: { show: false },
    spanGaps: false,
  };
}

export function createChartView(container: HTMLElement, note: HTMLElement): ChartView {
  let plot: uPlot | undefined;
  const size = (): { width: number; height: number } => ({
    width: Math.max(container.clientWidth, 300),
    height: Math.max(container.clientHeight - 40, CHART_HEIGHT_MIN_PX),
  });
  new ResizeObserver(() => plot?.setSize(size())).observe(container);

  const destroy = (): void => {
    plot?.destroy();
    plot = undefined;
  };

  return {
    show(result, kind) {
      destroy();
      const data = chartData(result);
      if (data === undefined || data.times.length === 0) {
        container.replaceChildren(element('p', 'chart-message', 'To chart a result, select a timestamp column and at least one numeric column.'));
        note.textContent = '';
        return false;
      }
      container.replaceChildren();
      const options: uPlot.Options = {
        ...size(),
        scales: { x: { time: true } },
        // The database stores and prints UTC; the axis says the same times rather than the browser's local ones.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        series: [{ label: data.timeColumn, value: '{YYYY}-{MM}-{DD} {HH}:{mm}:{ss}.{fff}' }, ...data.series.map((series, index) => seriesOptions(series.label, index, kind))],
        axes: [{ values: TIME_AXIS_VALUES }, {}],
        legend: { show: true },
        cursor: { drag: { x: true, y: false } },
      };
      plot = new uPlot(options, [data.times, ...data.series.map((series) => series.values)], container);
      note.textContent = data.droppedSeries > 0 ? `Showing the first ${CHART_SERIES_MAX} series; ${data.droppedSeries} more left out.` : '';
      return true;
    },
    clear(text) {
      destroy();
      container.replaceChildren(element('p', 'chart-message', text));
      note.textContent = '';
    },
  };
}
