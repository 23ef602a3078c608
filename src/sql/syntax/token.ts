// Token kinds and the word tables shared by the lexer and the parser.
// A token carries 0-based UTF-16 offsets [start, end) into the statement text. Keywords are matched
// case-insensitively and only on unquoted identifiers, so a quoted "select" is always a plain name.

export type TokenKind = 'identifier' | 'quotedIdentifier' | 'string' | 'number' | 'operator' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** Source text as written (quotes included for quoted identifiers and strings); '' for eof. */
  readonly text: string;
  /** What the token means: unquoted, unescaped content for quoted identifiers and strings; `text` otherwise. */
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/** Two-character operators, tried before the one-character ones. */
export const TWO_CHAR_OPERATORS: ReadonlySet<string> = new Set(['::', '!=', '<>', '<=', '>=', '||', '!~', '~*']);

/** One-character operators and punctuation. `:` alone is only ever an error, but lexing it lets the parser say where. */
export const ONE_CHAR_OPERATORS = '=<>+-*/%~&|^(),.;[]:';

/**
 * QuestDB's reserved words (griffin/SqlKeywords KEYWORDS). Unquoted, they cannot name a table, column or alias;
 * QuestDB answers with the "have to be enclosed in double quotes" error, and so do we.
 */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'add', 'align', 'all', 'alter', 'and', 'asc', 'as', 'attach', 'batch', 'between', 'bypass', 'cancel', 'case',
  'cast', 'column', 'create', 'desc', 'detach', 'disable', 'distinct', 'drop', 'enable', 'end', 'except',
  'exists', 'explain', 'false', 'from', 'in', 'insert', 'intersect', 'into', 'like', 'limit', 'lock', 'nan',
  'join', 'not', 'null', 'on', 'order', 'or', 'outer', 'over', 'partition', 'rename', 'resume', 'sample',
  'select', 'set', 'squash', 'table', 'to', 'true', 'union', 'update', 'upsert', 'values', 'where', 'within',
  'with',
]);

/** Lower-cased text of an unquoted identifier; '' for every other token kind. */
export function wordOf(token: Token): string {
  return token.kind === 'identifier' ? token.text.toLowerCase() : '';
}

/** True when the token is the unquoted keyword `word` (given in lower case). */
export function isWord(token: Token, word: string): boolean {
  return token.kind === 'identifier' && token.text.length === word.length && token.text.toLowerCase() === word;
}

export function isOperator(token: Token, op: string): boolean {
  return token.kind === 'operator' && token.text === op;
}

export function isReservedWord(token: Token): boolean {
  return RESERVED_WORDS.has(wordOf(token));
}

/** The message QuestDB gives when a reserved word is used unquoted as a name (SqlKeywords.assertNameIsQuotedOrNotAKeyword). */
export function reservedNameMessage(token: Token): string {
  return `table and column names that are SQL keywords have to be enclosed in double quotes, such as "${token.text}"`;
}
