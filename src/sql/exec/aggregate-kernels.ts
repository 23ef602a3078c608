// Aggregate kernels by kind: the one place that maps an AggregateKind (functions/aggregate/*.ts) to the
// kernel class that computes it. Kernels live in exec/aggregates/, one family per file; each update loop is a
// standalone function over typed arrays (no closures, no allocation per row).
import type { ValueType } from '../../types/column-type.js';
import { isInt64Type } from '../../types/column-type.js';
import type { AggregateKind } from '../functions/signature.js';
import type { AggregateKernel } from './aggregates/aggregate-kernel.js';
import { CountDistinctKernel, CountKernel } from './aggregates/count-kernels.js';
import { CompensatedSumKernel, SumAvgKernel } from './aggregates/sum-kernels.js';
import { LongSumAvgKernel } from './aggregates/long-sum-kernels.js';
import { NumericMinMaxKernel, PickKernel, hasNumericMinMax } from './aggregates/pick-kernels.js';
import { NanosPickKernel } from './aggregates/nanos-pick-kernels.js';
import { Int64MinMaxKernel } from './aggregates/int64-min-max-kernel.js';
import { DeviationKernel } from './aggregates/stats-kernels.js';
import { PercentileKernel, StringAggKernel } from './aggregates/collect-kernels.js';
import { assert, assertNever } from '../../core/assert.js';
import { DecimalMinMaxKernel, DecimalSumAvgKernel } from './aggregates/decimal-kernels.js';
import { isDecimalType } from '../../types/decimal.js';

export type { AggregateKernel } from './aggregates/aggregate-kernel.js';
export { isNullAt } from './aggregates/aggregate-kernel.js';

/** `params` are the constant arguments after the first, validated at bind time by the definition. */
export function createKernel(kind: AggregateKind, argType: ValueType | undefined, resultType: ValueType, params: readonly unknown[] = []): AggregateKernel {
  if (argType !== undefined && isDecimalType(argType) && isDecimalType(resultType)) {
    if (kind === 'sum' || kind === 'avg') return new DecimalSumAvgKernel(resultType, kind === 'avg', kind, typeof params[0] === 'number' ? params[0] : 0);
    if (kind === 'min' || kind === 'max') return new DecimalMinMaxKernel(argType, kind === 'max');
  }
  switch (kind) {
    case 'count': return new CountKernel(false);
    case 'count_col': return new CountKernel(true);
    case 'count_distinct': return new CountDistinctKernel();
    case 'sum': return argType === 'LONG' ? new LongSumAvgKernel(false) : new SumAvgKernel(resultType, false);
    case 'avg': return argType === 'LONG' ? new LongSumAvgKernel(true) : new SumAvgKernel(resultType, true);
    case 'ksum': return new CompensatedSumKernel(false);
    case 'nsum': return new CompensatedSumKernel(true);
    case 'min': case 'max': {
      const type = argType ?? resultType;
      if (isInt64Type(type)) return new Int64MinMaxKernel(type, kind === 'max');
      return hasNumericMinMax(type) ? new NumericMinMaxKernel(type, kind === 'max') : new PickKernel(kind, type);
    }
    case 'first': case 'last': case 'first_not_null': case 'last_not_null':
      return (argType ?? resultType) === 'TIMESTAMP_NS' ? new NanosPickKernel(kind, 'TIMESTAMP_NS') : new PickKernel(kind, argType ?? resultType);
    case 'stddev_samp': case 'stddev_pop': case 'var_samp': case 'var_pop': return new DeviationKernel(kind);
    case 'string_agg': {
      assert(typeof params[0] === 'string', 'string_agg separators are validated as text constants at bind time');
      return new StringAggKernel(params[0]);
    }
    case 'approx_percentile': {
      assert(typeof params[0] === 'number', 'percentiles are validated as numeric constants at bind time');
      return new PercentileKernel(params[0]);
    }
    default: return assertNever(kind, 'aggregate kernel');
  }
}
