// Parses .slt files: records separated by blank lines.
//   statement ok            → the SQL must succeed
//   statement error         → the SQL must fail; after `----`: `<message>` and optionally ` @<position>`
//   query                   → the SQL must return exactly the rows after `----`, one JSON array per line;
//                             an optional first line `columns: name TYPE, name TYPE` checks the result columns
// Lines starting with `#` are comments. SQL may span several lines.
import { parseJsonExactIntegers } from './exact-json.js';

export type SltRecord =
  | { readonly kind: 'ok'; readonly sql: string; readonly line: number }
  | { readonly kind: 'error'; readonly sql: string; readonly message: string; readonly position?: number; readonly line: number }
  | { readonly kind: 'query'; readonly sql: string; readonly columns?: string; readonly rows: readonly unknown[]; readonly line: number };

export function parseSlt(text: string, file: string): SltRecord[] {
  const records: SltRecord[] = [];
  const blocks = text.split(/\n\s*\n/);
  let line = 1;
  for (const block of blocks) {
    const lines = block.split('\n').filter((entry) => !entry.startsWith('#'));
    const startLine = line;
    line += block.split('\n').length + 1;
    while (lines.length > 0 && (lines[0] as string).trim() === '') lines.shift();
    if (lines.length === 0) continue;
    const header = (lines.shift() as string).trim();
    const separator = lines.findIndex((entry) => entry.trim() === '----');
    const sqlLines = separator < 0 ? lines : lines.slice(0, separator);
    const expected = separator < 0 ? [] : lines.slice(separator + 1).filter((entry) => entry.trim() !== '');
    const sql = sqlLines.join('\n').trim();
    if (header === 'statement ok') {
      records.push({ kind: 'ok', sql, line: startLine });
    } else if (header === 'statement error') {
      const spec = (expected[0] ?? '').trim();
      const match = /^(.*?)(?:\s+@(\d+))?$/.exec(spec);
      const message = match?.[1] ?? '';
      const position = match?.[2] === undefined ? undefined : Number(match[2]);
      records.push(position === undefined ? { kind: 'error', sql, message, line: startLine } : { kind: 'error', sql, message, position, line: startLine });
    } else if (header === 'query') {
      const columns = expected[0]?.startsWith('columns:') === true ? (expected.shift() as string).slice('columns:'.length).trim() : undefined;
      const rows = expected.map((entry) => parseJsonExactIntegers(entry));
      records.push(columns === undefined ? { kind: 'query', sql, rows, line: startLine } : { kind: 'query', sql, columns, rows, line: startLine });
    } else {
      throw new Error(`${file}:${startLine}: unknown record header '${header}'`);
    }
  }
  return records;
}
