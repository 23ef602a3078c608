// PostgreSQL's COPY text format to CSV, streaming: lines end at `\n`, fields are split at the delimiter (tab),
// the NULL marker (`\N`) becomes an empty unquoted field, backslash escapes are decoded, and every other value
// is written as a quoted CSV field, so the import's CSV reader sees exactly the values that were sent. A line
// `\.` ends the data (older clients send it). A line may span CopyData messages; the remainder is carried.
const ESCAPES: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

export class CopyTextToCsv {
  private carry = '';
  private ended = false;

  constructor(private readonly delimiter: string, private readonly nullText: string) {}

  /** CSV for the complete lines of `chunk` (with what was carried); an incomplete last line is kept. */
  push(chunk: Buffer): string {
    const text = this.carry + chunk.toString('utf8');
    const lastNewline = text.lastIndexOf('\n');
    if (lastNewline < 0) {
      this.carry = text;
      return '';
    }
    this.carry = text.slice(lastNewline + 1);
    return this.convertLines(text.slice(0, lastNewline));
  }

  /** CSV for a last line without a line end. */
  end(): string {
    const rest = this.carry;
    this.carry = '';
    return rest === '' ? '' : this.convertLines(rest);
  }

  private convertLines(block: string): string {
    let out = '';
    for (const raw of block.split('\n')) {
      if (this.ended) break;
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line === '\\.') {
        this.ended = true;
        break;
      }
      out += `${line.split(this.delimiter).map((field) => this.convertField(field)).join(',')}\n`;
    }
    return out;
  }

  private convertField(field: string): string {
    if (field === this.nullText) return '';
    const value = field.includes('\\') ? field.replace(/\\(.)/g, (_, ch: string) => ESCAPES[ch] ?? ch) : field;
    return `"${value.replace(/"/g, '""')}"`;
  }
}
