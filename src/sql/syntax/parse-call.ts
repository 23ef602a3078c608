// Function calls: `f(args)`, `count(*)`, `count(DISTINCT x)`, `extract(part FROM ts)`, then optional
// `IGNORE NULLS` / `RESPECT NULLS` and a window `OVER ([PARTITION BY ...] [ORDER BY ...] [frame])`.
// Frames: ROWS | RANGE | GROUPS, `BETWEEN bound AND bound` or one start bound (end = CURRENT ROW), optional
// EXCLUDE; time offsets (`'1' HOUR PRECEDING`) carry their unit singular and upper-cased. The call's position is
// its name token. ORDER BY items are parsed here for windows and for the query-level ORDER BY alike.
import type { CallExpr, Expr, FrameBound, LiteralExpr, OrderItem, WindowFrame, WindowSpec } from './ast.js';
import { wordOf } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { expectClose, parseArgument, parseArguments } from './parse-cursor.js';

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

function parseWindowSpec(c: ParseCursor): WindowSpec {
  const overToken = c.next();
  const open = c.expectOperator('(');
  c.enter(open);
  let partitionBy: WindowSpec['partitionBy'] = [];
  let orderBy: OrderItem[] = [];
  if (c.acceptWord('partition')) {
    c.expectWord('by');
    partitionBy = parseArguments(c);
  }
  if (c.acceptWord('order')) {
    c.expectWord('by');
    orderBy = parseOrderItems(c);
  }
  const modeWord = wordOf(c.peek());
  const frame = modeWord === 'rows' || modeWord === 'range' || modeWord === 'groups' ? parseFrame(c) : undefined;
  c.expectOperator(')');
  c.leave();
  const spec: WindowSpec = { position: overToken.start, partitionBy, orderBy };
  return frame === undefined ? spec : { ...spec, frame };
}

/** `expr [ASC | DESC] [NULLS FIRST | NULLS LAST] (, ...)*`. */
export function parseOrderItems(c: ParseCursor): OrderItem[] {
  const items: OrderItem[] = [];
  do {
    const expr = c.hooks.parseExpression(c);
    const descending = c.acceptWord('desc') !== undefined;
    if (!descending) c.acceptWord('asc');
    let nulls: 'first' | 'last' | undefined;
    if (c.acceptWord('nulls')) {
      if (c.acceptWord('first')) nulls = 'first';
      else if (c.acceptWord('last')) nulls = 'last';
      else throw c.error("'first' or 'last' expected");
    }
    items.push(nulls === undefined ? { expr, descending } : { expr, descending, nulls });
  } while (c.acceptOperator(','));
  return items;
}

function parseFrame(c: ParseCursor): WindowFrame {
  const modeToken = c.next();
  const mode = wordOf(modeToken) as WindowFrame['mode'];
  let start: FrameBound;
  let end: FrameBound;
  if (c.acceptWord('between')) {
    start = parseFrameBound(c);
    c.expectWord('and');
    end = parseFrameBound(c);
  } else {
    start = parseFrameBound(c);
    end = { kind: 'currentRow', position: modeToken.start };
  }
  const exclude = parseFrameExclusion(c);
  const frame: WindowFrame = { mode, position: modeToken.start, start, end };
  return exclude === undefined ? frame : { ...frame, exclude };
}

const TIME_UNITS: ReadonlyMap<string, string> = new Map([
  ['nanosecond', 'NANOSECOND'], ['nanoseconds', 'NANOSECOND'], ['microsecond', 'MICROSECOND'],
  ['microseconds', 'MICROSECOND'], ['millisecond', 'MILLISECOND'], ['milliseconds', 'MILLISECOND'],
  ['second', 'SECOND'], ['seconds', 'SECOND'], ['minute', 'MINUTE'], ['minutes', 'MINUTE'],
  ['hour', 'HOUR'], ['hours', 'HOUR'], ['day', 'DAY'], ['days', 'DAY'],
]);

function parseFrameBound(c: ParseCursor): FrameBound {
  const first = c.peek();
  if (c.acceptWord('unbounded')) {
    if (c.acceptWord('preceding')) return { kind: 'unboundedPreceding', position: first.start };
    if (c.acceptWord('following')) return { kind: 'unboundedFollowing', position: first.start };
    throw c.error("'preceding' or 'following' expected");
  }
  if (c.acceptWord('current')) {
    c.expectWord('row');
    return { kind: 'currentRow', position: first.start };
  }
  const offset = c.hooks.parseExpression(c);
  const unit = TIME_UNITS.get(wordOf(c.peek()));
  if (unit !== undefined) c.next();
  let kind: 'preceding' | 'following';
  if (c.acceptWord('preceding')) kind = 'preceding';
  else if (c.acceptWord('following')) kind = 'following';
  else throw c.error("'preceding' or 'following' expected");
  return unit === undefined ? { kind, position: first.start, offset } : { kind, position: first.start, offset, unit };
}

function parseFrameExclusion(c: ParseCursor): WindowFrame['exclude'] {
  if (!c.acceptWord('exclude')) return undefined;
  if (c.acceptWord('current')) {
    c.expectWord('row');
    return 'currentRow';
  }
  if (c.acceptWord('group')) return 'group';
  if (c.acceptWord('ties')) return 'ties';
  if (c.acceptWord('no')) {
    c.expectWord('others');
    return 'noOthers';
  }
  throw c.error("'current row', 'group', 'ties' or 'no others' expected");
}
