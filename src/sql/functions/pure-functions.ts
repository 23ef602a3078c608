// Function names whose result depends only on their arguments and the rows read: no clock, no random
// generator, no catalog, no session or principal. A compiled plan that calls only these may be reused for the
// same text over the same table versions (sql/plan-cache.ts). The list is an allowlist of families with their
// volatile definitions (clock, generators) taken out: a name with any volatile definition, or with one in the
// generator or catalog/session families, is left out, and a name the registry does not know (window functions,
// special forms) is not pure here either.
import type { AggregateFunctionDef, ScalarFunctionDef } from './signature.js';
import { ARITHMETIC_FUNCTIONS } from './arithmetic.js';
import { COMPARISON_FUNCTIONS } from './comparison.js';
import { LOGICAL_FUNCTIONS } from './logical.js';
import { STRING_FUNCTIONS } from './string.js';
import { DATE_FUNCTIONS } from './date.js';
import { MATH_FUNCTIONS } from './math.js';
import { MATH_MORE_FUNCTIONS } from './math-more.js';
import { STRING_MORE_FUNCTIONS } from './string-more.js';
import { REGEX_FUNCTIONS } from './regex.js';
import { CONDITIONAL_FUNCTIONS } from './conditional.js';
import { DATE_PART_FUNCTIONS } from './date-parts.js';
import { DATE_ARITH_FUNCTIONS } from './date-arith.js';
import { DATE_FORMAT_FUNCTIONS } from './date-format.js';
import { INTERVAL_FUNCTIONS } from './interval.js';
import { DECIMAL_FUNCTIONS } from './decimal.js';
import { RANDOM_FUNCTIONS } from './random.js';
import { POSTGRES_FUNCTIONS } from './postgres.js';
import { GEOHASH_FUNCTIONS } from './geohash.js';
import { LONG256_FUNCTIONS } from './long256.js';
import { ARRAY_FUNCTIONS } from './arrays.js';
import { DATE_TIMESTAMP_NS_FUNCTIONS } from './date-timestamp-ns.js';
import { BASIC_AGGREGATES } from './aggregate/basic.js';
import { STATS_AGGREGATES } from './aggregate/stats.js';
import { SELECTION_AGGREGATES } from './aggregate/selection.js';

const PURE_FAMILIES: readonly (readonly (ScalarFunctionDef | AggregateFunctionDef)[])[] = [
  ARITHMETIC_FUNCTIONS, COMPARISON_FUNCTIONS, LOGICAL_FUNCTIONS, STRING_FUNCTIONS, DATE_FUNCTIONS, MATH_FUNCTIONS,
  MATH_MORE_FUNCTIONS, STRING_MORE_FUNCTIONS, REGEX_FUNCTIONS, CONDITIONAL_FUNCTIONS, DATE_PART_FUNCTIONS,
  DATE_ARITH_FUNCTIONS, DATE_FORMAT_FUNCTIONS, INTERVAL_FUNCTIONS, DECIMAL_FUNCTIONS, DATE_TIMESTAMP_NS_FUNCTIONS,
  GEOHASH_FUNCTIONS, LONG256_FUNCTIONS, ARRAY_FUNCTIONS, BASIC_AGGREGATES, STATS_AGGREGATES, SELECTION_AGGREGATES,
];

/** Families of generators and of catalog and session functions (current_user, version(), pg_* …). */
const OTHER_FAMILIES: readonly (readonly ScalarFunctionDef[])[] = [RANDOM_FUNCTIONS, POSTGRES_FUNCTIONS];

function pureNames(): ReadonlySet<string> {
  const excluded = new Set<string>();
  for (const family of OTHER_FAMILIES) for (const def of family) excluded.add(def.name);
  const names = new Set<string>();
  for (const family of PURE_FAMILIES) {
    for (const def of family) {
      if ('volatile' in def && def.volatile === true) excluded.add(def.name);
      else names.add(def.name);
    }
  }
  for (const name of excluded) names.delete(name);
  return names;
}

const PURE_NAMES = pureNames();

/** Whether every definition of the function `name` (any case) is pure in the sense of this file's header. */
export function isPureFunctionName(name: string): boolean {
  return PURE_NAMES.has(name.toLowerCase());
}
