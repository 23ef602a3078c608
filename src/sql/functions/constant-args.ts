// Reading constant arguments at bind time, for functions whose units, patterns, zones or counts must be
// (or are best) known before any row is seen. Errors carry the argument's position.
import type { BoundExpr } from '../bind/bound.js';
import { sqlSemanticError } from '../../core/errors.js';

/** Text of a constant argument; null for a NULL constant; undefined when the argument is not a constant. */
export function constantText(arg: BoundExpr | undefined): string | null | undefined {
  if (arg?.kind !== 'constant') return undefined;
  if (arg.value === null) return null;
  return typeof arg.value === 'string' ? arg.value : undefined;
}

/** Number of a constant numeric argument (NaN for NULL); undefined when the argument is not a constant. */
export function constantNumber(arg: BoundExpr | undefined): number | undefined {
  if (arg?.kind !== 'constant') return undefined;
  if (arg.value === null) return NaN;
  return typeof arg.value === 'number' ? arg.value : undefined;
}

/** The text of an argument that must be a constant (units, parts); throws at the argument otherwise. */
export function requireConstantText(arg: BoundExpr | undefined, position: number, what: string): string | null {
  const text = constantText(arg);
  if (text === undefined) throw sqlSemanticError(`${what} must be a constant`, arg?.position ?? position);
  return text;
}

/** The number of an argument that must be a constant (generator bounds, counts). */
export function requireConstantNumber(arg: BoundExpr | undefined, position: number, what: string): number {
  const value = constantNumber(arg);
  if (value === undefined) throw sqlSemanticError(`${what} must be a constant`, arg?.position ?? position);
  return value;
}
