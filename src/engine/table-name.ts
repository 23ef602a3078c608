// Which table names may become directories under db/ (the rule itself is core/table-names.ts, shared with
// /imp and the catalog). Every statement that names a new table directory (CREATE TABLE, RENAME TABLE ... TO)
// checks here, so the error carries the name's position.
import type { Name } from '../sql/compiler.js';
import { sqlSemanticError } from '../core/errors.js';
import { isValidTableName } from '../core/table-names.js';

export function checkTableName(name: Name): void {
  if (!isValidTableName(name.name)) throw sqlSemanticError(`invalid table name [table=${name.name}]`, name.position);
}
