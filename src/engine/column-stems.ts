// File-name stems of new columns, shared by every statement that adds columns (CREATE TABLE, ALTER TABLE ADD
// COLUMN, tables and columns the line protocol creates): a stem is a valid file name, unique in its table.
import { columnStemLengthMax } from '../core/table-names.js';

/** A stem derived from `name`, not in `taken` (lower-cased); it is added to `taken`. */
export function uniqueStem(name: string, taken: Set<string>): string {
  // Stems are file names: a 300-character column name is fine, a 300-character file name is not.
  const base = (name.replace(/[^A-Za-z0-9_$-]/g, '_') || 'col').slice(0, columnStemLengthMax);
  let stem = base;
  for (let k = 1; taken.has(stem.toLowerCase()); k++) stem = `${base}.${k}`;
  taken.add(stem.toLowerCase());
  return stem;
}
