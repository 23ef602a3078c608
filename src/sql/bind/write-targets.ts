// The tables a write or maintenance statement acts on must exist: checked against the catalog when a statement
// is validated without running (/api/v1/sql/validate), and before VACUUM TABLE / REINDEX TABLE are acknowledged,
// since they do nothing else. The primary checks again when it runs a write: the catalog here may be a moment old.
import type { Name, Statement } from '../syntax/ast.js';
import type { Catalog } from '../../storage/catalog.js';
import { tableDoesNotExistError } from '../../core/errors.js';
import { assertNever } from '../../core/assert.js';

/** Throws QuestDB's `table does not exist [table=t]` at the first named table the catalog does not hold. */
export function checkWriteTargets(statement: Statement, catalog: Catalog): void {
  for (const name of checkWriteTargetsNames(statement)) {
    if (catalog.resolveName(name.name) === undefined) throw tableDoesNotExistError(name.name, name.position);
  }
}

/** Tables that must already exist for the statement to make sense, in text order. */
function checkWriteTargetsNames(statement: Statement): readonly Name[] {
  switch (statement.kind) {
    case 'alterTable': case 'insert': case 'update': case 'copy': return [statement.table];
    case 'renameTable': return [statement.from];
    case 'dropTable': return statement.ifExists || statement.all ? [] : statement.tables;
    case 'truncateTable': return statement.ifExists ? [] : statement.tables;
    case 'createTable': return statement.like === undefined ? [] : [statement.like];
    case 'noop': return statement.table === undefined ? [] : [statement.table];
    case 'query': case 'show': case 'explain': case 'serviceAccount': return [];
    default: return assertNever(statement);
  }
}
