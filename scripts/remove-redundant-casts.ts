// Removes the type assertions the tidy test reports as doing nothing (`x as T` where the checker already types
// `x` as exactly T), using the checker's own list (test/helpers/redundant-casts.ts), and drops the parentheses
// that only wrapped such an assertion around a plain read. Prints how many it removed per file. Check the result
// with `npm run build` and by comparing tsc's JavaScript output before and after: assertions emit nothing, so the
// output must not change. Run: node --import tsx scripts/remove-redundant-casts.ts [folder under src/]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ts } from '@ts-morph/common';
import { redundantCasts } from '../test/helpers/redundant-casts.js';
import type { RedundantCast } from '../test/helpers/redundant-casts.js';

const root = resolve(import.meta.dirname, '..');
const folder = join(root, process.argv[2] ?? 'src');

/** Operands that stay the same expression without parentheses wherever the parenthesized assertion stood. */
function isPlainRead(node: ts.Expression): boolean {
  if (node.flags & ts.NodeFlags.OptionalChain) return false;
  return ts.isIdentifier(node) || ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)
    || ts.isCallExpression(node) || node.kind === ts.SyntaxKind.ThisKeyword;
}

/** The span to replace for one assertion, and its replacement: the operand, without wrapping parentheses when safe. */
function replacementOf(source: ts.SourceFile, cast: RedundantCast): { start: number; end: number; text: string } {
  const operand = source.text.slice(cast.operandStart, cast.operandEnd);
  let found: ts.Node | undefined;
  const find = (node: ts.Node): void => {
    if (node.getStart(source) === cast.start && node.getEnd() === cast.end && (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node))) found = node;
    else if (node.getStart(source) <= cast.start && node.getEnd() >= cast.end) ts.forEachChild(node, find);
  };
  find(source);
  const parent = found?.parent;
  if (found !== undefined && parent !== undefined && ts.isParenthesizedExpression(parent) && !ts.isNewExpression(parent.parent)
    && (ts.isAsExpression(found) || ts.isTypeAssertionExpression(found)) && isPlainRead(found.expression)) {
    return { start: parent.getStart(source), end: parent.getEnd(), text: operand };
  }
  return { start: cast.start, end: cast.end, text: operand };
}

const byFile = new Map<string, RedundantCast[]>();
for (const cast of redundantCasts(root, join(root, 'tsconfig.json'), folder)) byFile.set(cast.file, [...(byFile.get(cast.file) ?? []), cast]);
for (const [file, casts] of byFile) {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  // From the end backwards, so earlier offsets stay valid; an assertion nested in a removed one is skipped.
  const edits = casts.map((cast) => replacementOf(source, cast)).sort((a, b) => b.start - a.start);
  let result = text;
  let lowestStart = Infinity;
  for (const edit of edits) {
    if (edit.end > lowestStart) continue;
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
    lowestStart = edit.start;
  }
  writeFileSync(path, result);
  process.stdout.write(`${file}: ${casts.length}\n`);
}
