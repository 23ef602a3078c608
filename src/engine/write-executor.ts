// Executes one write statement in the primary: dispatch by kind, return the acknowledgement.
// Statements run one at a time (the primary is single-threaded), so each sees the previous one's commit.
import type { Statement } from '../sql/compiler.js';
import type { Engine } from './engine.js';
import type { WriteResult } from './writer-client.js';
import { executeInsert } from './insert-executor.js';
import { executeUpdate } from './update-executor.js';
import { executeAlterTable, executeCreateTable } from './ddl-executor.js';
import { sqlSemanticError } from '../core/errors.js';
import { catalogChannel } from '../core/diagnostics.js';
import { checkTableName } from './table-name.js';

export interface WriteOptions {
  readonly timeoutMs: number;
}

function resolveTable(engine: Engine, name: string, position: number): string {
  const stored = engine.catalog.resolveName(name);
  if (stored === undefined) throw sqlSemanticError(`table does not exist [table=${name}]`, position);
  return stored;
}

/** Runs a parsed write statement (parsed by the worker that received it). */
export function executeParsedWrite(engine: Engine, statement: Statement, options: WriteOptions): WriteResult {
  const result = executeStatement(engine, statement, options);
  if (result.kind === 'ddl' && catalogChannel.hasSubscribers) {
    catalogChannel.publish({ tables: engine.tableNames().map((name) => ({ name, rows: engine.writer(name)?.txn.rowCount ?? 0 })) });
  }
  return result;
}

function executeStatement(engine: Engine, statement: Statement, options: WriteOptions): WriteResult {
  const now = Date.now() * 1000;
  switch (statement.kind) {
    case 'insert': {
      const stored = resolveTable(engine, statement.table.name, statement.table.position);
      const writer = engine.writer(stored);
      if (writer === undefined) throw sqlSemanticError(`table does not exist [table=${statement.table.name}]`, statement.table.position);
      return { kind: 'insert', rows: executeInsert(statement, writer, engine.catalog, now, options.timeoutMs) };
    }
    case 'createTable': {
      const created = executeCreateTable(statement, engine);
      if (created.query !== undefined) {
        const insert = { kind: 'insert', position: statement.position, table: statement.table, query: statement.asSelect } as const;
        const writer = engine.writer(statement.table.name);
        if (writer !== undefined) executeInsert(insert, writer, engine.catalog, now, options.timeoutMs);
      }
      return { kind: 'ddl' };
    }
    case 'dropTable': {
      const names = statement.all ? engine.tableNames().map((name) => ({ name, position: statement.position })) : statement.tables;
      for (const name of names) {
        const stored = engine.catalog.resolveName(name.name);
        if (stored === undefined) {
          if (statement.ifExists) continue;
          throw sqlSemanticError(`table does not exist [table=${name.name}]`, name.position);
        }
        engine.dropTable(stored);
      }
      return { kind: 'ddl' };
    }
    case 'truncateTable':
      for (const name of statement.tables) {
        const stored = engine.catalog.resolveName(name.name);
        if (stored === undefined) {
          if (statement.ifExists) continue;
          throw sqlSemanticError(`table does not exist [table=${name.name}]`, name.position);
        }
        engine.writer(stored)?.truncate();
      }
      return { kind: 'ddl' };
    case 'renameTable': {
      const stored = resolveTable(engine, statement.from.name, statement.from.position);
      checkTableName(statement.to);
      if (engine.catalog.resolveName(statement.to.name) !== undefined) throw sqlSemanticError('table already exists', statement.to.position);
      engine.renameTable(stored, statement.to.name);
      return { kind: 'ddl' };
    }
    case 'alterTable':
      executeAlterTable(statement, engine, now);
      return { kind: 'ddl' };
    case 'noop':
      return { kind: 'ddl' };
    case 'update': {
      const stored = resolveTable(engine, statement.table.name, statement.table.position);
      const writer = engine.writer(stored);
      if (writer === undefined) throw sqlSemanticError(`table does not exist [table=${statement.table.name}]`, statement.table.position);
      return { kind: 'update', rows: executeUpdate(statement, engine, writer, now, options.timeoutMs) };
    }
    case 'copy':
      throw sqlSemanticError('COPY FROM STDIN is served by the PostgreSQL wire protocol only; over HTTP, use /imp', statement.position);
    default:
      throw sqlSemanticError('statement is not a write', statement.position);
  }
}
