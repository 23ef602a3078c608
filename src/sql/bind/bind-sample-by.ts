// SAMPLE BY planning: the select list splits into the bucket timestamp (the designated timestamp selected bare,
// which keeps its name), keys (other non-aggregate items) and aggregates. The plan is
// scan → WHERE (plus FROM/TO as timestamp bounds, so intervals prune partitions) → [ts, keys, arguments]
// → SampleBy → Fill (unless FILL(NONE)) → select list. Alignment, time zone, offset, FROM/TO and FILL values
// are validated here, with QuestDB's messages and positions.
import type { Expr, FillItem, SampleByClause, SelectQuery } from '../syntax/ast.js';
import type { BoundExpr } from './bound.js';
import type { BoundSource } from './bind-source.js';
import type { ProjectedItem, ProjectionPlan } from './select-items.js';
import { bindAggregation } from './select-items.js';
import { bindCast, bindExpression } from './bind-expression.js';
import { Scope } from './scope.js';
import type { AggregateSpec, FillMode, SamplerSpec } from '../plan/plan-specs.js';
import { filterPlan, projectPlan, samplePlan } from '../plan/plan-builders.js';
import { resolveTimeZone } from '../../types/time-zone-rules.js';
import { isTimeUnit } from '../../types/timestamp.js';
import { MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../../types/timestamp-calendar.js';
import { sqlSemanticError } from '../../core/errors.js';

const constantScope = new Scope([], false);

/**
 * The WHERE to bind for a SAMPLE BY query: FROM/TO become `ts >= from AND ts < to` conjuncts, because rows
 * outside the range never reach the output and the bounds let interval extraction prune the scan.
 */
export function sampleRangeWhere(query: SelectQuery, source: BoundSource): Expr | undefined {
  const clause = query.sampleBy;
  const column = source.scope.columns[source.timestampIndex];
  if (clause === undefined || column === undefined || (clause.from === undefined && clause.to === undefined)) return query.where;
  let where = query.where;
  const bound = (op: '>=' | '<', value: Expr): void => {
    const qualifier = column.qualifiers[0];
    const ts: Expr = { kind: 'column', position: value.position, name: column.name, ...(qualifier === undefined ? {} : { qualifier }) };
    const condition: Expr = { kind: 'binary', position: value.position, op, left: ts, right: value };
    where = where === undefined ? condition : { kind: 'binary', position: value.position, op: 'and', left: where, right: condition };
  };
  if (clause.from !== undefined) bound('>=', clause.from);
  if (clause.to !== undefined) bound('<', clause.to);
  return where;
}

export function planSampleBy(query: SelectQuery, clause: SampleByClause, items: readonly ProjectedItem[], source: BoundSource): ProjectionPlan {
  if (source.timestampIndex < 0) throw sqlSemanticError('base query does not provide designated TIMESTAMP column', query.position);
  const nanos = source.scope.columns[source.timestampIndex]?.type === 'TIMESTAMP_NS';
  const timestamp: BoundExpr = { kind: 'column', type: nanos ? 'TIMESTAMP_NS' : 'TIMESTAMP', index: source.scope.slotOf(source.timestampIndex), position: clause.position };
  const leadingIndexOf = (item: ProjectedItem): number => (isDesignatedTimestamp(item, source) ? 0 : -1);
  const timestampName = (source.scope.columns[source.timestampIndex] as { name: string }).name;
  const aggregation = bindAggregation(items, source, [timestamp], leadingIndexOf, { leadingNames: [timestampName] });
  const { pre, keyCount, specs } = aggregation;
  const post = [...aggregation.post];
  const sampler = bindSampler(clause);
  const from = clause.from === undefined ? undefined : bindTimestampConstant(clause.from);
  const to = clause.to === undefined ? undefined : bindTimestampConstant(clause.to);
  const selectedAggregates = specs.length;
  validateSampleBy(clause, keyCount, bindFills(clause, specs));
  const names = items.map((item) => item.name);
  const timestampOutput = items.findIndex((item) => leadingIndexOf(item) === 0);
  return {
    outputs: post.map((expr, k) => ({ name: names[k], type: expr.type })),
    addHidden(expr) {
      // ORDER BY the bucket timestamp, a key or an aggregate the select list does not show (TSBS's
      // `SELECT max(v) FROM t SAMPLE BY 1m ORDER BY timestamp DESC`): computed per bucket, then dropped.
      post.push(aggregation.bindOverGroups(expr, 'ORDER BY'));
      names.push(`hidden${post.length}`);
      return post.length - 1;
    },
    build(predicate) {
      const fills = withHiddenFills(bindFills(clause, specs.slice(0, selectedAggregates)), specs.length, clause);
      const base = source.build();
      // A table scan yields ascending timestamps, so bucket ends are found by binary search.
      const ordered = base.kind === 'scan';
      const filteredBase = predicate === undefined ? base : filterPlan(base, predicate);
      const input = projectPlan(filteredBase, pre, pre.map((_, k) => (k === 0 ? 'ts' : `p${k}`)), 0);
      const range = { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
      const sampled = samplePlan(input, { keyCount, aggregates: specs, sampler, fills, ordered, ...range });
      return projectPlan(sampled, post, names, timestampOutput);
    },
  };
}

function isDesignatedTimestamp(item: ProjectedItem, source: BoundSource): boolean {
  if (item.scopeIndex !== undefined) return item.scopeIndex === source.timestampIndex;
  if (item.expr.kind !== 'column') return false;
  return source.scope.find(item.expr.name, item.expr.qualifier, item.expr.position) === source.timestampIndex;
}

function bindSampler(clause: SampleByClause): SamplerSpec {
  const unit = clause.unit;
  if (!isTimeUnit(unit)) throw sqlSemanticError('unsupported SAMPLE BY unit for a microsecond timestamp', clause.unitPosition);
  if (!Number.isSafeInteger(clause.count) || clause.count < 1) throw sqlSemanticError('positive integer expected', clause.unitPosition);
  const alignFirstObservation = clause.align === 'firstObservation';
  const base = { count: clause.count, unit, alignFirstObservation, offsetMicros: clause.offset === undefined ? 0 : bindOffset(clause.offset) };
  if (clause.timeZone === undefined) return base;
  const name = textConstant(clause.timeZone);
  const timeZone = name === undefined ? undefined : resolveTimeZone(name);
  if (timeZone === undefined) throw sqlSemanticError(`invalid timezone: ${name ?? ''}`, clause.timeZone.position);
  return { ...base, timeZone };
}

function textConstant(expr: Expr): string | undefined {
  return expr.kind === 'literal' && typeof expr.value === 'string' ? expr.value : undefined;
}

/** WITH OFFSET '[+-]HH:mm' → µs. */
function bindOffset(expr: Expr): number {
  const text = textConstant(expr);
  const match = text === undefined ? null : /^([+-])?(\d{1,2}):(\d{2})$/.exec(text);
  if (match === null || Number(match[2]) > 23 || Number(match[3]) > 59) throw sqlSemanticError(`invalid offset: ${text ?? ''}`, expr.position);
  const micros = Number(match[2]) * MICROS_PER_HOUR + Number(match[3]) * MICROS_PER_MINUTE;
  return match[1] === '-' ? -micros : micros;
}

function bindTimestampConstant(expr: Expr): BoundExpr {
  const bound = bindExpression(expr, { scope: constantScope, clause: 'SAMPLE BY' });
  return bound.type === 'TIMESTAMP' ? bound : bindCast(bound, 'TIMESTAMP', expr.position, expr.position);
}

/** One fill mode per aggregate; undefined for FILL(NONE) or no FILL. Keywords apply to all when given once. */
function bindFills(clause: SampleByClause, specs: readonly AggregateSpec[]): FillMode[] | undefined {
  const items = clause.fill;
  if (items.length === 0 || items.every((item) => item.kind === 'none')) return undefined;
  const only = items[0];
  if (items.length === 1 && only.kind !== 'value') return specs.map(() => ({ kind: only.kind === 'none' ? 'null' : only.kind }));
  if (items.length < specs.length) {
    const last = items[items.length - 1];
    throw sqlSemanticError(`insufficient fill values for SAMPLE BY FILL: expected ${specs.length} values but only ${items.length} provided`, last.position);
  }
  return specs.map((spec, k): FillMode => {
    const item = items[k];
    if (item.kind !== 'value') return { kind: item.kind === 'none' ? 'null' : item.kind };
    const value = bindExpression(item.value, { scope: constantScope, clause: 'FILL' });
    return { kind: 'value', value: value.type === spec.resultType ? value : bindCast(value, spec.resultType, item.position, item.position) };
  });
}

/** Aggregates ORDER BY added fill like the selected ones under a single FILL keyword, else with null. */
function withHiddenFills(fills: FillMode[] | undefined, count: number, clause: SampleByClause): FillMode[] | undefined {
  if (fills === undefined || fills.length === count) return fills;
  const only = clause.fill.length === 1 ? clause.fill[0] : undefined;
  const extra: FillMode = only !== undefined && only.kind !== 'value' && only.kind !== 'none' ? { kind: only.kind } : { kind: 'null' };
  while (fills.length < count) fills.push(extra);
  return fills;
}

function validateSampleBy(clause: SampleByClause, keyCount: number, fills: readonly FillMode[] | undefined): void {
  const ranged = clause.from ?? clause.to;
  if (ranged !== undefined && keyCount > 0) throw sqlSemanticError('FROM-TO intervals are not supported for keyed SAMPLE BY queries', ranged.position);
  const linear = clause.fill.find((item) => item.kind === 'linear');
  if (linear === undefined || fills === undefined) return;
  if (keyCount > 0) throw sqlSemanticError('linear interpolation is not supported when using fill values for keyed sample by expression', linear.position);
  if (ranged !== undefined) throw sqlSemanticError('FILL(LINEAR) is not supported with FROM-TO', linear.position);
}
