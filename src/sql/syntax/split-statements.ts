// Splits query text holding several statements (`select 1; select 2`) at the semicolons that end them, using
// the lexer so a `;` inside a string, quoted name or comment does not split. Each piece keeps its offset in the
// whole text, so error positions can be reported against what the client sent.
import { tokenize } from './lexer.js';

export interface StatementPiece {
  readonly text: string;
  /** UTF-16 offset of `text` in the whole query text. */
  readonly offset: number;
}

/** The statements of `text`, empty pieces (`;;`, trailing blanks and comments) left out. Throws SqlError from the lexer. */
export function splitStatements(text: string): StatementPiece[] {
  const pieces: StatementPiece[] = [];
  let start = 0;
  let hasTokens = false;
  for (const token of tokenize(text)) {
    if (token.kind === 'eof' || (token.kind === 'operator' && token.text === ';')) {
      if (hasTokens) pieces.push({ text: text.slice(start, token.start), offset: start });
      start = token.end;
      hasTokens = false;
    } else {
      hasTokens = true;
    }
  }
  return pieces;
}
