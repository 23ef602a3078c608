// Subqueries inside expressions: `x IN (SELECT ...)`, scalar `(SELECT ...)` and `[NOT] EXISTS (SELECT ...)`.
// The subquery runs once per execution, on first use by the compiled expression, and its values are kept for
// the rest of the run: IN tests a Set (NULL is a value, as QuestDB's `=` treats NULL = NULL), a scalar subquery
// reads the first row's value (NULL when there is no row), EXISTS whether there is a row. Subqueries are
// uncorrelated, as in QuestDB: a reference to an outer column is an unknown column of the subquery.
// PostgreSQL's `ARRAY(SELECT ...)` is the values in order, as the text PostgreSQL prints for an array (`{a,b}`),
// since svc has no array type for text.
import type { QueryFactory } from '../exec/operator.js';
import type { Vector } from '../exec/batch.js';
import type { BoundExpr } from './bound.js';
import type { ValueType } from '../../types/column-type.js';
import { isNumericType } from '../../types/column-type.js';
import { isTextType } from '../../types/casts.js';
import type { RuntimeHelpers } from '../codegen/runtime.js';
import { createExecContext, execContextOf } from '../exec/operator.js';
import { sqlSemanticError } from '../../core/errors.js';

type Runtime = RuntimeHelpers & { queryNow: number };

/** One value of a vector in the expression domain (the same reading emitColumnRead generates). */
function readValue(vector: Vector, row: number): unknown {
  const value = vector.data[row];
  switch (vector.type) {
    case 'INT': return value === -2147483648 ? NaN : value;
    case 'BOOLEAN': return value !== 0;
    case 'CHAR': return value === 0 ? null : String.fromCharCode(value as number);
    case 'IPV4': return value === 0 ? NaN : (value as number) >>> 0;
    case 'SYMBOL': return (value as number) < 0 ? null : (vector.symbols?.[value as number] ?? null);
    default: return value;
  }
}

export class SubqueryValues {
  private runtime: Runtime | undefined;
  private values: Set<unknown> = new Set();
  private first: unknown = null;
  private list: unknown[] = [];

  /** `firstOnly`: a scalar subquery needs its first row only, so it stops reading there. */
  constructor(private readonly factory: QueryFactory, private readonly nullValue: unknown = null, private readonly firstOnly = false) {}

  private load(rt: Runtime): void {
    if (this.runtime === rt) return;
    // The subquery is part of the statement: it stops with the statement's timeout or cancellation.
    const ctx = execContextOf(rt) ?? createExecContext(rt, { deadlineMs: Number.POSITIVE_INFINITY, cancelled: false }, 0);
    const cursor = this.factory.open(ctx);
    const values = new Set<unknown>();
    const list: unknown[] = [];
    let first: unknown = this.nullValue;
    let seen = false;
    try {
      for (let batch = cursor.nextBatch(); batch !== undefined && !(this.firstOnly && seen); batch = cursor.nextBatch()) {
        ctx.checkCancelled();
        const vector = batch.vectors[0];
        for (let row = 0; row < batch.rowCount; row++) {
          const value = readValue(vector, row);
          if (!seen) { first = value; seen = true; }
          values.add(value);
          list.push(value);
        }
      }
    } finally {
      cursor.close();
    }
    this.values = values;
    this.list = list;
    this.first = first;
    this.runtime = rt;
  }

  has(value: unknown, rt: Runtime): boolean {
    this.load(rt);
    return this.values.has(value);
  }

  scalar(rt: Runtime): unknown {
    this.load(rt);
    return this.first;
  }

  arrayText(rt: Runtime): string {
    this.load(rt);
    return `{${this.list.map(arrayElementText).join(',')}}`;
  }
}

/** An array element as PostgreSQL writes it: NULL bare, quoted when it holds a delimiter, quote, brace or space. */
function arrayElementText(value: unknown): string {
  if (value === null || (typeof value === 'number' && Number.isNaN(value))) return 'NULL';
  const text = String(value);
  return text === '' || /[{},"\\\s]/.test(text) || text.toUpperCase() === 'NULL' ? `"${text.replace(/["\\]/g, '\\$&')}"` : text;
}

function singleColumn(factory: QueryFactory, position: number): ValueType {
  if (factory.columns.length !== 1) throw sqlSemanticError('select must provide exactly one column', position);
  return (factory.columns[0] as { type: ValueType }).type;
}

function comparable(a: ValueType, b: ValueType): boolean {
  const temporal = (type: ValueType): boolean => isNumericType(type) || type === 'TIMESTAMP' || type === 'DATE';
  return a === b || a === 'NULL' || b === 'NULL' || (temporal(a) && temporal(b)) || ((isTextType(a) || a === 'SYMBOL') && (isTextType(b) || b === 'SYMBOL'));
}

export function bindInSubquery(operand: BoundExpr, factory: QueryFactory, position: number): BoundExpr {
  const type = singleColumn(factory, position);
  if (!comparable(operand.type, type)) throw sqlSemanticError(`cannot compare ${operand.type} with type ${type}`, position);
  const holder = new SubqueryValues(factory);
  return { kind: 'call', type: 'BOOLEAN', name: 'in', args: [operand], position, emit: ([arg], constant) => `${constant(holder)}.has(${arg}, rt)` };
}

/** `ARRAY(SELECT x ...)`: the subquery's values in order, as PostgreSQL's array text. */
export function bindArraySubquery(factory: QueryFactory, position: number): BoundExpr {
  singleColumn(factory, position);
  const holder = new SubqueryValues(factory);
  return { kind: 'call', type: 'VARCHAR', name: 'array', args: [], position, emit: (_args, constant) => `${constant(holder)}.arrayText(rt)` };
}

export function bindScalarSubquery(factory: QueryFactory, position: number): BoundExpr {
  const column = singleColumn(factory, position);
  const type: ValueType = column === 'SYMBOL' ? 'STRING' : column;
  const nullValue = type === 'BOOLEAN' ? false : isNumericType(type) || type === 'TIMESTAMP' || type === 'DATE' || type === 'IPV4' ? NaN : null;
  const holder = new SubqueryValues(factory, nullValue, true);
  return { kind: 'call', type, name: 'subquery', args: [], position, emit: (_args, constant) => `${constant(holder)}.scalar(rt)` };
}

/** Whether a subquery returns any row, computed once per execution (QuestDB's `exists(cursor)`). */
class SubqueryExistence {
  private runtime: Runtime | undefined;
  private found = false;

  constructor(private readonly factory: QueryFactory) {}

  exists(rt: Runtime): boolean {
    if (this.runtime === rt) return this.found;
    const ctx = execContextOf(rt) ?? createExecContext(rt, { deadlineMs: Number.POSITIVE_INFINITY, cancelled: false }, 0);
    const cursor = this.factory.open(ctx);
    let found = false;
    try {
      for (let batch = cursor.nextBatch(); batch !== undefined && !found; batch = cursor.nextBatch()) found = batch.rowCount > 0;
    } finally {
      cursor.close();
    }
    this.found = found;
    this.runtime = rt;
    return found;
  }
}

export function bindExistsSubquery(factory: QueryFactory, position: number): BoundExpr {
  const holder = new SubqueryExistence(factory);
  return { kind: 'call', type: 'BOOLEAN', name: 'exists', args: [], position, emit: (_args, constant) => `${constant(holder)}.exists(rt)` };
}
