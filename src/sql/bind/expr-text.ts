// Expression ASTs back to short SQL text, for EXPLAIN lines (`avg(price) over (partition by [sym])`).
// Not a pretty-printer: it names columns, literals, calls and operators well enough to recognise the query.
import type { Expr } from '../syntax/ast.js';

export function exprText(expr: Expr): string {
  switch (expr.kind) {
    case 'column': return expr.qualifier === undefined ? expr.name : `${expr.qualifier}.${expr.name}`;
    case 'literal': return expr.literalType === 'STRING' || expr.literalType === 'CHAR' ? `'${String(expr.value)}'` : expr.text;
    case 'star': return expr.qualifier === undefined ? '*' : `${expr.qualifier}.*`;
    case 'call': return `${expr.name}(${expr.star ? '*' : expr.args.map(exprText).join(',')})`;
    case 'unary': return expr.op === 'not' ? `not ${exprText(expr.operand)}` : `${expr.op}${exprText(expr.operand)}`;
    case 'binary': return `${exprText(expr.left)}${expr.op}${exprText(expr.right)}`;
    case 'cast': return `${exprText(expr.operand)}::${expr.typeName.toLowerCase()}`;
    case 'isNull': return `${exprText(expr.operand)} is ${expr.negated ? 'not ' : ''}null`;
    case 'between': return `${exprText(expr.operand)} between ${exprText(expr.low)} and ${exprText(expr.high)}`;
    case 'in': return `${exprText(expr.operand)} in (${(expr.list ?? []).map(exprText).join(',')})`;
    case 'case': return 'case';
    default: return expr.kind;
  }
}
