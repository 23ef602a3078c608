// Generates /imp fuzz cases: valid CSVs mutated at the byte level (random bytes, flips, cuts), broken quotes,
// huge fields, mixed delimiters and line ends, binary content, invalid UTF-8, ragged rows, odd URL parameters
// and malformed schema parts. Deterministic for a given random source.
import type { UploadPart } from './upload.js';

export interface CsvFuzzCase {
  readonly label: string;
  readonly params: Record<string, string>;
  readonly parts: UploadPart[];
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function randomBytes(random: () => number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let k = 0; k < length; k++) bytes[k] = Math.floor(random() * 256);
  return bytes;
}

const CELL_VALUES = ['1', '-7', '2147483648', '9223372036854775808', '1.5', '1e308', 'NaN', 'true', 'false', '', 'abc', '"quoted, comma"', '"a ""b"" c"',
  '2024-01-01T00:00:00.000000Z', '2024-01-01', '2024-02-30T25:61:00Z', '1.2.3.4', '00000000-0000-0000-0000-000000000000', 'null', 'é', '🙂', '\\N'];

/** A well-formed CSV: header id,ts,sym,price,note and `rows` rows. */
export function validCsv(random: () => number, rows: number, delimiter = ','): string {
  const lines = [['id', 'ts', 'sym', 'price', 'note'].join(delimiter)];
  for (let row = 0; row < rows; row++) {
    const ts = new Date(Date.UTC(2024, 0, 1) + Math.floor(random() * 86_400_000 * 30)).toISOString();
    lines.push([String(row), ts, pick(random, ['A', 'B', 'C']), (random() * 100).toFixed(3), `note ${row}`].join(delimiter));
  }
  return `${lines.join('\n')}\n`;
}

function mutateBytes(random: () => number, text: string): Buffer {
  let current = Buffer.from(text, 'utf8');
  const edits = 1 + Math.floor(random() * 8);
  for (let k = 0; k < edits; k++) {
    const at = Math.floor(random() * (current.length + 1));
    switch (Math.floor(random() * 6)) {
      case 0: current = Buffer.concat([current.subarray(0, at), randomBytes(random, 1 + Math.floor(random() * 16)), current.subarray(at)]); break;
      case 1: if (at < current.length) current[at] = Math.floor(random() * 256); break;
      case 2: current = current.subarray(0, at); break;
      case 3: current = Buffer.concat([current.subarray(0, at), Buffer.from(pick(random, ['"', '""', '"\n', '\r', '\r\n', '\0', ',', ';', '\t', '|', '\\'])), current.subarray(at)]); break;
      case 4: current = Buffer.concat([current.subarray(0, at), current.subarray(Math.min(current.length, at + 1 + Math.floor(random() * 40)))]); break;
      default: current = Buffer.concat([current.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), current.subarray(at)]);
    }
  }
  return current;
}

function raggedCsv(random: () => number): string {
  const lines: string[] = [];
  const rows = 1 + Math.floor(random() * 40);
  for (let row = 0; row < rows; row++) {
    const cells = Math.floor(random() * 9);
    lines.push(Array.from({ length: cells }, () => pick(random, CELL_VALUES)).join(pick(random, [',', ',', ';', '\t', '|'])));
  }
  return lines.join(pick(random, ['\n', '\r\n', '\r']));
}

function hugeFieldCsv(random: () => number): string {
  const size = pick(random, [70_000, 300_000, 1_100_000]);
  const quoted = random() < 0.5;
  const field = 'x'.repeat(size);
  return `id,big\n1,${quoted ? `"${field}"` : field}\n2,small\n${random() < 0.5 ? `3,"${field.slice(0, 1000)}` : ''}`;
}

function wideCsv(random: () => number): string {
  const columns = pick(random, [300, 2000, 5000]);
  const header = Array.from({ length: columns }, (_, k) => `c${k}`).join(',');
  const row = Array.from({ length: columns }, (_, k) => String(k)).join(',');
  return `${header}\n${row}\n${row}\n`;
}

const SCHEMAS = ['', '[]', '{', 'not json', '[{"name":"id","type":"INT"}]', '[{"name":"ts","type":"TIMESTAMP","pattern":"yyyy-MM-dd"}]',
  '[{"name":"price","type":"NOPE"}]', '[{"type":"LONG"}]', '[{"name":"id","type":"SYMBOL"},{"name":"id","type":"INT"}]', '[null]', '"x"',
  '[{"name":"ts","type":"TIMESTAMP","pattern":"%%%"}]', '[{"name":"sym","type":"GEOHASH(5c)"}]'];

function randomParams(random: () => number, index: number): Record<string, string> {
  const params: Record<string, string> = { name: random() < 0.85 ? `fz_${index % 23}` : pick(random, ['', '../x', '.', 'a/b', '"q"', 'x'.repeat(300), 'tables', 'é', ' ']) };
  if (random() < 0.4) params['timestamp'] = pick(random, ['ts', 'id', 'nope', '', 'note']);
  if (random() < 0.4) params['partitionBy'] = pick(random, ['DAY', 'HOUR', 'NONE', 'MONTH', 'bogus', '', 'WEEK', 'YEAR']);
  if (random() < 0.2) params['overwrite'] = pick(random, ['true', 'false', 'yes', '']);
  if (random() < 0.2) params['create'] = pick(random, ['true', 'false', 'x']);
  if (random() < 0.2) params['atomicity'] = pick(random, ['skipCol', 'skipRow', 'abort', 'other']);
  if (random() < 0.2) params['delimiter'] = pick(random, [',', ';', '\t', '|', '', 'ab', '"', '\n']);
  if (random() < 0.2) params['forceHeader'] = pick(random, ['true', 'false', '1']);
  if (random() < 0.1) params['skipLev'] = pick(random, ['true', 'false']);
  if (random() < 0.5) params['fmt'] = pick(random, ['json', 'tabular', 'xml']);
  return params;
}

export function csvFuzzCase(random: () => number, index: number): CsvFuzzCase {
  const kind = Math.floor(random() * 9);
  let label: string;
  let content: string | Buffer;
  switch (kind) {
    case 0: label = 'mutated'; content = mutateBytes(random, validCsv(random, 1 + Math.floor(random() * 60))); break;
    case 1: label = 'binary'; content = randomBytes(random, Math.floor(random() * 20_000)); break;
    case 2: label = 'ragged'; content = raggedCsv(random); break;
    case 3: label = 'huge field'; content = hugeFieldCsv(random); break;
    case 4: label = 'mixed delimiters'; content = validCsv(random, 20, pick(random, [';', '\t', '|'])).replace(/\n(\d+)[;\t|]/g, (_, id: string) => `\n${id},`); break;
    case 5: label = 'broken quotes'; content = `id,note,ts\n1,"open,2024-01-01T00:00:00Z\n2,"a""b",2024-01-02T00:00:00Z\n3,x"y"z,2024-01-03\n4,"""",\n5,"${'q'.repeat(100)}`; break;
    case 6: label = 'wide'; content = wideCsv(random); break;
    case 7: label = 'empty or header only'; content = pick(random, ['', '\n', 'id,ts\n', '\uFEFFid,ts\n1,2024-01-01T00:00:00Z\n', '\r\n\r\n', ',,,\n,,,\n']); break;
    default: label = 'valid'; content = validCsv(random, 1 + Math.floor(random() * 200));
  }
  const parts: UploadPart[] = [];
  if (random() < 0.2) parts.push({ name: 'schema', content: pick(random, SCHEMAS) });
  parts.push({ name: random() < 0.95 ? 'data' : pick(random, ['file', '', 'schema']), filename: random() < 0.9 ? 'fz.csv' : pick(random, ['', '../../etc/passwd', 'a b.csv']), content });
  return { label, params: randomParams(random, index), parts };
}
