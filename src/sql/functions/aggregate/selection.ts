// Aggregates that select or combine input values as they are: first_not_null / last_not_null (input type),
// count_distinct (also reached as count(DISTINCT x); LONG, nulls not counted) and string_agg (VARCHAR,
// values joined with a constant separator in input order, nulls skipped).
import type { AggregateFunctionDef } from '../signature.js';
import type { ValueType } from '../../../types/column-type.js';
import type { BoundExpr } from '../../bind/bound.js';
import { sqlSemanticError } from '../../../core/errors.js';

const same = (types: readonly ValueType[]): ValueType => types[0] ?? 'DOUBLE';

function separatorParams(args: readonly BoundExpr[], position: number): readonly unknown[] {
  const separator = args[1];
  if (separator?.kind !== 'constant' || (typeof separator.value !== 'string' && separator.value !== null)) {
    throw sqlSemanticError('separator must be a constant', separator?.position ?? position);
  }
  return [separator.value ?? ''];
}

export const SELECTION_AGGREGATES: readonly AggregateFunctionDef[] = [
  { name: 'first_not_null', args: ['ANY'], returns: same, kind: 'first_not_null' },
  { name: 'last_not_null', args: ['ANY'], returns: same, kind: 'last_not_null' },
  { name: 'count_distinct', args: ['ANY'], returns: 'LONG', kind: 'count_distinct' },
  { name: 'string_agg', args: ['ANY', 'TEXT'], returns: 'VARCHAR', kind: 'string_agg', params: separatorParams },
];
