// EXPLAIN of write statements, in QuestDB's style: a header naming the operation and table, followed by the
// plan of the query the statement reads (INSERT ... SELECT, CREATE TABLE ... AS, UPDATE's WHERE scan).
// Queries and SHOW statements explain their own factories; DDL without a query has no plan to show.
import type { SelectQuery, Statement } from '../syntax/ast.js';
import type { SourceEnv } from './bind-source.js';

/** Plan lines of a write statement, or undefined when the statement is not one EXPLAIN describes this way. */
export function explainWriteLines(statement: Statement, env: SourceEnv): string[] | undefined {
  switch (statement.kind) {
    case 'insert': {
      const plan = statement.query === undefined ? [] : env.compileQuery(statement.query).explain(1);
      return [`Insert into table: ${statement.table.name}`, ...plan];
    }
    case 'createTable': {
      const plan = statement.asSelect === undefined ? [] : env.compileQuery(statement.asSelect).explain(1);
      return [`Create table: ${statement.table.name}`, ...plan];
    }
    case 'update': {
      if (statement.from !== undefined) return [`Update table: ${statement.table.name}`, '    Join'];
      // The rows UPDATE reads: its SET expressions over the table, filtered by WHERE.
      const query: SelectQuery = {
        kind: 'select', position: statement.position, with: [], distinct: false,
        columns: statement.assignments.map((assignment) => ({ expr: assignment.value, alias: assignment.column })),
        from: { kind: 'table', position: statement.table.position, name: statement.table.name, ...(statement.alias === undefined ? {} : { alias: statement.alias }) },
        ...(statement.where === undefined ? {} : { where: statement.where }),
        groupBy: [], orderBy: [],
      };
      return [`Update table: ${statement.table.name}`, ...env.compileQuery(query).explain(1)];
    }
    default:
      return undefined;
  }
}
