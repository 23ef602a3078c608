// Pattern matching: LIKE / ILIKE (`%` any run, `_` one character, `\` escapes the next one; the whole text must
// match), `~` (regular expression, partial match; `!~` and NOT LIKE are bound as NOT of these) and
// regexp_replace. Patterns must be constants, as in QuestDB, and compile once at bind time into a RegExp
// constant; an empty LIKE pattern matches nothing and NULL text matches nothing.
import type { ScalarFunctionDef } from './signature.js';
import type { BoundExpr } from '../bind/bound.js';
import type { ValueType } from '../../types/column-type.js';
import { constantText } from './constant-args.js';
import { sqlSemanticError } from '../../core/errors.js';

/** Characters that mean something in a RegExp; escaping only these keeps the source valid. */
const REGEX_SPECIALS = '[](){}.*+?$^|\\/';

/** Translates a LIKE pattern into a regular expression source; undefined for the empty pattern. */
export function likeToRegexSource(pattern: string, position: number): string {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    let char = pattern[index];
    if (char === '%') {
      source += '[\\s\\S]*';
      continue;
    }
    if (char === '_') {
      source += '[\\s\\S]';
      continue;
    }
    if (char === '\\') {
      index++;
      if (index >= pattern.length) throw sqlSemanticError('LIKE pattern must not end with escape character', position + index);
      char = pattern[index];
    }
    source += REGEX_SPECIALS.includes(char) ? `\\${char}` : char;
  }
  return `^(?:${source})$`;
}

function patternText(args: readonly BoundExpr[], position: number): string | null {
  const pattern = args[1];
  const text = constantText(pattern);
  if (text === undefined) throw sqlSemanticError('use constant or bind variable', pattern?.position ?? position);
  return text;
}

/** RegExp for a LIKE/ILIKE pattern, or null when nothing can match (NULL or empty pattern). */
function prepareLike(caseInsensitive: boolean): (args: readonly BoundExpr[], position: number) => RegExp | null {
  return (args, position) => {
    const text = patternText(args, position);
    if (text === null || text.length === 0) return null;
    return new RegExp(likeToRegexSource(text, args[1]?.position ?? position), caseInsensitive ? 'i' : '');
  };
}

function compileRegex(text: string | null, flags: string, at: number): RegExp {
  if (text === null) throw sqlSemanticError('NULL regex', at);
  try {
    return new RegExp(text, flags);
  } catch (error) {
    throw sqlSemanticError(error instanceof Error ? error.message : 'invalid regex', at);
  }
}

const prepareMatch = (args: readonly BoundExpr[], position: number): RegExp => compileRegex(patternText(args, position), '', args[1]?.position ?? position);
// PostgreSQL's `~*`: the same match, case-insensitive.
const prepareMatchIgnoringCase = (args: readonly BoundExpr[], position: number): RegExp => compileRegex(patternText(args, position), 'i', args[1]?.position ?? position);

function prepareReplace(args: readonly BoundExpr[], position: number): RegExp | undefined {
  const text = constantText(args[1]);
  return text === undefined ? undefined : compileRegex(text, 'g', args[1]?.position ?? position);
}

const emitTest = ([text]: readonly string[], constant: (value: unknown) => string, _types: readonly ValueType[], regex?: unknown): string =>
  (regex === null ? 'false' : `rt.regexTest(${constant(regex)}, ${text})`);

const firstTextType = (types: readonly ValueType[]): ValueType => (types[0] === 'VARCHAR' ? 'VARCHAR' : 'STRING');

export const REGEX_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { name: 'like', args: ['TEXT', 'TEXT'], returns: 'BOOLEAN', prepare: prepareLike(false), emit: emitTest },
  { name: 'ilike', args: ['TEXT', 'TEXT'], returns: 'BOOLEAN', prepare: prepareLike(true), emit: emitTest },
  { name: '~', args: ['TEXT', 'TEXT'], returns: 'BOOLEAN', prepare: prepareMatch, emit: emitTest },
  { name: '~*', args: ['TEXT', 'TEXT'], returns: 'BOOLEAN', prepare: prepareMatchIgnoringCase, emit: emitTest },
  {
    name: 'regexp_replace', args: ['TEXT', 'TEXT', 'TEXT'], returns: firstTextType, prepare: prepareReplace,
    emit: ([text, pattern, replacement], constant, _types, regex) => (regex === undefined
      ? `rt.regexReplaceText(${text}, ${pattern}, ${replacement})`
      : `rt.regexReplace(${constant(regex)}, ${text}, ${replacement})`),
  },
];
