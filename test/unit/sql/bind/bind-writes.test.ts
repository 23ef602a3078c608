// Write statements bound in sql/bind/ for the engine: INSERT (VALUES evaluated into vectors, target columns),
// UPDATE (SET targets checked in QuestDB's order, WHERE and SET compiled) and the partition WHERE of ALTER TABLE;
// errors keep their texts and positions. No table files are needed: each binds against a TableMeta and an
// empty catalog.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import type { Expr, InsertStatement, Statement, UpdateStatement } from '../../../../src/sql/syntax/ast.js';
import { bindInsert } from '../../../../src/sql/bind/bind-insert.js';
import { bindUpdate } from '../../../../src/sql/bind/bind-update.js';
import { bindPartitionFilter } from '../../../../src/sql/bind/bind-ddl.js';
import { createRuntime } from '../../../../src/sql/codegen/runtime.js';
import { createSourceEnv } from '../../../../src/sql/compiler.js';
import { Catalog } from '../../../../src/storage/catalog.js';
import type { TableMeta } from '../../../../src/storage/table-meta.js';
import type { ColumnType } from '../../../../src/types/column-type.js';
import { SqlError } from '../../../../src/core/errors.js';

const NOW_MICROS = 1_700_000_000_000_000;

/** A table `t` of the given columns; the first TIMESTAMP column is the designated timestamp. */
function tableMeta(columns: Readonly<Record<string, ColumnType>>): TableMeta {
  const entries = Object.entries(columns);
  return {
    formatVersion: 1, tableId: 1, name: 't', timestampIndex: entries.findIndex(([, type]) => type === 'TIMESTAMP'),
    columns: entries.map(([name, type]) => ({ name, type, fileStem: name, indexed: false, symbolCapacity: 256 })),
    partitionBy: 'DAY', walEnabled: true, structureVersion: 0, maxUncommittedRows: 1000, o3MaxLagMs: 0, dedupKeys: [],
  };
}

function withEmptyCatalog(run: (catalog: Catalog) => void): void {
  const root = mkdtempSync(join(tmpdir(), 'svc-bind-writes-'));
  try {
    run(new Catalog(root));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function statementOf<K extends Statement['kind']>(text: string, kind: K): Extract<Statement, { kind: K }> {
  const statement = parseStatement(text);
  if (statement.kind !== kind) throw new Error(`expected ${kind}, parsed ${statement.kind}`);
  return statement as Extract<Statement, { kind: K }>;
}

const META = tableMeta({ ts: 'TIMESTAMP', price: 'DOUBLE', qty: 'INT', name: 'STRING' });

test('INSERT ... VALUES binds to target columns and one evaluated vector per target', (t) => withEmptyCatalog((catalog) => {
  const insert: InsertStatement = statementOf("insert into t (price, ts) values (1.5 * 2, '2024-01-01'), (null, 0)", 'insert');
  const bound = bindInsert(insert, META, createSourceEnv(catalog), NOW_MICROS);
  if (bound.kind !== 'insertValues') return t.fail(`bound as ${bound.kind}`);
  t.deepEqual(bound.targets, [1, 0]);
  t.is(bound.rowCount, 2);
  t.is(bound.position, 0);
  const prices = bound.vectors[0]?.data;
  t.true(prices instanceof Float64Array);
  t.deepEqual(prices instanceof Float64Array ? Array.from(prices) : [], [3, NaN]);
  t.is(bound.vectors[1]?.type, 'STRING');
}));

test('INSERT errors keep their texts and positions', (t) => withEmptyCatalog((catalog) => {
  const unknown = t.throws(() => bindInsert(statementOf('insert into t (nope) values (1)', 'insert'), META, createSourceEnv(catalog), NOW_MICROS), { instanceOf: SqlError });
  t.is(unknown?.message, 'Invalid column: nope');
  t.is(unknown?.position, 15);
  const count = t.throws(() => bindInsert(statementOf('insert into t (price, qty) values (1)', 'insert'), META, createSourceEnv(catalog), NOW_MICROS), { instanceOf: SqlError });
  t.is(count?.message, 'row value count does not match column count [expected=2, actual=1, tuple=1]');
  t.is(count?.position, 35);
  const missing = t.throws(() => bindInsert(statementOf('insert into t select * from missing', 'insert'), META, createSourceEnv(catalog), NOW_MICROS), { instanceOf: SqlError });
  t.is(missing?.message, 'table does not exist [table=missing]');
}));

test('UPDATE binds SET targets in QuestDB order and compiles WHERE and SET', (t) => withEmptyCatalog((catalog) => {
  const checked: string[] = [];
  const options = { nowMicros: NOW_MICROS, timeoutMs: 1000, checkAssignable: (from: string, to: string) => { checked.push(`${from}->${to}`); } };
  const update: UpdateStatement = statementOf('update t set qty = 7, price = price * 2 where qty > 1', 'update');
  const bound = bindUpdate(update, META, createSourceEnv(catalog), options);
  t.deepEqual(bound.assignments.map((assignment) => assignment.column), [2, 1]);
  t.deepEqual(checked, ['INT->INT', 'DOUBLE->DOUBLE']);
  t.is(bound.source, undefined);
  const rows = { rowCount: 3, vectors: [
    { type: 'TIMESTAMP' as const, data: new Float64Array(3) }, { type: 'DOUBLE' as const, data: Float64Array.of(1, 2, 3) },
    { type: 'INT' as const, data: Int32Array.of(0, 2, 5) }, { type: 'STRING' as const, data: [null, null, null] },
  ] };
  const selection = new Int32Array(3);
  t.is(bound.filter?.run(rows, createRuntime(NOW_MICROS), selection), 2);
  const designated = t.throws(() => bindUpdate(statementOf('update t set ts = 0', 'update'), META, createSourceEnv(catalog), options), { instanceOf: SqlError });
  t.is(designated?.message, 'Designated timestamp column cannot be updated');
  t.is(designated?.position, 13);
  const narrowing = t.throws(() => bindUpdate(statementOf('update t set qty = price', 'update'), META, createSourceEnv(catalog), options), { instanceOf: SqlError });
  t.is(narrowing?.message, 'inconvertible types: DOUBLE -> INT [from=, to=qty]');
  t.is(narrowing?.position, 19);
}));

test('a partition WHERE sees only the designated timestamp and must be boolean', (t) => {
  const whereOf = (text: string): Expr => {
    const select = statementOf(`select * from t where ${text}`, 'query').query;
    if (select.kind !== 'select' || select.where === undefined) throw new Error('a WHERE was parsed');
    return select.where;
  };
  const bound = bindPartitionFilter(whereOf("ts < '2024-01-03'"), META);
  t.is(bound.kind, 'partitionFilter');
  const starts = { rowCount: 3, vectors: [{ type: 'TIMESTAMP' as const, data: Float64Array.of(Date.UTC(2024, 0, 1) * 1000, Date.UTC(2024, 0, 2) * 1000, Date.UTC(2024, 0, 3) * 1000) }] };
  t.is(bound.filter.run(starts, createRuntime(NOW_MICROS), new Int32Array(3)), 2);
  t.like(t.throws(() => bindPartitionFilter(whereOf('price > 1'), META), { instanceOf: SqlError }), { message: 'Invalid column: price', position: 22 });
  t.like(t.throws(() => bindPartitionFilter(whereOf('ts'), META), { instanceOf: SqlError }), { message: 'boolean expression expected' });
  t.like(t.throws(() => bindPartitionFilter(whereOf('1 = 1'), tableMeta({ v: 'INT' })), { instanceOf: SqlError }), { message: 'table has no designated timestamp' });
});
