// Text functions: concatenation (NULL concatenates as empty), length (NULL → -1), case mapping.
import type { ScalarFunctionDef } from './signature.js';
import type { ValueType } from '../../types/column-type.js';
import { isTextHeldType } from '../../types/column-type.js';

const textResult = (types: readonly ValueType[]): ValueType => (types.some((type) => type === 'VARCHAR') ? 'VARCHAR' : 'STRING');

export const STRING_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { name: '||', args: ['ANY', 'ANY'], returns: textResult, emit: ([a, b], _c, types) => `rt.concat2(${toText(a, types[0])}, ${toText(b, types[1])})` },
  { name: 'concat', args: ['ANY'], variadic: true, returns: textResult, emit: (args, _c, types) => `rt.concatN([${args.map((arg, k) => toText(arg, types[k])).join(', ')}])` },
  { name: 'length', args: ['TEXT'], returns: 'INT', emit: ([a]) => `rt.textLength(${a})` },
  { name: 'lower', args: ['TEXT'], returns: textResult, emit: ([a]) => `rt.lower(${a})` },
  { name: 'upper', args: ['TEXT'], returns: textResult, emit: ([a]) => `rt.upper(${a})` },
];

/** Renders any value as text for concatenation (numbers and timestamps as QuestDB prints them). */
export function toText(arg: string, type: ValueType | undefined): string {
  switch (type) {
    case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'CHAR': case 'UUID': case 'NULL': case undefined: return arg;
    default: return isTextHeldType(type) && type !== 'INTERVAL' ? arg : `rt.castToString(${arg}, '${type}')`;
  }
}
