// Structural helpers over expression ASTs used by the join, GROUP BY and ORDER BY binders: the children of
// a node, the column references inside it, a rebuilding map, and equality that ignores token positions.
// Subquery bodies are opaque: their names belong to their own scope.
import type { ColumnRefExpr, Expr } from '../syntax/ast.js';
import { assertNever } from '../../core/assert.js';

/** Direct sub-expressions of a node (window PARTITION BY / ORDER BY included, subqueries excluded). */
export function childrenOf(expr: Expr): readonly Expr[] {
  switch (expr.kind) {
    case 'literal': case 'column': case 'star': case 'subquery': case 'parameter': return [];
    case 'unary': return [expr.operand];
    case 'binary': return [expr.left, expr.right];
    case 'call': return expr.over === undefined ? expr.args : [...expr.args, ...expr.over.partitionBy, ...expr.over.orderBy.map((item) => item.expr)];
    case 'cast': return [expr.operand];
    case 'case': return [...(expr.subject === undefined ? [] : [expr.subject]), ...expr.whens.flatMap((w) => [w.when, w.then]), ...(expr.otherwise === undefined ? [] : [expr.otherwise])];
    case 'in': return [expr.operand, ...(expr.list ?? [])];
    case 'between': return [expr.operand, expr.low, expr.high];
    case 'isNull': return [expr.operand];
    case 'array': return expr.elements;
    case 'arrayIndex': return [expr.operand, ...expr.indexes];
    default: return assertNever(expr, 'expression');
  }
}

/** Column references in evaluation order; `skip` prunes subtrees (e.g. aggregate calls). */
export function collectColumnRefs(expr: Expr, skip?: (node: Expr) => boolean): ColumnRefExpr[] {
  const refs: ColumnRefExpr[] = [];
  const visit = (node: Expr): void => {
    if (skip?.(node) === true) return;
    if (node.kind === 'column') refs.push(node);
    for (const child of childrenOf(node)) visit(child);
  };
  visit(expr);
  return refs;
}

/** True when some node of the tree satisfies `test`. */
export function someNode(expr: Expr, test: (node: Expr) => boolean): boolean {
  return test(expr) || childrenOf(expr).some((child) => someNode(child, test));
}

/**
 * Rebuilds a tree top-down: `replace` may substitute a node (its subtree is then not visited); other nodes
 * are copied with mapped children. Window specifications are kept as written.
 */
export function mapExpr(expr: Expr, replace: (node: Expr) => Expr | undefined): Expr {
  const replaced = replace(expr);
  if (replaced !== undefined) return replaced;
  const map = (node: Expr): Expr => mapExpr(node, replace);
  switch (expr.kind) {
    case 'literal': case 'column': case 'star': case 'subquery': case 'parameter': return expr;
    case 'unary': return { ...expr, operand: map(expr.operand) };
    case 'binary': return { ...expr, left: map(expr.left), right: map(expr.right) };
    case 'call': return { ...expr, args: expr.args.map(map) };
    case 'cast': return { ...expr, operand: map(expr.operand) };
    case 'case': return {
      ...expr,
      ...(expr.subject === undefined ? {} : { subject: map(expr.subject) }),
      whens: expr.whens.map((w) => ({ when: map(w.when), then: map(w.then) })),
      ...(expr.otherwise === undefined ? {} : { otherwise: map(expr.otherwise) }),
    };
    case 'in': return { ...expr, operand: map(expr.operand), ...(expr.list === undefined ? {} : { list: expr.list.map(map) }) };
    case 'between': return { ...expr, operand: map(expr.operand), low: map(expr.low), high: map(expr.high) };
    case 'isNull': return { ...expr, operand: map(expr.operand) };
    case 'array': return { ...expr, elements: expr.elements.map(map) };
    case 'arrayIndex': return { ...expr, operand: map(expr.operand), indexes: expr.indexes.map(map) };
    default: return assertNever(expr, 'expression');
  }
}

/**
 * Structural equality ignoring positions and letter case of names. Column references are equal when
 * `sameColumn` says they name the same column (so `k` and `t.k` can match).
 */
export function sameExpr(a: Expr, b: Expr, sameColumn: (x: ColumnRefExpr, y: ColumnRefExpr) => boolean): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'column') return sameColumn(a, b as ColumnRefExpr);
  if (!sameNodeFields(a, b)) return false;
  const left = childrenOf(a);
  const right = childrenOf(b);
  return left.length === right.length && left.every((child, k) => sameExpr(child, right[k], sameColumn));
}

/** The fields of a node other than its children and positions. */
function sameNodeFields(a: Expr, b: Expr): boolean {
  switch (a.kind) {
    case 'literal': return b.kind === 'literal' && a.literalType === b.literalType && a.value === b.value;
    case 'unary': return b.kind === 'unary' && a.op === b.op;
    case 'binary': return b.kind === 'binary' && a.op === b.op;
    case 'call': return b.kind === 'call' && a.name.toLowerCase() === b.name.toLowerCase() && a.star === b.star && a.distinct === b.distinct && a.over === undefined && b.over === undefined;
    case 'cast': return b.kind === 'cast' && a.typeName === b.typeName;
    case 'case': return b.kind === 'case' && (a.subject === undefined) === (b.subject === undefined) && (a.otherwise === undefined) === (b.otherwise === undefined);
    case 'in': return b.kind === 'in' && a.negated === b.negated && a.subquery === undefined && b.subquery === undefined;
    case 'between': return b.kind === 'between' && a.negated === b.negated;
    case 'isNull': return b.kind === 'isNull' && a.negated === b.negated;
    case 'parameter': return b.kind === 'parameter' && a.index === b.index && a.value === b.value;
    case 'star': case 'subquery': return false;
    default: return true;
  }
}
