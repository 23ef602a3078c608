// Which table names may become directories under db/: no path separators, no leading dot (so neither `.`,
// `..` nor hidden staging names), no characters file systems or QuestDB refuse, at most 127 characters.
// Every statement that names a new table directory (CREATE TABLE, RENAME TABLE ... TO) checks here.
import type { Name } from '../sql/compiler.js';
import { sqlSemanticError } from '../core/errors.js';

const TABLE_NAME_FORBIDDEN = /[\u0000/\\:*?"<>|~]|^\.|\.\.|^\s|\s$/;
const TABLE_NAME_LENGTH_MAX = 127;

export function checkTableName(name: Name): void {
  if (name.name.length === 0 || TABLE_NAME_FORBIDDEN.test(name.name) || name.name.length > TABLE_NAME_LENGTH_MAX) {
    throw sqlSemanticError(`invalid table name [table=${name.name}]`, name.position);
  }
}
