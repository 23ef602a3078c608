// PostgreSQL's object-identifier casts that tools write: `x::oid`, `x::name`, and `::regclass` / `::regtype` /
// `::regnamespace`, which turn a name into its OID and an OID into its name. The name ↔ OID pairs come from the
// pg_catalog relations themselves (bound as a query through the binder's subquery hook) and are read once per
// execution. A name that names nothing casts to NULL; an OID that names nothing casts to its digits, as
// PostgreSQL prints it.
import type { BoundExpr } from './bound.js';
import type { QueryExpr } from '../syntax/ast.js';
import type { QueryFactory } from '../exec/operator.js';
import type { RuntimeHelpers } from '../codegen/runtime.js';
import { createExecContext, execContextOf } from '../exec/operator.js';
import { parseStatement } from '../syntax/parser.js';
import { isNumericType } from '../../types/column-type.js';
import { isTextType } from '../../types/casts.js';
import { assert } from '../../core/assert.js';
import { sqlSemanticError } from '../../core/errors.js';

type Runtime = RuntimeHelpers & { queryNow: number };

/** The catalog query giving (oid, name) pairs for each OID alias type. */
const LOOKUP_QUERIES: Readonly<Record<string, string>> = {
  REGCLASS: 'select oid, relname from pg_catalog.pg_class',
  REGTYPE: 'select oid, typname from pg_catalog.pg_type',
  REGNAMESPACE: 'select oid, nspname from pg_catalog.pg_namespace',
};

/** Type names that are another svc type under a PostgreSQL name. */
const PLAIN_ALIASES: Readonly<Record<string, string>> = { OID: 'INT', NAME: 'VARCHAR', REGPROC: 'VARCHAR', BPCHAR: 'VARCHAR' };

/** oid → name and lower-cased name → oid, loaded from a catalog query on first use in an execution. */
class CatalogNames {
  private runtime: Runtime | undefined;
  private names = new Map<number, string>();
  private oids = new Map<string, number>();

  constructor(private readonly factory: QueryFactory) {}

  private load(rt: Runtime): void {
    if (this.runtime === rt) return;
    const ctx = execContextOf(rt) ?? createExecContext(rt, { deadlineMs: Number.POSITIVE_INFINITY, cancelled: false }, 0);
    const cursor = this.factory.open(ctx);
    const names = new Map<number, string>();
    const oids = new Map<string, number>();
    try {
      for (let batch = cursor.nextBatch(); batch !== undefined; batch = cursor.nextBatch()) {
        const [oidVector, nameVector] = batch.vectors;
        assert(oidVector !== undefined && nameVector !== undefined, 'catalog lookups read two columns');
        for (let row = 0; row < batch.rowCount; row++) {
          const oid = Number(oidVector.data[row]);
          const name = String(nameVector.data[row]);
          names.set(oid, name);
          oids.set(name.toLowerCase(), oid);
        }
      }
    } finally {
      cursor.close();
    }
    this.names = names;
    this.oids = oids;
    this.runtime = rt;
  }

  nameOf(oid: number, rt: Runtime): string | null {
    if (Number.isNaN(oid)) return null;
    this.load(rt);
    return this.names.get(oid) ?? String(oid);
  }

  oidOf(name: string | null, rt: Runtime): number {
    if (name === null) return NaN;
    this.load(rt);
    // A quoted name keeps its case in PostgreSQL; svc's names are case-insensitive, so quotes only come off.
    const bare = name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1) : name;
    const unqualified = bare.replace(/^(pg_catalog|public)\./i, '');
    return this.oids.get(unqualified.toLowerCase()) ?? NaN;
  }
}

/** The svc type a PostgreSQL-only type name stands for in a cast, or undefined when the name is not one. */
export function pgCastAlias(typeName: string): string | undefined {
  return PLAIN_ALIASES[typeName];
}

/**
 * Binds `operand::regclass` (and regtype, regnamespace); undefined when `typeName` is not an OID alias type.
 * `bindQuery` binds the catalog query; without it (where subqueries are not allowed) the cast is refused.
 */
export function bindPgOidCast(operand: BoundExpr, typeName: string, position: number, bindQuery: ((query: QueryExpr) => QueryFactory) | undefined): BoundExpr | undefined {
  const text = LOOKUP_QUERIES[typeName];
  if (text === undefined) return undefined;
  if (bindQuery === undefined) throw sqlSemanticError(`${typeName.toLowerCase()} casts are not supported here`, position);
  const statement = parseStatement(text);
  assert(statement.kind === 'query', 'catalog lookups are queries');
  const names = new CatalogNames(bindQuery(statement.query));
  if (isTextType(operand.type) || operand.type === 'SYMBOL') {
    return { kind: 'call', type: 'INT', name: 'cast', args: [operand], position, emit: ([arg], constant) => `${constant(names)}.oidOf(${arg}, rt)` };
  }
  if (isNumericType(operand.type) || operand.type === 'NULL') {
    return { kind: 'call', type: 'VARCHAR', name: 'cast', args: [operand], position, emit: ([arg], constant) => `${constant(names)}.nameOf(${arg}, rt)` };
  }
  throw sqlSemanticError(`cannot cast ${operand.type} to ${typeName.toLowerCase()}`, position);
}
