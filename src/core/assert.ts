// Programmer-error checks. A failed assert is a bug: it raises InternalError (HTTP 500, a C record).
// Never use these to validate user input.
import { InternalError } from './errors.js';

export function assert(condition: unknown, why: string): asserts condition {
  if (!condition) throw new InternalError(`assertion failed: ${why}`);
}

export function assertNever(value: never, what = 'value'): never {
  throw new InternalError(`unexpected ${what}: ${JSON.stringify(value)}`);
}

export function unreachable(why: string): never {
  throw new InternalError(`unreachable: ${why}`);
}
