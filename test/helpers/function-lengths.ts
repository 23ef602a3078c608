// Finds the functions of a TypeScript source and how many lines each body spans, without a compiler: a small
// lexer skips comments, strings, template literals and regular expressions, and a `{` opens a function body when
// it follows `=>`, a parameter list `(...)` not owned by if/for/while/switch/catch, or `(...): ReturnType`.
// Nested functions count inside their parent too (a 70-line function is 70 lines however it is split inside).

export interface FunctionSpan {
  /** The name before the parameter list, or the variable an arrow function is assigned to; `<anonymous>` otherwise. */
  readonly name: string;
  /** 1-based line of the opening brace. */
  readonly line: number;
  /** Lines from the opening to the closing brace, both included. */
  readonly lines: number;
}

interface Token {
  readonly text: string;
  readonly line: number;
}

const REGEX_AFTER = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^', '&&', '||', '??', '=>',
  'return', 'typeof', 'case', 'in', 'of', 'new', 'delete', 'void', 'throw', '===', '!==', '==', '!=']);
const CONTROL_WORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with']);
/** Words that end the walk back over a return type: what precedes is a class, an interface or a statement. */
const STOP_WORDS = new Set(['class', 'interface', 'extends', 'implements', 'else', 'try', 'finally', 'do', 'return', 'enum', 'type', 'namespace', 'new']);
const LITERAL_AFTER = new Set(['is', 'keyof', 'typeof', '&', '|', ':', '<', ',', '(', '[', '=', '?', '??', '||', '&&', '...', 'return', 'yield', 'await']);
const PUNCTUATION = ['===', '!==', '...', '=>', '&&', '||', '??', '==', '!=', '<=', '>=', '?.'];

/** Tokens of `source` with strings, templates, comments and regular expressions dropped (template `${}` code kept). */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  /** Brace depth at which each open template literal's `${` started. */
  const templates: number[] = [];
  let depth = 0;
  let at = 0;
  const skipQuoted = (quote: string): void => {
    at++;
    while (at < source.length && source[at] !== quote) {
      if (source[at] === '\\') at++;
      else if (source[at] === '\n') line++;
      at++;
    }
    at++;
  };
  /** Skips template text up to its end (returns) or to a `${` (enters code). */
  const skipTemplateText = (): void => {
    while (at < source.length) {
      const char = source[at];
      if (char === '\\') at += 2;
      else if (char === '`') {
        at++;
        return;
      } else if (char === '$' && source[at + 1] === '{') {
        at += 2;
        templates.push(depth);
        depth++;
        return;
      } else {
        if (char === '\n') line++;
        at++;
      }
    }
  };
  while (at < source.length) {
    const char = source[at] as string;
    const next = source[at + 1];
    if (char === '\n') {
      line++;
      at++;
    } else if (/\s/.test(char)) {
      at++;
    } else if (char === '/' && next === '/') {
      while (at < source.length && source[at] !== '\n') at++;
    } else if (char === '/' && next === '*') {
      const end = source.indexOf('*/', at + 2);
      const stop = end < 0 ? source.length : end + 2;
      for (let k = at; k < stop; k++) if (source[k] === '\n') line++;
      at = stop;
    } else if (char === "'" || char === '"') {
      skipQuoted(char);
      tokens.push({ text: 'string', line });
    } else if (char === '`') {
      at++;
      skipTemplateText();
      tokens.push({ text: 'string', line });
    } else if (char === '/' && (tokens.length === 0 || REGEX_AFTER.has((tokens[tokens.length - 1] as Token).text))) {
      at++;
      let inClass = false;
      while (at < source.length && (source[at] !== '/' || inClass)) {
        if (source[at] === '\\') at++;
        else if (source[at] === '[') inClass = true;
        else if (source[at] === ']') inClass = false;
        at++;
      }
      at++;
      while (at < source.length && /[a-z]/.test(source[at] as string)) at++;
      tokens.push({ text: 'regex', line });
    } else if (/[A-Za-z_$0-9]/.test(char)) {
      const start = at;
      while (at < source.length && /[\w$]/.test(source[at] as string)) at++;
      tokens.push({ text: source.slice(start, at), line });
    } else if (char === '}' && templates.length > 0 && templates[templates.length - 1] === depth - 1) {
      templates.pop();
      depth--;
      at++;
      skipTemplateText();
    } else {
      const punctuation = PUNCTUATION.find((candidate) => source.startsWith(candidate, at)) ?? char;
      if (punctuation === '{') depth++;
      if (punctuation === '}') depth--;
      tokens.push({ text: punctuation, line });
      at += punctuation.length;
    }
  }
  return tokens;
}

const OPENERS: Record<string, string> = { ')': '(', ']': '[', '}': '{', '>': '<' };

/** Index of the bracket that opens the one closing at `index`, walking back; -1 when unbalanced. */
function openerOf(tokens: readonly Token[], index: number): number {
  const close = (tokens[index] as Token).text;
  const open = OPENERS[close];
  let depth = 0;
  for (let k = index; k >= 0; k--) {
    const text = (tokens[k] as Token).text;
    if (text === close) depth++;
    else if (text === open && --depth === 0) return k;
  }
  return -1;
}

/** For the `(` at `open`: the function's name, or undefined when a control statement owns the parentheses. */
function nameBeforeParameters(tokens: readonly Token[], open: number): string | undefined {
  let before = open - 1;
  if (tokens[before]?.text === '>') before = openerOf(tokens, before) - 1;
  const word = tokens[before]?.text ?? '';
  if (CONTROL_WORDS.has(word)) return undefined;
  if (/^[A-Za-z_$][\w$]*$/.test(word) && word !== 'function') return word;
  // `const name = (...) =>` or `name: (...) =>`.
  const assigned = tokens[before - 1]?.text;
  if ((word === '=' || word === ':') && assigned !== undefined && /^[A-Za-z_$][\w$]*$/.test(assigned)) return assigned;
  if (word === 'async' && /^[A-Za-z_$][\w$]*$/.test(tokens[before - 2]?.text ?? '')) return tokens[before - 2]?.text;
  return '<anonymous>';
}

/** Walking back from token `from` over a return type: the `(` of the parameter list of `(...): Type`, or -1. */
function parametersBeforeReturnType(tokens: readonly Token[], from: number): number {
  for (let k = from; k > 0; k--) {
    const text = (tokens[k] as Token).text;
    if (text === ')' || text === ']' || text === '}' || text === '>') {
      const open = openerOf(tokens, k);
      if (open < 0) return -1;
      if (text === ')' && tokens[k + 1]?.text === ':' && k + 1 < from) return open;
      k = open;
      continue;
    }
    if (text === ';' || text === '=' || text === '{' || text === '(' || text === ',' || text === '=>' || STOP_WORDS.has(text)) return -1;
  }
  return -1;
}

/** The name of an arrow function whose `=>` is at `arrow`. */
function arrowName(tokens: readonly Token[], arrow: number): string {
  const last = arrow - 1;
  let open = tokens[last]?.text === ')' ? openerOf(tokens, last) : -1;
  if (open < 0 && tokens[last - 1]?.text !== ':' && /^[A-Za-z_$][\w$]*$/.test(tokens[last]?.text ?? '')) {
    // `x => {`: a single parameter without parentheses.
    const before = tokens[last - 1]?.text;
    const assigned = tokens[last - 2]?.text ?? '';
    return (before === '=' || before === ':') && /^[A-Za-z_$][\w$]*$/.test(assigned) ? assigned : '<anonymous>';
  }
  if (open < 0) open = parametersBeforeReturnType(tokens, last);
  return open < 0 ? '<anonymous>' : (nameBeforeParameters(tokens, open) ?? '<anonymous>');
}

/** The function name when the `{` at `index` opens a function body, else undefined. */
function functionAt(tokens: readonly Token[], index: number): string | undefined {
  const previous = tokens[index - 1]?.text;
  if (previous === '=>') return arrowName(tokens, index - 1);
  if (previous === ')') {
    const open = openerOf(tokens, index - 1);
    return open < 0 ? undefined : nameBeforeParameters(tokens, open);
  }
  // After these a brace opens an object or a type literal (`x: {`, `A & {`), never a body.
  if (previous === undefined || LITERAL_AFTER.has(previous)) return undefined;
  const open = parametersBeforeReturnType(tokens, index - 1);
  return open < 0 ? undefined : nameBeforeParameters(tokens, open);
}

export function functionSpans(source: string): FunctionSpan[] {
  const tokens = tokenize(source);
  const spans: FunctionSpan[] = [];
  const open: { index: number; name: string | undefined }[] = [];
  tokens.forEach((token, index) => {
    if (token.text === '{') open.push({ index, name: functionAt(tokens, index) });
    if (token.text !== '}') return;
    const opened = open.pop();
    if (opened?.name === undefined) return;
    const line = (tokens[opened.index] as Token).line;
    spans.push({ name: opened.name, line, lines: token.line - line + 1 });
  });
  return spans;
}
