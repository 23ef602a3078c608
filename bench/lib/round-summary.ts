// Medians over a bench's alternated rounds. One round of a noisy measure cannot judge a change (ILP over 8 TCP
// connections spread by a factor of two between rounds of one build); the median and the range over several
// rounds of each build, printed side by side, can.
import { median } from './figures.js';

export interface RoundFigure {
  /** The measure with its build's name ("before: narrow rows, TCP 9009"): figures of one name are one series. */
  readonly measure: string;
  readonly value: number;
  /** The same run's reference (/imp rows/s), when the measure has one. */
  readonly reference?: number;
}

function spread(values: readonly number[], format: (value: number) => string): string {
  return `${format(median(values))} (${format(Math.min(...values))}-${format(Math.max(...values))})`;
}

const rowsPerSecond = (value: number): string => `${(value / 1e6).toFixed(2)}M`;
const ratio = (value: number): string => value.toFixed(2);

export class RoundFigures {
  private readonly series = new Map<string, { values: number[]; ratios: number[] }>();

  add(figure: RoundFigure): void {
    const series = this.series.get(figure.measure) ?? { values: [], ratios: [] };
    series.values.push(figure.value);
    if (figure.reference !== undefined && figure.reference > 0) series.ratios.push(figure.value / figure.reference);
    this.series.set(figure.measure, series);
  }

  /** A markdown table: per series in the order first seen, the median rows/s and ratio with their ranges. */
  summaryLines(): string[] {
    const lines = ['| measure | rounds | rows/s, median (range) | ÷ reference, median (range) |', '|---|---:|---:|---:|'];
    for (const [measure, series] of this.series) {
      lines.push(`| ${measure} | ${series.values.length} | ${spread(series.values, rowsPerSecond)} | ${series.ratios.length === 0 ? '' : spread(series.ratios, ratio)} |`);
    }
    return lines;
  }
}
