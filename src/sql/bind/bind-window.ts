// SELECT lists with window functions (`f(...) OVER (...)`): each window call becomes a column appended by the
// window operator, evaluated after WHERE and before ORDER BY / LIMIT; the select list is then a projection over
// [input columns..., window results...]. Window calls are bound with a placeholder index (WINDOW_SLOT_BASE + k)
// because the input's width is known only when the scan is built; build() rewrites the placeholders.
import type { CallExpr, Expr, OrderItem, WindowFrame, FrameBound } from '../syntax/ast.js';
import type { BoundExpr, OutputColumn } from './bound.js';
import type { BindContext } from './bind-expression.js';
import { bindCast, bindExpression } from './bind-expression.js';
import type { BoundSource } from './bind-source.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { filterPlan, projectPlan, windowPlan } from '../plan/plan-builders.js';
import type { WindowCallPlan, WindowOrderKey, WindowSpecPlan } from '../plan/window-plan.js';
import { isWindowOnlyName, usesFrame, windowFunction } from './window-functions.js';
import { resolveWindowFrame } from './window-frame-binding.js';
import { exprText } from './expr-text.js';
import { childrenOf } from './expression-walk.js';
import { typeDisplayName } from '../../types/column-type.js';
import { sqlSemanticError } from '../../core/errors.js';

const WINDOW_SLOT_BASE = 0x40000000;

export interface WindowProjectedItem {
  readonly expr: Expr;
  readonly name: string;
  /** Star-expanded items name their scope column by index (a bare name may be ambiguous over a join). */
  readonly scopeIndex?: number;
}

/** The same contract bind-select's projection plans keep. */
export interface WindowProjectionPlan {
  readonly outputs: readonly OutputColumn[];
  addHidden(expr: Expr): number;
  build(predicate: BoundExpr | undefined): LogicalPlan;
}

export function containsWindow(expr: Expr): boolean {
  return firstWindowCall(expr) !== undefined;
}

/** The first call with OVER inside an expression (depth first), for error positions. */
export function firstWindowCall(expr: Expr): CallExpr | undefined {
  const children = childrenOf(expr);
  if (expr.kind === 'call' && expr.over !== undefined) return expr;
  for (const child of children) {
    const found = firstWindowCall(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Collects the window calls of one SELECT level: shared expressions, shared OVER clauses, one plan per call. */
class WindowCollector {
  readonly exprs: BoundExpr[] = [];
  readonly windows: WindowSpecPlan[] = [];
  readonly calls: WindowCallPlan[] = [];
  private readonly exprKeys = new Map<string, number>();
  private readonly windowKeys = new Map<string, number>();

  constructor(private readonly source: BoundSource) {}

  add(call: CallExpr): BoundExpr {
    const def = windowFunction(call.name);
    if (def === undefined) {
      const message = isWindowOnlyName(call.name) ? `window function is not supported: ${call.name}` : 'non-window function called in window context';
      throw sqlSemanticError(message, call.position);
    }
    const over = call.over;
    if (over === undefined) throw sqlSemanticError('window function called in non-window context, make sure to add OVER clause', call.position);
    if (call.distinct) throw sqlSemanticError('DISTINCT is not supported in window functions', call.position);
    const args = call.star ? [] : call.args;
    if (args.length < def.minArgs || args.length > def.maxArgs) {
      throw sqlSemanticError(`wrong number of arguments for function \`${call.name}\`; expected: ${def.maxArgs}, provided: ${args.length}`, call.position);
    }
    if (call.ignoreNulls && def.kind !== 'lag' && def.kind !== 'lead' && def.kind !== 'first_value' && def.kind !== 'last_value') {
      throw sqlSemanticError('RESPECT/IGNORE NULLS is not supported for current window function', call.position);
    }
    const context: BindContext = { scope: this.source.scope, clause: 'window function argument' };
    const value = args[0] === undefined ? undefined : bindExpression(args[0], context);
    const type = def.returns(value?.type);
    if (type === undefined) {
      throw sqlSemanticError(`unknown function name: ${call.name}(${value === undefined ? '' : typeDisplayName(value.type)})`, call.position);
    }
    // Kernels read sum/avg as DOUBLE and the other value functions in their result type.
    const readType = def.kind === 'sum' || def.kind === 'avg' ? 'DOUBLE' : type;
    const argIndex = value === undefined ? -1 : this.addBound(def.kind === 'count' ? value : castTo(value, readType), args[0], readType);
    const offset = def.kind === 'lag' || def.kind === 'lead' ? lagDistance(args[1]) : 0;
    const defaultIndex = args[2] === undefined ? -1 : this.addBound(castTo(bindExpression(args[2], context), type), args[2], type);
    const window = this.addWindow(over.partitionBy, over.orderBy);
    const spec = this.windows[window];
    const frame = resolveWindowFrame(over.frame, over.orderBy, this.orderIsDesignatedTimestamp(over.orderBy));
    const frameSuffix = over.frame === undefined || !usesFrame(def.kind) ? '' : ` ${frameTextOf(over.frame)}`;
    const text = `${call.name}(${call.star ? '*' : args.map(exprText).join(',')}) over (${spec.text}${frameSuffix})`;
    this.calls.push({ kind: def.kind, type, argIndex, defaultIndex, offset, ignoreNulls: call.ignoreNulls, window, frame, text });
    return { kind: 'column', type, index: WINDOW_SLOT_BASE + this.calls.length - 1, position: call.position };
  }

  private addBound(bound: BoundExpr, ast: Expr, type: string): number {
    const key = `${astKey(ast)}:${type}`;
    let index = this.exprKeys.get(key);
    if (index === undefined) {
      index = this.exprs.push(bound) - 1;
      this.exprKeys.set(key, index);
    }
    return index;
  }

  private addWindow(partitionBy: readonly Expr[], orderBy: readonly OrderItem[]): number {
    const key = JSON.stringify([partitionBy.map(astKey), orderBy.map((item) => [astKey(item.expr), item.descending, item.nulls ?? ''])]);
    const existing = this.windowKeys.get(key);
    if (existing !== undefined) return existing;
    const partitionContext: BindContext = { scope: this.source.scope, clause: 'PARTITION BY' };
    const orderContext: BindContext = { scope: this.source.scope, clause: 'ORDER BY' };
    const partition = partitionBy.map((expr) => this.addBound(bindExpression(expr, partitionContext), expr, 'key'));
    const order = orderBy.map((item): WindowOrderKey => {
      const exprIndex = this.addBound(bindExpression(item.expr, orderContext), item.expr, 'key');
      return item.nulls === undefined ? { exprIndex, descending: item.descending } : { exprIndex, descending: item.descending, nullsFirst: item.nulls === 'first' };
    });
    const parts: string[] = [];
    if (partitionBy.length > 0) parts.push(`partition by [${partitionBy.map(exprText).join(',')}]`);
    if (orderBy.length > 0) parts.push(`order by [${orderBy.map((item) => `${exprText(item.expr)}${item.descending ? ' desc' : ''}`).join(',')}]`);
    const index = this.windows.push({ partitionBy: partition, orderBy: order, text: parts.join(' ') }) - 1;
    this.windowKeys.set(key, index);
    return index;
  }

  /** RANGE offsets need the rows ordered by the designated timestamp (the only key svc measures distances on). */
  private orderIsDesignatedTimestamp(orderBy: readonly OrderItem[]): boolean {
    const first = orderBy[0];
    if (orderBy.length !== 1 || first === undefined || first.expr.kind !== 'column' || this.source.timestampIndex < 0) return false;
    const bound = bindExpression(first.expr, { scope: this.source.scope, clause: 'ORDER BY' });
    const scope = this.source.scope;
    return bound.kind === 'column' && bound.index === scope.slotOf(this.source.timestampIndex);
  }
}

function castTo(expr: BoundExpr, type: string): BoundExpr {
  return expr.type === type || expr.type === 'NULL' && type === 'LONG' ? expr : bindCast(expr, type, expr.position, expr.position);
}

/** lag/lead's second argument: a non-negative integer constant (default 1). */
function lagDistance(arg: Expr | undefined): number {
  if (arg === undefined) return 1;
  const value = arg.kind === 'literal' && (arg.literalType === 'INT' || arg.literalType === 'LONG') ? Number(arg.value) : NaN;
  if (!Number.isInteger(value) || value < 0) throw sqlSemanticError('offset must be a non-negative integer constant', arg.position);
  return value;
}

function frameTextOf(frame: WindowFrame): string {
  const bound = (b: FrameBound): string => {
    switch (b.kind) {
      case 'unboundedPreceding': return 'unbounded preceding';
      case 'unboundedFollowing': return 'unbounded following';
      case 'currentRow': return 'current row';
      default: return `${b.offset === undefined ? '' : exprText(b.offset)}${b.unit === undefined ? '' : ` ${b.unit.toLowerCase()}`} ${b.kind}`;
    }
  };
  return `${frame.mode} between ${bound(frame.start)} and ${bound(frame.end)}`;
}

/** Structural identity of an expression, ignoring positions (so `sum(x) over w` twice shares work). */
function astKey(expr: Expr): string {
  return JSON.stringify(expr, (key, value: unknown) => (key === 'position' ? undefined : typeof value === 'bigint' ? `${value}n` : value));
}

/** Rewrites window placeholders to the window operator's output columns, which follow `inputWidth` input columns. */
function resolvePlaceholders(expr: BoundExpr, inputWidth: number): BoundExpr {
  if (expr.kind === 'column') return expr.index >= WINDOW_SLOT_BASE ? { ...expr, index: expr.index - WINDOW_SLOT_BASE + inputWidth } : expr;
  if (expr.kind === 'call') return { ...expr, args: expr.args.map((arg) => resolvePlaceholders(arg, inputWidth)) };
  return expr;
}

export function planWindow(items: readonly WindowProjectedItem[], source: BoundSource): WindowProjectionPlan {
  const collector = new WindowCollector(source);
  const context: BindContext = { scope: source.scope, clause: 'SELECT', onWindow: (call) => collector.add(call) };
  const exprs: BoundExpr[] = items.map((item): BoundExpr => {
    if (item.scopeIndex === undefined) return bindExpression(item.expr, context);
    const type = source.scope.columns[item.scopeIndex]?.type ?? 'NULL';
    return { kind: 'column', type, index: source.scope.slotOf(item.scopeIndex), position: item.expr.position };
  });
  const names: string[] = items.map((item) => item.name);
  return {
    outputs: exprs.map((expr, k) => ({ name: names[k], type: expr.type })),
    addHidden(expr) {
      exprs.push(bindExpression(expr, context));
      names.push(`hidden${exprs.length}`);
      return exprs.length - 1;
    },
    build(predicate) {
      const base = source.build();
      const input = predicate === undefined ? base : filterPlan(base, predicate);
      const windowed = windowPlan(input, collector.exprs, collector.windows, collector.calls);
      const projected = exprs.map((expr) => resolvePlaceholders(expr, input.columns.length));
      const timestampSlot = source.timestampIndex >= 0 ? source.scope.slotOf(source.timestampIndex) : -1;
      const timestampIndex = projected.findIndex((expr) => expr.kind === 'column' && expr.index === timestampSlot && timestampSlot >= 0);
      return projectPlan(windowed, projected, names, timestampIndex);
    },
  };
}
