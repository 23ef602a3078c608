// Calendar parts of a timestamp: year, month, day, hour, minute, second, millis, micros, day_of_week
// (Monday = 1), day_of_week_sunday_first, day_of_year, week_of_year (ISO), days_in_month, is_leap_year, and
// extract(part FROM ts). All INT except is_leap_year; DATE and timestamp text arguments are cast on the way in.
import type { ScalarFunctionDef } from './signature.js';
import type { BoundExpr } from '../bind/bound.js';
import { requireConstantText } from './constant-args.js';
import { sqlSemanticError } from '../../core/errors.js';

function part(name: string, helper: string): ScalarFunctionDef {
  return { name, args: ['TIMESTAMP'], returns: 'INT', emit: ([a]) => `rt.${helper}(${a})` };
}

/** Parts extract knows (PostgreSQL's names); anything else is "unsupported part". */
const EXTRACT_PARTS = new Set([
  'millennium', 'century', 'decade', 'year', 'isoyear', 'quarter', 'month', 'week', 'doy', 'day', 'dow', 'isodow',
  'hour', 'minute', 'second', 'milliseconds', 'microseconds', 'epoch',
]);

function prepareExtract(args: readonly BoundExpr[], position: number): string {
  const text = requireConstantText(args[0], position, 'part');
  const lower = text?.toLowerCase();
  if (lower === undefined || !EXTRACT_PARTS.has(lower)) throw sqlSemanticError(`unsupported part '${text ?? 'null'}'`, args[0]?.position ?? position);
  return lower;
}

export const DATE_PART_FUNCTIONS: readonly ScalarFunctionDef[] = [
  part('year', 'yearOf'),
  part('month', 'monthOf'),
  part('day', 'dayOf'),
  part('hour', 'hourOf'),
  part('minute', 'minuteOf'),
  part('second', 'secondOf'),
  part('millis', 'millisOf'),
  part('micros', 'microsOf'),
  part('day_of_week', 'dayOfWeekOf'),
  part('day_of_week_sunday_first', 'dayOfWeekSundayFirstOf'),
  part('day_of_year', 'dayOfYearOf'),
  part('week_of_year', 'weekOfYearOf'),
  part('days_in_month', 'daysInMonthOf'),
  { name: 'is_leap_year', args: ['TIMESTAMP'], returns: 'BOOLEAN', emit: ([a]) => `rt.isLeapYearOf(${a})` },
  {
    // epoch, milliseconds and microseconds are LONG in QuestDB; their values fit INT for years before 2038.
    name: 'extract', args: ['TEXT', 'TIMESTAMP'], returns: 'INT', prepare: prepareExtract,
    emit: ([, ts], constant, _types, prepared) => `rt.extractPart(${constant(prepared)}, ${ts})`,
  },
];
