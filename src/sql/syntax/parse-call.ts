// Function calls: `f(args)`, `count(*)`, `count(DISTINCT x)`, `extract(part FROM ts)`, then optional
// `IGNORE NULLS` / `RESPECT NULLS` and an `OVER (...)` window. The call's position is its name token.
import type { CallExpr, Expr, LiteralExpr } from './ast.js';
import type { ParseCursor } from './parse-cursor.js';
import { expectClose, parseArgument, parseArguments } from './parse-arguments.js';
import { parseWindowSpec } from './parse-window.js';

export function parseCall(c: ParseCursor): CallExpr {
  const nameToken = c.next();
  const open = c.expectOperator('(');
  c.enter(nameToken);
  let star = false;
  let distinct = false;
  let args: Expr[] = [];
  if (c.isOperator('*') && c.isOperator(')', 1)) {
    c.next();
    star = true;
  } else if (!c.isOperator(')')) {
    if (c.isWord('distinct') && !c.isOperator(')', 1) && !c.isOperator(',', 1)) {
      c.next();
      distinct = true;
      if (c.isOperator('*')) throw c.error(`${nameToken.text}(distinct *) is not supported`);
    }
    args = nameToken.text.toLowerCase() === 'extract' ? parseExtractArguments(c) : parseArguments(c);
  }
  expectClose(c, open);
  c.leave();
  const ignoreNulls = parseNullTreatment(c);
  const call: CallExpr = {
    kind: 'call', position: nameToken.start, name: nameToken.text, args, star, distinct, ignoreNulls,
  };
  return c.isWord('over') ? { ...call, over: parseWindowSpec(c) } : call;
}

/** `extract(year FROM ts)`: the part becomes a string constant, as QuestDB passes it to the function. */
function parseExtractArguments(c: ParseCursor): Expr[] {
  const first = parseArgument(c);
  if (!c.acceptWord('from')) {
    const rest = c.acceptOperator(',') ? parseArguments(c) : [];
    return [first, ...rest];
  }
  const part: Expr = first.kind === 'column' && first.qualifier === undefined ? partConstant(first.position, first.name) : first;
  return [part, parseArgument(c)];
}

function partConstant(position: number, name: string): LiteralExpr {
  return { kind: 'literal', position, literalType: 'STRING', value: name, text: name };
}

/** `IGNORE NULLS` → true; `RESPECT NULLS` (the default) and nothing → false. */
function parseNullTreatment(c: ParseCursor): boolean {
  if (c.isWord('ignore') && c.isWord('nulls', 1)) {
    c.next();
    c.next();
    return true;
  }
  if (c.isWord('respect') && c.isWord('nulls', 1)) {
    c.next();
    c.next();
  }
  return false;
}
