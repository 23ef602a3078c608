// The one rule for table names, shared by DDL, RENAME and /imp: a name becomes a directory under db/, so it
// may not climb out of it (`..`, `/`, `\`), hide (leading `.`), carry characters file systems refuse, or
// exceed what a file name can hold. The length bound is QuestDB's cairo.max.file.name.length.
export const tableNameLengthMax = 127;

const TABLE_NAME_FORBIDDEN = /[\u0000-\u001f/\\:*?"<>|~]|^\.|\.\.|^\s|\s$/;

export function isValidTableName(name: string): boolean {
  return name.length > 0 && name.length <= tableNameLengthMax && !TABLE_NAME_FORBIDDEN.test(name);
}

/** Column file stems are derived from column names; they are cut to this many characters to stay valid file names. */
export const columnStemLengthMax = 100;
