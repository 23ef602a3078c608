// Plan-time evaluation of a call over constants, for the constant-folding pass (optimize/constant-folding.ts,
// which may not import codegen: exec/plan-query.ts hands it this function). The call runs through the same
// compiled code a query would run, over one row, so a folded value is exactly the value each row would get.
import type { BoundCall, BoundConstant } from '../bind/bound.js';
import type { ValueType } from '../../types/column-type.js';
import { INT64_NULL } from '../../types/timestamp-ns.js';
import { compileProjection } from '../codegen/compile.js';
import { createRuntime } from '../codegen/runtime.js';
import { vectorValue } from './vector-value.js';
import { assert } from '../../core/assert.js';

/**
 * Result types a folded constant may take: numbers, times and booleans, whose expression-domain value is the
 * constant's value. Text, binary, decimal, nanosecond and array results stay calls.
 */
const FOLDED_TYPES: ReadonlySet<ValueType> = new Set<ValueType>(['BOOLEAN', 'BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'DATE', 'TIMESTAMP']);
const INT64_TYPES: ReadonlySet<ValueType> = new Set<ValueType>(['LONG', 'DATE', 'TIMESTAMP']);

/** The value of `call`, whose arguments are constants, as a constant; undefined when it is left to run. */
export function evaluateConstantCall(call: BoundCall): BoundConstant | undefined {
  assert(call.args.every((arg) => arg.kind === 'constant'), 'only calls over constants are evaluated at plan time');
  if (call.foldable !== true || !FOLDED_TYPES.has(call.type)) return undefined;
  let value: ReturnType<typeof vectorValue>;
  let exact: bigint | undefined;
  try {
    // queryNow is NaN: a foldable call never reads the clock.
    const [vector] = compileProjection([call]).run({ rowCount: 1, vectors: [] }, createRuntime(Number.NaN));
    if (vector === undefined) return undefined;
    value = vectorValue(vector, 0);
    exact = vector.exact?.[0];
  } catch {
    // A call that fails (an overflowing cast, a bad unit) fails when a row evaluates it, as written: the query may
    // never do so (a filter over no rows), and the error keeps its runtime form.
    return undefined;
  }
  const position = call.position;
  if (typeof value === 'boolean' && call.type === 'BOOLEAN') return { kind: 'constant', type: 'BOOLEAN', value, position };
  if (typeof value !== 'number' || call.type === 'BOOLEAN') return undefined;
  if (!INT64_TYPES.has(call.type) || Number.isNaN(value)) return { kind: 'constant', type: call.type, value, position };
  if (exact === INT64_NULL) return { kind: 'constant', type: call.type, value: Number.NaN, position };
  // A 64-bit result beyond 2^53 keeps its exact value, as a literal does (within it the number is exact, and
  // row-group pruning reads only such constants); one without it is left to the exact path at run time.
  const whole = exact === undefined ? value : Number(exact);
  if (Number.isSafeInteger(whole)) return { kind: 'constant', type: call.type, value: whole, position };
  return exact === undefined ? undefined : { kind: 'constant', type: call.type, value: whole, exact, position };
}
