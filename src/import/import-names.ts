// Table and column names for an import: the spec's character-removal rule, QuestDB's generated names
// (`f0`, `f1`, … when there is no header) and de-duplication, which compares names case-insensitively
// because the catalog does.
import { ImportError } from '../core/errors.js';
import { isValidTableName } from '../core/table-names.js';

/**
 * Characters removed from imported names: whitespace, . ? , : \ / NUL ) ( + - * ~ %. The spec's list also
 * names `_`, but QuestDB keeps it (its own import tests show `col_a`), and clients depend on that.
 * QuestDB's normaliser also drops quotes, ASCII control characters and the byte-order mark; so do we.
 */
const REMOVED_CHARACTERS = /[\s.?,:\\/\0)(+\-*~%'"\x01-\x1f\x7f\ufeff]/gu;

/** Removes the forbidden characters; the caller decides what an empty result means. */
function stripNameCharacters(name: string): string {
  return name.replace(REMOVED_CHARACTERS, '');
}

/** The table name an upload writes to; a name with nothing left after cleaning, or too long, is a request error. */
export function sanitizeTableName(name: string): string {
  const cleaned = stripNameCharacters(name);
  if (!isValidTableName(cleaned)) throw new ImportError(`invalid table name [name=${name.slice(0, 256)}]`);
  return cleaned;
}

/** The `name` parameter is used as given (QuestDB does not clean it), so it must already be a valid table name. */
export function checkImportTableName(name: string): string {
  if (!isValidTableName(name)) throw new ImportError(`invalid table name [name=${name}]`);
  return name;
}

/**
 * A column name from a header cell. Like QuestDB, a name that starts with a digit gets a leading `_`
 * (added after cleaning). May return '' (caller generates).
 */
export function sanitizeColumnName(name: string): string {
  const cleaned = stripNameCharacters(name);
  return cleaned.length > 0 && cleaned.charCodeAt(0) >= 0x30 && cleaned.charCodeAt(0) <= 0x39 ? `_${cleaned}` : cleaned;
}

/** QuestDB's name for a column without a header cell. */
export function generatedColumnName(index: number): string {
  return `f${index}`;
}

/**
 * Final column names: header cells cleaned (or `f<i>` when absent/empty), then made unique. An empty cell's
 * generated name gets `_` appended until unique (QuestDB); a repeated header name gets `_2`, `_3`, … where
 * QuestDB would fail the import with "duplicate column name found".
 */
export function resolveColumnNames(headerCells: ReadonlyArray<string> | undefined, columnCount: number): string[] {
  const names: string[] = [];
  for (let i = 0; i < columnCount; i++) {
    const cell = headerCells !== undefined && i < headerCells.length ? sanitizeColumnName(headerCells[i]) : '';
    names.push(cell);
  }
  const taken = new Set<string>();
  for (const name of names) if (name.length > 0) taken.add(name.toLowerCase());
  const seen = new Set<string>();
  for (let i = 0; i < columnCount; i++) {
    let name = names[i];
    if (name.length === 0) {
      name = generatedColumnName(i);
      while (taken.has(name.toLowerCase()) || seen.has(name.toLowerCase())) name += '_';
    } else if (seen.has(name.toLowerCase())) {
      let suffix = 2;
      while (taken.has(`${name}_${suffix}`.toLowerCase()) || seen.has(`${name}_${suffix}`.toLowerCase())) suffix++;
      name = `${name}_${suffix}`;
    }
    seen.add(name.toLowerCase());
    names[i] = name;
  }
  return names;
}
