// Generates /write fuzz cases: valid ILP bodies (tags, every field type, escapes, raw and escaped newlines,
// CRLF, comments, protocol 2 binary doubles, every timestamp form) and mutations of them: truncated lines,
// bad escapes, huge numbers, invalid UTF-8, binary garbage after `name==`, lines over the limit, type
// conflicts, hostile names, byte flips, insertions and deletions, structural and random garbage. Most cases
// write a small pool of shared tables (a new table per request would make the run slow); isolated cases write
// tables named after themselves, so a refused one can be checked to have left nothing. Deterministic for a
// given random source.
import { gzipSync } from 'node:zlib';

type Random = () => number;

export interface IlpFuzzCase {
  readonly label: string;
  /** Tables the body names before any mutation. */
  readonly tables: readonly string[];
  /** The tables are the case's own: none of them may exist after a refused request. */
  readonly isolated: boolean;
  readonly body: Buffer;
  /** Where to cut the body into chunks (Transfer-Encoding: chunked); empty sends it with Content-Length. */
  readonly cuts: readonly number[];
  readonly gzip: boolean;
  /** The `precision` query parameter, or undefined for none. */
  readonly precision: string | undefined;
  /** Rows per table of an unmutated body, for an exact count once it is committed. */
  readonly expectedRows: ReadonlyMap<string, number> | undefined;
}

export interface IlpFuzzOptions {
  readonly lineBytesMax: number;
}

/** Shared tables most cases write; `ilpFuzzPoolBody` creates them with every column a valid line uses. */
export const ILP_FUZZ_POOL_TABLES = Array.from({ length: 16 }, (_unused, k) => `fz_pool${k}`);
/** Cases that write tables of their own. */
const ISOLATED_SHARE = 0.08;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function below(random: Random, bound: number): number {
  return Math.floor(random() * bound);
}

function randomBytes(random: Random, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let k = 0; k < length; k++) bytes[k] = below(random, 256);
  return bytes;
}

const PRECISIONS = ['n', 'ns', 'u', 'us', 'ms', 's', 'm', 'h'] as const;
const MICROS_PER_UNIT: Readonly<Record<(typeof PRECISIONS)[number], number>> = { n: 0.001, ns: 0.001, u: 1, us: 1, ms: 1e3, s: 1e6, m: 6e7, h: 3.6e9 };
const TAG_VALUES = ['a', 'b\\ c', 'd\\,e', 'f\\=g', 'é', '🙂', 'x'.repeat(40), 'with\\\\backslash'];
const DOUBLE_TEXTS = ['1.5', '-2', '0', '-0.0', '.5', '1.', '1e+21', '2.5E-3', 'NaN', 'Infinity', '-Infinity', '123456789012345678901234567890', '5e-324'];
const BOOLEAN_TEXTS = ['t', 'T', 'true', 'True', 'TRUE', 'f', 'F', 'false', 'False', 'FALSE'];
const STRING_TEXTS = ['plain', 'say \\"hi\\"', 'back\\\\slash', 'line\\\nbreak', 'raw\nnewline', '', 'é 🙂, = x', 'tab\there'];
const HUGE_VALUES = ['99999999999999999999i', '9223372036854775808i', '-9223372036854775809i', '9223372036854775807i', '-9223372036854775808i', '1e999', '-1e-999',
  '0x123i', '1.5d', '123456789012345678901234567890n', '9223372036854775807n', '-9223372036854775808t', '1e308', `${'9'.repeat(400)}`, `${'9'.repeat(400)}i`, '--5n', '+-1i'];
const INVALID_UTF8 = [[0xc3, 0x28], [0xff], [0xfe, 0xff], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0xe2, 0x82], [0x80]];
const HOSTILE_NAMES = ['../fz_escape', '.fz_hidden', 'a/b', 'a\\\\b', '..', 'x'.repeat(200), 'a.b', 'a-b', '', 'timestamp', 'a:b', 'x*', 'CON', 'a\u0000b'];
const STRUCTURE = [' ', ',', '=', '==', '"', '\\', '\n', '\r', '\r\n', '#', 'i', 't', 'n', '.', '-', '1', '123', 'fz', 'v', 'true', '\u0010', '\u000e', 'e'];

/**
 * A designated timestamp in the case's own second: rows of later cases come later, so commits into the shared
 * tables append rather than merge out of order, and a run stays within one day partition.
 */
function timestampText(random: Random, caseIndex: number, precision: (typeof PRECISIONS)[number] | undefined): string {
  const micros = 1_700_000_000_000_000 + caseIndex * 1_000_000 + below(random, 1_000_000);
  const form = below(random, 4);
  if (form === 0) return `${micros}t`;
  if (form === 1) return `${micros}${String(below(random, 1000)).padStart(3, '0')}n`;
  const unit = precision ?? 'n';
  const scale = MICROS_PER_UNIT[unit];
  return scale < 1 ? `${micros}${String(below(random, 1000)).padStart(3, '0')}` : String(Math.floor(micros / scale));
}

function binaryDoubleBytes(value: number): Buffer {
  const bytes = Buffer.alloc(9);
  bytes[0] = 16;
  bytes.writeDoubleLE(value, 1);
  return bytes;
}

/** One valid line of `table`: some tags, at least one field, each column always of the same type. */
function validLine(random: Random, table: string, caseIndex: number, precision: (typeof PRECISIONS)[number] | undefined): Buffer {
  const parts: (string | Buffer)[] = [table];
  if (random() < 0.6) parts.push(`,host=${pick(random, TAG_VALUES)}`);
  if (random() < 0.3) parts.push(`,region\\ name=${pick(random, TAG_VALUES)}`);
  const fields: (string | Buffer)[][] = [];
  if (random() < 0.7) fields.push([`v=${below(random, 2_000_000) - 1_000_000}i`]);
  if (random() < 0.6) fields.push([`d=${pick(random, DOUBLE_TEXTS)}`]);
  if (random() < 0.4) fields.push([`b=${pick(random, BOOLEAN_TEXTS)}`]);
  if (random() < 0.5) fields.push([`s="${pick(random, STRING_TEXTS)}"`]);
  if (random() < 0.3) fields.push([`seen=${1_600_000_000_000_000 + below(random, 1e9)}t`]);
  if (random() < 0.3) fields.push(['x==', binaryDoubleBytes(random() < 0.3 ? randomBytes(random, 8).readDoubleLE(0) : random() * 1000)]);
  if (fields.length === 0) fields.push(['v=1i']);
  parts.push(' ');
  fields.forEach((field, k) => parts.push(...(k === 0 ? field : [',', ...field])));
  if (random() < 0.8) parts.push(` ${timestampText(random, caseIndex, precision)}`);
  parts.push(random() < 0.15 ? '\r\n' : '\n');
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)));
}

interface ValidBody {
  readonly lines: Buffer[];
  readonly rows: Map<string, number>;
}

function validBody(random: Random, tables: readonly string[], caseIndex: number, precision: (typeof PRECISIONS)[number] | undefined): ValidBody {
  const lines: Buffer[] = [];
  const rows = new Map<string, number>();
  const count = 1 + below(random, 20);
  for (let k = 0; k < count; k++) {
    const roll = random();
    if (roll < 0.05) lines.push(Buffer.from('# a comment, with = and "quotes"\n'));
    else if (roll < 0.08) lines.push(Buffer.from(random() < 0.5 ? '\n' : '\r\n'));
    const table = pick(random, tables);
    lines.push(validLine(random, table, caseIndex, precision));
    rows.set(table, (rows.get(table) ?? 0) + 1);
  }
  if (random() < 0.2) lines.push(validLine(random, tables[0] as string, caseIndex, precision).subarray(0, -1));
  if ((lines[lines.length - 1] as Buffer).at(-1) !== 10) rows.set(tables[0] as string, (rows.get(tables[0] as string) ?? 0) + 1);
  return { lines, rows };
}

function insertLine(random: Random, lines: Buffer[], line: Buffer): void {
  lines.splice(below(random, lines.length + 1), 0, line);
}

function mutateBytes(random: Random, body: Buffer): Buffer {
  let current = body;
  const edits = 1 + below(random, 8);
  for (let k = 0; k < edits; k++) {
    const at = below(random, current.length + 1);
    switch (below(random, 4)) {
      case 0: current = Buffer.concat([current.subarray(0, at), randomBytes(random, 1 + below(random, 8)), current.subarray(at)]); break;
      case 1: if (at < current.length) { current = Buffer.from(current); current[at] = below(random, 256); } break;
      case 2: current = Buffer.concat([current.subarray(0, at), current.subarray(Math.min(current.length, at + 1 + below(random, 20)))]); break;
      default: if (at < current.length) { current = Buffer.from(current); current[at] = (current[at] as number) ^ (1 << below(random, 8)); }
    }
  }
  return current;
}

type Mutation = (random: Random, lines: Buffer[], tables: readonly string[], options: IlpFuzzOptions) => Buffer;

const MUTATIONS: Readonly<Record<string, Mutation>> = {
  truncated: (random, lines) => {
    const body = Buffer.concat(lines);
    return body.subarray(0, below(random, body.length + 1));
  },
  'bad escape': (random, lines) => {
    const body = Buffer.concat(lines);
    const at = below(random, body.length + 1);
    return Buffer.concat([body.subarray(0, at), Buffer.from(pick(random, ['\\', '\\\\', '\\\n', '\\"', '\\ ', '\\\r'])), body.subarray(at)]);
  },
  'huge number': (random, lines, tables) => {
    insertLine(random, lines, Buffer.from(`${pick(random, tables)} ${pick(random, ['v', 'h', 'd'])}=${pick(random, HUGE_VALUES)}${random() < 0.5 ? '' : ` ${pick(random, HUGE_VALUES)}`}\n`));
    return Buffer.concat(lines);
  },
  'invalid utf-8': (random, lines) => {
    const body = Buffer.concat(lines);
    const at = below(random, body.length + 1);
    return Buffer.concat([body.subarray(0, at), Buffer.from(pick(random, INVALID_UTF8)), body.subarray(at)]);
  },
  'binary garbage': (random, lines, tables) => {
    const type = random() < 0.5 ? 16 : below(random, 256);
    const line = Buffer.concat([Buffer.from(`${pick(random, tables)} x==`), Buffer.from([type]), randomBytes(random, below(random, 14)), Buffer.from(random() < 0.7 ? '\n' : '')]);
    insertLine(random, lines, line);
    return Buffer.concat(lines);
  },
  'overlong line': (random, lines, tables, options) => {
    insertLine(random, lines, Buffer.from(`${pick(random, tables)} s="${'y'.repeat(options.lineBytesMax + below(random, 3 * options.lineBytesMax))}"\n`));
    return Buffer.concat(lines);
  },
  'type conflict': (random, lines, tables) => {
    insertLine(random, lines, Buffer.from(`${pick(random, tables)} ${pick(random, ['v', 'd', 'b', 's', 'seen', 'x'])}=${pick(random, ['"text"', '1.5', '7i', 'true', '5t'])}\n`));
    return Buffer.concat(lines);
  },
  'hostile name': (random, lines, tables) => {
    const name = pick(random, HOSTILE_NAMES);
    insertLine(random, lines, Buffer.from(random() < 0.5 ? `${name} v=1i\n` : random() < 0.5 ? `${pick(random, tables)} ${name}=1i\n` : `${pick(random, tables)},${name}=x v=1i\n`));
    return Buffer.concat(lines);
  },
  'byte edits': (random, lines) => mutateBytes(random, Buffer.concat(lines)),
  structure: (random, lines, tables) => {
    const pieces: string[] = [pick(random, tables)];
    for (let k = below(random, 30); k > 0; k--) pieces.push(pick(random, STRUCTURE));
    insertLine(random, lines, Buffer.from(pieces.join('')));
    return Buffer.concat(lines);
  },
  garbage: (random) => randomBytes(random, below(random, 3000)),
};
const MUTATION_NAMES = Object.keys(MUTATIONS);

function randomCuts(random: Random, length: number): number[] {
  if (length < 2 || random() < 0.6) return [];
  const cuts = new Set<number>();
  for (let k = 1 + below(random, 6); k > 0; k--) cuts.add(1 + below(random, length - 1));
  return [...cuts].sort((a, b) => a - b);
}

/** One line per pool table with every column a valid line writes, in the types valid lines give them. */
export function ilpFuzzPoolBody(): Buffer {
  return Buffer.concat(ILP_FUZZ_POOL_TABLES.map((table) => Buffer.concat([
    Buffer.from(`${table},host=a,region\\ name=b v=1i,d=1.5,b=t,s="x",seen=1700000000000000t,x==`), binaryDoubleBytes(0.5), Buffer.from(' 1700000000000000t\n'),
  ])));
}

/**
 * The table names of isolated case `index`: the index and a hash of it, so that byte edits of another case's
 * names (a digit flipped or dropped) cannot spell them.
 */
function isolatedTables(index: number, two: boolean): string[] {
  const stem = `fz${index}_${(Math.imul(index + 1, 0x9e3779b1) >>> 16).toString(16).padStart(4, '0')}`;
  return two ? [`${stem}_a`, `${stem}_b`] : [`${stem}_a`];
}

/** The fuzz case number `index`; an isolated case's tables are its own, a pooled case's are shared. */
export function ilpFuzzCase(random: Random, index: number, options: IlpFuzzOptions): IlpFuzzCase {
  const isolated = random() < ISOLATED_SHARE;
  const two = random() < 0.3;
  const tables = isolated ? isolatedTables(index, two) : two ? [pick(random, ILP_FUZZ_POOL_TABLES), pick(random, ILP_FUZZ_POOL_TABLES)] : [pick(random, ILP_FUZZ_POOL_TABLES)];
  const precision = random() < 0.2 ? pick(random, PRECISIONS) : undefined;
  const { lines, rows } = validBody(random, tables, index, precision);
  const valid = random() < 0.15;
  const label = valid ? 'valid' : pick(random, MUTATION_NAMES);
  const mutate = MUTATIONS[label];
  let body = mutate === undefined ? Buffer.concat(lines) : mutate(random, lines, tables, options);
  const gzip = random() < 0.1;
  if (gzip) body = gzipSync(body);
  const badPrecision = !valid && random() < 0.02;
  return {
    label: `${label}${gzip ? ' gzip' : ''}`, tables, isolated, body, cuts: randomCuts(random, body.length), gzip,
    precision: badPrecision ? pick(random, ['x', 'd', 'NS', '']) : precision, expectedRows: valid ? rows : undefined,
  };
}

/** The body cut at `cuts`. */
export function chunksOf(fuzzCase: IlpFuzzCase): Buffer[] {
  const bounds = [0, ...fuzzCase.cuts, fuzzCase.body.length];
  return bounds.slice(1).map((end, k) => fuzzCase.body.subarray(bounds[k] as number, end));
}
