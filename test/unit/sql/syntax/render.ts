// Test helpers for the SQL parser: render expressions as compact S-expressions so expectations fit on one line,
// and pull the pieces of a parsed statement that a test looks at.
import type { Expr, FromSource, QueryExpr, SelectQuery, Statement, WindowSpec } from '../../../../src/sql/syntax/ast.js';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import { assertNever } from '../../../../src/core/assert.js';

export function renderExpr(e: Expr): string {
  switch (e.kind) {
    case 'literal': return e.text;
    case 'column': return e.qualifier === undefined ? e.name : `${e.qualifier}.${e.name}`;
    case 'star': return e.qualifier === undefined ? '*' : `${e.qualifier}.*`;
    case 'unary': return `(${e.op} ${renderExpr(e.operand)})`;
    case 'binary': return `(${e.op} ${renderExpr(e.left)} ${renderExpr(e.right)})`;
    case 'call': return renderCall(e);
    case 'cast': return `(${e.shorthand ? '::' : 'cast'} ${renderExpr(e.operand)} ${e.typeName})`;
    case 'case': {
      const subject = e.subject === undefined ? '' : ` ${renderExpr(e.subject)}`;
      const whens = e.whens.map((w) => ` (when ${renderExpr(w.when)} ${renderExpr(w.then)})`).join('');
      const otherwise = e.otherwise === undefined ? '' : ` (else ${renderExpr(e.otherwise)})`;
      return `(case${subject}${whens}${otherwise})`;
    }
    case 'in': {
      const target = e.subquery !== undefined ? 'subquery' : `[${(e.list ?? []).map(renderExpr).join(', ')}]`;
      return `(${e.negated ? 'not in' : 'in'} ${renderExpr(e.operand)} ${target})`;
    }
    case 'between':
      return `(${e.negated ? 'not between' : 'between'} ${renderExpr(e.operand)} ${renderExpr(e.low)} ${renderExpr(e.high)})`;
    case 'isNull': return `(${e.negated ? 'is not null' : 'is null'} ${renderExpr(e.operand)})`;
    case 'subquery': return '(subquery)';
    case 'array': return `[${e.elements.map(renderExpr).join(', ')}]`;
    case 'arrayIndex': return `(index ${renderExpr(e.operand)} [${e.indexes.map(renderExpr).join(', ')}])`;
    case 'parameter': return `$${e.index}`;
    default: return assertNever(e);
  }
}

function renderCall(e: Extract<Expr, { kind: 'call' }>): string {
  const args = e.star ? '*' : `${e.distinct ? 'distinct ' : ''}${e.args.map(renderExpr).join(', ')}`;
  const nulls = e.ignoreNulls ? ' ignore nulls' : '';
  return `${e.name}(${args})${nulls}${e.over === undefined ? '' : ` over ${renderWindow(e.over)}`}`;
}

function renderWindow(w: WindowSpec): string {
  const parts: string[] = [];
  if (w.partitionBy.length > 0) parts.push(`partition ${w.partitionBy.map(renderExpr).join(', ')}`);
  if (w.orderBy.length > 0) {
    parts.push(`order ${w.orderBy.map((o) => `${renderExpr(o.expr)}${o.descending ? ' desc' : ''}${o.nulls === undefined ? '' : ` nulls ${o.nulls}`}`).join(', ')}`);
  }
  if (w.frame !== undefined) {
    const bound = (b: typeof w.frame.start): string =>
      `${b.offset === undefined ? '' : `${renderExpr(b.offset)} `}${b.unit === undefined ? '' : `${b.unit} `}${b.kind}`;
    const exclude = w.frame.exclude === undefined ? '' : ` exclude ${w.frame.exclude}`;
    parts.push(`${w.frame.mode} ${bound(w.frame.start)}..${bound(w.frame.end)}${exclude}`);
  }
  return `(${parts.join('; ')})`;
}

export function renderSource(s: FromSource): string {
  switch (s.kind) {
    case 'table': return `${s.name}${s.alias === undefined ? '' : ` ${s.alias.name}`}${s.timestamp === undefined ? '' : ` ts(${s.timestamp.name})`}`;
    case 'subquerySource': return `(query)${s.alias === undefined ? '' : ` ${s.alias.name}`}${s.timestamp === undefined ? '' : ` ts(${s.timestamp.name})`}`;
    case 'functionSource': return `${renderExpr(s.call)}${s.alias === undefined ? '' : ` ${s.alias.name}`}`;
    case 'join': {
      const on = s.on === undefined ? '' : ` on ${renderExpr(s.on)}`;
      const using = s.using === undefined ? '' : ` using(${s.using.map((n) => n.name).join(', ')})`;
      const tolerance = s.tolerance === undefined ? '' : ` tolerance ${s.tolerance.value}${s.tolerance.unit}`;
      return `(${s.joinType} ${renderSource(s.left)} ${renderSource(s.right)}${on}${using}${tolerance})`;
    }
    default: return assertNever(s);
  }
}

export function parse(sql: string): Statement {
  return parseStatement(sql);
}

export function query(sql: string): QueryExpr {
  const statement = parseStatement(sql);
  if (statement.kind !== 'query') throw new Error(`not a query: ${sql}`);
  return statement.query;
}

export function select(sql: string): SelectQuery {
  const q = query(sql);
  if (q.kind !== 'select') throw new Error(`not a plain select: ${sql}`);
  return q;
}

/** The single select-list expression of `SELECT <text>`, rendered. */
export function expr(text: string): string {
  return renderExpr(select(`select ${text}`).columns[0].expr);
}

/** The error a statement raises, as `message @ position`. */
export function failure(sql: string): string {
  try {
    parseStatement(sql);
  } catch (error) {
    const e = error as { message: string; position?: number };
    return `${e.message} @ ${e.position ?? 'none'}`;
  }
  return 'parsed';
}

/** Replacer that lets JSON.stringify print bigint LONG constants. */
export function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}
