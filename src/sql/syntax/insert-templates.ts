// Parsing of INSERT ... VALUES texts that differ from an earlier one only in their literals (clients sending
// one row per request) without running the parser again. A text's shape is its token list with every number
// and string token reduced to its kind; the first text of a shape is parsed and its tree kept as the shape's
// template, and a later text of the shape gets a copy of the template in which each literal is rebuilt from
// the text's own token, by the function the parser uses, and every position moved to the matching token of the
// text. A shape becomes a template only when that copy is provably what the parser makes: every number and
// string token is exactly one literal of the tree, rebuilt identically from its token, and every other number
// in the tree is a position at a token start. Anything else (a name written as a string, INSERT BATCH n, a
// number that is no valid constant, a literal of another type than the template's) takes the full parse, so
// errors and their positions are the parser's own.
import type { InsertStatement, LiteralExpr, Statement } from './ast.js';
import type { Token } from './token.js';
import { tokenize } from './lexer.js';
import { parseTokens } from './parser.js';
import { operandLiteral } from './parse-primary.js';
import { LruCache } from '../../core/lru-cache.js';
import { insertTemplateEntriesMax, insertTemplateTextLengthMax } from '../../core/limits.js';

interface Template {
  readonly statement: InsertStatement;
  /** Index in the template's token list of the token starting at each offset. */
  readonly tokenIndexByStart: ReadonlyMap<number, number>;
}

/** A shape whose tree is not a template (see the header): its texts always take the full parse. */
const NOT_A_TEMPLATE = 'not a template';

const templates = new LruCache<string, Template | typeof NOT_A_TEMPLATE>(insertTemplateEntriesMax);
const counts = { reused: 0, parsed: 0 };

/** Texts answered from a template, and texts of a template-sized INSERT that took the full parse, since start. */
export function insertTemplateStats(): { readonly reused: number; readonly parsed: number } {
  return { ...counts };
}

/** parseStatement(text), answered from a template when the text is an INSERT ... VALUES of a known shape. */
export function parseStatementReusing(text: string): Statement {
  if (text.length > insertTemplateTextLengthMax || !startsWithInsert(text)) return parseTokens(text, tokenize(text));
  const tokens = tokenize(text);
  const key = shapeKey(tokens);
  const template = templates.get(key);
  if (template !== undefined && template !== NOT_A_TEMPLATE) {
    const copy = instantiate(template, tokens);
    if (copy !== undefined) {
      counts.reused++;
      return copy;
    }
  }
  counts.parsed++;
  const statement = parseTokens(text, tokens);
  if (template !== undefined) return statement;
  const made = templateOf(statement, tokens);
  templates.set(key, made ?? NOT_A_TEMPLATE);
  // The caller gets a copy: the template is never handed out, so nothing a caller does with its tree reaches it.
  return made === undefined ? statement : (instantiate(made, tokens) ?? statement);
}

/** A cheap first test, before any token is made: the text's first word is INSERT (comments and blanks aside, the full lexer decides). */
function startsWithInsert(text: string): boolean {
  const start = text.search(/\S/);
  return start >= 0 && text.slice(start, start + 6).toLowerCase() === 'insert';
}

function isSlot(token: Token): boolean {
  return token.kind === 'number' || token.kind === 'string';
}

/** The token list with literal tokens reduced to their kind; lengths prefix the texts so no two lists share a key. */
function shapeKey(tokens: readonly Token[]): string {
  let key = '';
  for (const token of tokens) {
    key += isSlot(token) ? `${token.kind[0]};` : `${token.kind[0]}${token.text.length}:${token.text};`;
  }
  return key;
}

function isLiteral(node: object): node is LiteralExpr {
  return Reflect.get(node, 'kind') === 'literal';
}

function isPositionKey(key: string): boolean {
  return key === 'position' || key.endsWith('Position');
}

function sameLiteral(a: LiteralExpr, b: LiteralExpr): boolean {
  return a.position === b.position && a.literalType === b.literalType && a.text === b.text && Object.is(a.value, b.value);
}

/** The template of a parsed statement, or undefined when copies of it could differ from what the parser makes. */
function templateOf(statement: Statement, tokens: readonly Token[]): Template | undefined {
  if (statement.kind !== 'insert' || statement.rows === undefined || statement.query !== undefined || statement.batchSize !== undefined) return undefined;
  const tokenIndexByStart = new Map<number, number>();
  tokens.forEach((token, index) => tokenIndexByStart.set(token.start, index));
  const literalSlots = new Set<number>();
  const check = (value: unknown, key: string): boolean => {
    if (typeof value === 'number') return isPositionKey(key) && tokenIndexByStart.has(value);
    if (typeof value !== 'object' || value === null) return typeof value !== 'bigint';
    if (Array.isArray(value)) return value.every((item) => check(item, ''));
    if (isLiteral(value)) return checkLiteral(value);
    return Object.entries(value).every(([field, item]) => check(item, field));
  };
  const checkLiteral = (node: LiteralExpr): boolean => {
    const index = tokenIndexByStart.get(node.position);
    if (index === undefined) return false;
    const token = tokens[index];
    // NULL, TRUE, FALSE and NaN are words, part of the shape: the literal stays as it is, only its position moves.
    if (!isSlot(token)) return token.kind === 'identifier' && node.text === token.text;
    const rebuilt = operandLiteral(token);
    if (rebuilt === undefined || !sameLiteral(rebuilt, node) || literalSlots.has(index)) return false;
    literalSlots.add(index);
    return true;
  };
  if (!check(statement, '')) return undefined;
  const slotCount = tokens.filter(isSlot).length;
  return literalSlots.size === slotCount ? { statement, tokenIndexByStart } : undefined;
}

/** The template's tree for `tokens` (a text of the same shape), or undefined when a literal differs in type or is invalid. */
function instantiate(template: Template, tokens: readonly Token[]): InsertStatement | undefined {
  let failed = false;
  const startOf = (position: number): number => tokens[template.tokenIndexByStart.get(position) ?? -1]?.start ?? -1;
  const copy = (value: unknown, key: string): unknown => {
    if (typeof value === 'number') return isPositionKey(key) ? startOf(value) : value;
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map((item) => copy(item, ''));
    if (isLiteral(value)) {
      const token = tokens[template.tokenIndexByStart.get(value.position) ?? -1];
      if (token === undefined || !isSlot(token)) return { ...value, position: startOf(value.position) };
      const rebuilt = operandLiteral(token);
      if (rebuilt === undefined || rebuilt.literalType !== value.literalType) failed = true;
      return rebuilt;
    }
    const out: Record<string, unknown> = {};
    for (const field of Object.keys(value)) out[field] = copy(Reflect.get(value, field), field);
    return out;
  };
  const statement = copy(template.statement, '');
  // The copy has the template's structure, checked field by field when the template was made (templateOf).
  return failed ? undefined : (statement as InsertStatement);
}
