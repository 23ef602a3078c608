// Recognises the statements whose work splits over row ranges of one table and merges back exactly: keyed or
// non-keyed aggregation (sum, count, min, max, avg; GROUP BY; SAMPLE BY aligned to calendar without FILL), and
// ORDER BY ... LIMIT n over a filtered scan. For those it builds the fragment statement each thread runs on its
// slice and the merge recipe; anything else (joins, subqueries, windows, DISTINCT, HAVING...) is undefined and
// runs on the calling thread as before. Pure: reads the AST and the compiled output columns only.
import type { CallExpr, Expr, LimitClause, OrderItem, SelectItem, SelectQuery, Statement } from '../syntax/ast.js';
import type { OutputColumn } from '../bind/bound.js';
import type { SortKey } from '../exec/sort.js';
import { someNode } from '../bind/expression-walk.js';
import { isAggregateName } from '../functions/registry.js';
import type { ValueType } from '../../types/column-type.js';

export type MergeOp = 'sum' | 'count' | 'min' | 'max' | 'avg';

export interface MergeAggregate {
  readonly op: MergeOp;
  /** Fragment column holding the partial value (the partial sum for avg). */
  readonly fragmentIndex: number;
  /** avg only: fragment column holding the partial count of non-null values; -1 otherwise. */
  readonly countIndex: number;
}

/** Where a final output column comes from: a group key column of the fragment, or a merged aggregate. */
export type OutputSource = { readonly kind: 'key'; readonly fragmentIndex: number } | { readonly kind: 'aggregate'; readonly aggregateIndex: number };

export interface LimitBounds {
  readonly lo: number;
  readonly hi: number | undefined;
}

export interface ParallelShape {
  /** aggregate: fragments return partial states per group; topK: fragments return their best rows. */
  readonly kind: 'aggregate' | 'topK';
  readonly tableName: string;
  readonly fragment: Statement;
  readonly keyIndexes: readonly number[];
  readonly aggregates: readonly MergeAggregate[];
  readonly outputs: readonly OutputSource[];
  /** ORDER BY over the final output columns, applied after the merge. */
  readonly sortKeys: readonly SortKey[];
  readonly limit: LimitBounds | undefined;
}

const MERGE_OPS: ReadonlySet<string> = new Set<MergeOp>(['sum', 'count', 'min', 'max', 'avg']);
/** Output types the merge reads and rebuilds exactly (no 64-bit exact values, no binary or array cells). */
const MERGEABLE_TYPES: ReadonlySet<ValueType> = new Set<ValueType>(['BOOLEAN', 'BYTE', 'SHORT', 'CHAR', 'INT', 'LONG', 'DATE', 'TIMESTAMP', 'FLOAT', 'DOUBLE', 'STRING', 'VARCHAR', 'SYMBOL']);
/** Functions whose value differs between two evaluations of one statement: never split. */
const VOLATILE_NAME = /^(rnd_|random|sys|now$|rowid)/i;
/** Prefix of the names given to partial-aggregate columns of a fragment (never a user's column name). */
const PARTIAL_ALIAS = '__parallel_partial_';

/**
 * The parallel plan of `statement`, whose compiled output columns are `columns`, or undefined when the statement
 * does not have a shape that splits exactly. `timestampColumnOf` names a table's designated timestamp column.
 */
export function parallelShapeOf(statement: Statement, columns: readonly OutputColumn[], timestampColumnOf: (table: string) => string | undefined): ParallelShape | undefined {
  if (statement.kind !== 'query' || statement.query.kind !== 'select') return undefined;
  const query = statement.query;
  if (!isSplittableSelect(query) || query.from?.kind !== 'table') return undefined;
  if (!columns.every((column) => MERGEABLE_TYPES.has(column.type))) return undefined;
  const sortKeys = resolveSortKeys(query.orderBy, columns);
  const limit = query.limit === undefined ? undefined : limitBounds(query.limit);
  if (sortKeys === undefined || limit === null) return undefined;
  const tableName = query.from.name;
  if (!query.columns.some((item) => containsAggregate(item.expr)) && query.groupBy.length === 0 && query.sampleBy === undefined) {
    // Top-k: each fragment keeps its own best rows; LIMIT n only (an offset would drop rows another slice needs).
    if (sortKeys.length === 0 || limit === undefined || limit.hi !== undefined || limit.lo < 0) return undefined;
    return { kind: 'topK', tableName, fragment: statement, keyIndexes: [], aggregates: [], outputs: [], sortKeys, limit };
  }
  // count(*) alone over the whole table is answered from _txn row counts: nothing to split.
  if (isMetadataCount(query)) return undefined;
  const plan = planAggregateFragment(query, columns.length, query.sampleBy === undefined ? undefined : timestampColumnOf(tableName));
  if (plan === undefined) return undefined;
  const fragmentQuery: SelectQuery = { ...query, columns: plan.items, orderBy: [], limit: undefined };
  return { kind: 'aggregate', tableName, fragment: { ...statement, query: fragmentQuery }, keyIndexes: plan.keyIndexes, aggregates: plan.aggregates, outputs: plan.outputs, sortKeys, limit };
}

function isSplittableSelect(query: SelectQuery): boolean {
  if (query.with.length > 0 || query.distinct || query.latestOn !== undefined || query.having !== undefined) return false;
  const from = query.from;
  if (from === undefined || from.kind !== 'table' || from.timestamp !== undefined || from.columnAliases !== undefined) return false;
  const sample = query.sampleBy;
  if (sample !== undefined) {
    if (sample.align !== 'calendar' || sample.from !== undefined || sample.to !== undefined || sample.timeZone !== undefined) return false;
    if (!sample.fill.every((item) => item.kind === 'none')) return false;
  }
  const expressions = [...query.columns.map((item) => item.expr), ...query.groupBy, ...query.orderBy.map((item) => item.expr), ...(query.where === undefined ? [] : [query.where])];
  return expressions.every((expr) => !someNode(expr, isUnsplittableNode));
}

function isMetadataCount(query: SelectQuery): boolean {
  if (query.where !== undefined || query.sampleBy !== undefined || query.groupBy.length > 0) return false;
  return query.columns.every((item) => item.expr.kind === 'call' && (item.expr.star || item.expr.args.length === 0) && item.expr.name.toLowerCase() === 'count');
}

function isUnsplittableNode(node: Expr): boolean {
  switch (node.kind) {
    case 'subquery': case 'parameter': return true;
    case 'in': return node.subquery !== undefined;
    case 'call': return node.over !== undefined || VOLATILE_NAME.test(node.name);
    default: return false;
  }
}

function containsAggregate(expr: Expr): boolean {
  return someNode(expr, (node) => node.kind === 'call' && node.over === undefined && isAggregateName(node.name));
}

interface AggregateFragmentPlan {
  readonly items: SelectItem[];
  readonly keyIndexes: number[];
  readonly aggregates: MergeAggregate[];
  readonly outputs: OutputSource[];
}

/** Fragment select list: keys as written, each aggregate as its partial (avg as sum plus a trailing count). */
function planAggregateFragment(query: SelectQuery, outputCount: number, timestampColumn: string | undefined): AggregateFragmentPlan | undefined {
  const starCount = query.columns.filter((item) => item.expr.kind === 'star').length;
  if (starCount > 0 || query.columns.length !== outputCount) return undefined;
  const items: SelectItem[] = [];
  const plan: AggregateFragmentPlan = { items, keyIndexes: [], aggregates: [], outputs: [] };
  const counts: SelectItem[] = [];
  for (const item of query.columns) {
    const expr = item.expr;
    if (!containsAggregate(expr)) {
      plan.keyIndexes.push(items.length);
      plan.outputs.push({ kind: 'key', fragmentIndex: items.length });
      items.push(item);
      continue;
    }
    const op = mergeOpOf(expr);
    if (op === undefined || expr.kind !== 'call') return undefined;
    const alias = { name: `${PARTIAL_ALIAS}${items.length}`, position: item.alias?.position ?? expr.position };
    const countIndex = op === 'avg' ? query.columns.length + counts.length : -1;
    if (op === 'avg') {
      counts.push({ expr: { ...expr, name: 'count' }, alias: { name: `${PARTIAL_ALIAS}count_${counts.length}`, position: alias.position } });
    }
    plan.outputs.push({ kind: 'aggregate', aggregateIndex: plan.aggregates.length });
    plan.aggregates.push({ op, fragmentIndex: items.length, countIndex });
    items.push({ expr: op === 'avg' ? { ...expr, name: 'sum' } : expr, alias });
  }
  items.push(...counts);
  if (!groupByUsesOnlyKeys(query, plan.keyIndexes)) return undefined;
  // SAMPLE BY groups by bucket: the bucket (the designated timestamp, selected as is) must be an output key, or
  // rows of different buckets would merge.
  if (query.sampleBy !== undefined && !plan.keyIndexes.some((index) => isColumnNamed(items[index]?.expr, timestampColumn))) return undefined;
  return plan;
}

function isColumnNamed(expr: Expr | undefined, name: string | undefined): boolean {
  return name !== undefined && expr?.kind === 'column' && expr.qualifier === undefined && expr.name.toLowerCase() === name.toLowerCase();
}

/** The merge operation of a whole select item that is one plain aggregate call, or undefined. */
function mergeOpOf(expr: Expr): MergeOp | undefined {
  if (expr.kind !== 'call' || expr.distinct || expr.over !== undefined || expr.ignoreNulls) return undefined;
  const name = expr.name.toLowerCase();
  if (!MERGE_OPS.has(name) || !isAggregateName(name)) return undefined;
  if (expr.args.some(containsAggregate)) return undefined;
  const call: CallExpr = expr;
  if (name === 'count') return call.star || call.args.length <= 1 ? 'count' : undefined;
  return call.args.length === 1 ? (name as MergeOp) : undefined;
}

/** GROUP BY may only name selected keys (a hidden key would split rows the merge cannot tell apart). */
function groupByUsesOnlyKeys(query: SelectQuery, keyIndexes: readonly number[]): boolean {
  const keyNames = new Set<string>();
  for (const index of keyIndexes) {
    const item = query.columns[index];
    if (item.alias !== undefined) keyNames.add(item.alias.name.toLowerCase());
    if (item.expr.kind === 'column') keyNames.add(item.expr.name.toLowerCase());
  }
  return query.groupBy.every((expr) => expr.kind === 'column' && expr.qualifier === undefined && keyNames.has(expr.name.toLowerCase()));
}

/** ORDER BY items as output column indexes (by output name or 1-based position); undefined if one is neither. */
function resolveSortKeys(items: readonly OrderItem[], columns: readonly OutputColumn[]): SortKey[] | undefined {
  const keys: SortKey[] = [];
  for (const item of items) {
    const index = outputIndexOf(item.expr, columns);
    if (index < 0) return undefined;
    keys.push({ index, descending: item.descending, ...(item.nulls === undefined ? {} : { nullsFirst: item.nulls === 'first' }) });
  }
  return keys;
}

function outputIndexOf(expr: Expr, columns: readonly OutputColumn[]): number {
  if (expr.kind === 'literal' && typeof expr.value === 'number' && Number.isInteger(expr.value)) {
    return expr.value >= 1 && expr.value <= columns.length ? expr.value - 1 : -1;
  }
  if (expr.kind !== 'column' || expr.qualifier !== undefined) return -1;
  const name = expr.name.toLowerCase();
  const matches = columns.flatMap((column, index) => (column.name.toLowerCase() === name ? [index] : []));
  return matches.length === 1 ? matches[0] : -1;
}

/** LIMIT bounds written as non-negative integer literals; null for any other form (kept single-threaded). */
function limitBounds(limit: LimitClause): LimitBounds | null {
  const lo = integerLiteral(limit.lo);
  const hi = limit.hi === undefined ? undefined : integerLiteral(limit.hi);
  if (lo === undefined || (limit.hi !== undefined && hi === undefined)) return null;
  return { lo, hi };
}

function integerLiteral(expr: Expr): number | undefined {
  if (expr.kind !== 'literal') return undefined;
  const value = typeof expr.value === 'bigint' ? Number(expr.value) : expr.value;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
