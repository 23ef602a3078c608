// Finds the statement to run in an editor holding several: statements are separated by `;` outside string
// literals, quoted identifiers and comments. Returns document offsets so error positions map back into the
// editor (statement offset + the server's 0-based position).

export interface StatementRange {
  /** Offset of the statement's first non-blank character in the document. */
  readonly from: number;
  /** Offset just past its last non-blank character (the `;` excluded). */
  readonly to: number;
  readonly text: string;
}

/** Offsets of every `;` that ends a statement. */
export function statementSeparators(doc: string): number[] {
  const separators: number[] = [];
  let index = 0;
  while (index < doc.length) {
    const char = doc[index];
    const next = doc[index + 1];
    if (char === "'" || char === '"') {
      // A doubled quote inside a literal is an escaped quote, so scanning past both keeps us inside.
      index = doc.indexOf(char, index + 1);
      if (index < 0) break;
      index++;
    } else if (char === '-' && next === '-') {
      index = doc.indexOf('\n', index);
      if (index < 0) break;
    } else if (char === '/' && next === '*') {
      index = doc.indexOf('*/', index + 2);
      if (index < 0) break;
      index += 2;
    } else {
      if (char === ';') separators.push(index);
      index++;
    }
  }
  return separators;
}

function trimmedRange(doc: string, start: number, end: number): StatementRange {
  let from = start;
  let to = end;
  while (from < to && /\s/.test(doc.charAt(from))) from++;
  while (to > from && /\s/.test(doc.charAt(to - 1))) to--;
  return { from, to, text: doc.slice(from, to) };
}

/** Every statement of the document, blank ones dropped. */
export function splitStatements(doc: string): StatementRange[] {
  const bounds = [-1, ...statementSeparators(doc), doc.length];
  const ranges: StatementRange[] = [];
  for (let index = 0; index + 1 < bounds.length; index++) {
    const range = trimmedRange(doc, (bounds[index] ?? 0) + 1, bounds[index + 1] ?? doc.length);
    if (range.text !== '') ranges.push(range);
  }
  return ranges;
}

/**
 * The statement containing the cursor. A cursor in the blank space after a statement (typically right after
 * its `;`) belongs to that statement, as users run what they just typed; before the first statement it
 * belongs to the first one.
 */
export function statementAtCursor(doc: string, cursor: number): StatementRange | undefined {
  const ranges = splitStatements(doc);
  let chosen = ranges[0];
  for (const range of ranges) {
    if (range.from <= cursor) chosen = range;
  }
  return chosen;
}
