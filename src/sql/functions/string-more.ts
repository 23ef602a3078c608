// Text functions beyond the basics: left, right, substring, strpos/position, replace, trim/ltrim/rtrim,
// split_part, starts_with, reverse, lpad/rpad, and the to_lowercase/to_uppercase spellings. Text in keeps its
// kind out (VARCHAR stays VARCHAR, STRING/SYMBOL/CHAR give STRING); NULL text gives NULL.
import type { ScalarFunctionDef } from './signature.js';
import type { BoundExpr } from '../bind/bound.js';
import type { ValueType } from '../../types/column-type.js';
import { constantNumber } from './constant-args.js';
import { sqlSemanticError } from '../../core/errors.js';

const textOut = (types: readonly ValueType[]): ValueType => (types[0] === 'VARCHAR' ? 'VARCHAR' : 'STRING');

function unary(name: string, helper: string): ScalarFunctionDef {
  return { name, args: ['TEXT'], returns: textOut, emit: ([a]) => `rt.${helper}(${a})` };
}

function checkFieldPosition(args: readonly BoundExpr[]): undefined {
  if (constantNumber(args[2]) === 0) throw sqlSemanticError('field position must not be zero', args[2]?.position ?? 0);
  return undefined;
}

function checkLength(args: readonly BoundExpr[]): undefined {
  const length = constantNumber(args[2]);
  if (length !== undefined && length < 0) throw sqlSemanticError('non-negative substring length expected', args[2]?.position ?? 0);
  return undefined;
}

export const STRING_MORE_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { name: 'left', args: ['TEXT', 'LONG'], returns: textOut, emit: ([a, n]) => `rt.left(${a}, ${n})` },
  { name: 'right', args: ['TEXT', 'LONG'], returns: textOut, emit: ([a, n]) => `rt.right(${a}, ${n})` },
  {
    name: 'substring', args: ['TEXT', 'LONG', 'LONG'], returns: textOut, prepare: checkLength,
    emit: ([a, start, length]) => `rt.substring(${a}, ${start}, ${length})`,
  },
  { name: 'substring', args: ['TEXT', 'LONG'], returns: textOut, emit: ([a, start]) => `rt.substringFrom(${a}, ${start})` },
  { name: 'strpos', args: ['TEXT', 'TEXT'], returns: 'INT', emit: ([a, b]) => `rt.strpos(${a}, ${b})` },
  { name: 'position', args: ['TEXT', 'TEXT'], returns: 'INT', emit: ([a, b]) => `rt.strpos(${a}, ${b})` },
  { name: 'replace', args: ['TEXT', 'TEXT', 'TEXT'], returns: textOut, emit: ([a, b, c]) => `rt.replace(${a}, ${b}, ${c})` },
  unary('trim', 'trim'),
  unary('ltrim', 'ltrim'),
  unary('rtrim', 'rtrim'),
  unary('reverse', 'reverse'),
  unary('to_lowercase', 'lower'),
  unary('to_uppercase', 'upper'),
  {
    name: 'split_part', args: ['TEXT', 'TEXT', 'LONG'], returns: textOut, prepare: checkFieldPosition,
    emit: ([a, d, n]) => `rt.splitPart(${a}, ${d}, ${n})`,
  },
  { name: 'starts_with', args: ['TEXT', 'TEXT'], returns: 'BOOLEAN', emit: ([a, b]) => `rt.startsWith(${a}, ${b})` },
  { name: 'lpad', args: ['TEXT', 'LONG', 'TEXT'], returns: textOut, emit: ([a, n, fill]) => `rt.lpad(${a}, ${n}, ${fill})` },
  { name: 'lpad', args: ['TEXT', 'LONG'], returns: textOut, emit: ([a, n]) => `rt.lpad(${a}, ${n}, ' ')` },
  { name: 'rpad', args: ['TEXT', 'LONG', 'TEXT'], returns: textOut, emit: ([a, n, fill]) => `rt.rpad(${a}, ${n}, ${fill})` },
  { name: 'rpad', args: ['TEXT', 'LONG'], returns: textOut, emit: ([a, n]) => `rt.rpad(${a}, ${n}, ' ')` },
];
