// Parsed statements for the hop from a worker to the primary: a write statement is parsed (and its parameters
// filled) once, in the worker that received it, and the primary runs the tree it is given. The tree travels
// inside the IPC message itself (one JSON encoding, by the channel), not as a JSON text within it. It is plain
// data except for values JSON cannot carry: LONG literals are bigints, and the `NaN` literal (and infinities,
// -0) are numbers JSON would turn into null or 0. A tree holding any of those travels as a copy in which they
// are tagged, `{"$bigint":"<digits>"}` and `{"$number":"NaN"}`; the common tree holds none and goes as it is,
// so neither side walks it again.
import type { Statement } from './ast.js';

const BIGINT_TAG = '$bigint';
const NUMBER_TAG = '$number';

/** A statement ready for the JSON channel; `tagged` says whether `tree` holds tags to undo. */
export interface EncodedStatement {
  readonly tree: unknown;
  readonly tagged: boolean;
}

/** A value JSON would lose or refuse. */
function needsTag(value: unknown): boolean {
  return typeof value === 'bigint' || (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0)));
}

function holdsTaggedValue(value: unknown): boolean {
  if (needsTag(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsTaggedValue);
  for (const key in value) {
    if (holdsTaggedValue(Reflect.get(value, key))) return true;
  }
  return false;
}

function tag(value: unknown): unknown {
  if (typeof value === 'bigint') return { [BIGINT_TAG]: value.toString() };
  if (typeof value === 'number' && needsTag(value)) return { [NUMBER_TAG]: Object.is(value, -0) ? '-0' : String(value) };
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(tag);
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = tag(Reflect.get(value, key));
  return copy;
}

/**
 * The statement as it crosses the channel. An untagged tree is the statement itself: the channel serializes it
 * when the worker's batch leaves at the end of the turn, and nothing changes a parsed statement meanwhile.
 */
export function encodeStatement(statement: Statement): EncodedStatement {
  return holdsTaggedValue(statement) ? { tree: tag(statement), tagged: true } : { tree: statement, tagged: false };
}

/** The value a tag stands for, or undefined when `value` is no tag. */
function untagged(value: object): bigint | number | undefined {
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const digits: unknown = Reflect.get(value, BIGINT_TAG);
  if (typeof digits === 'string') return BigInt(digits);
  const number: unknown = Reflect.get(value, NUMBER_TAG);
  if (typeof number === 'string') return Number(number);
  return undefined;
}

/** Undoes the tags below `value`, in place (the tree was just parsed off the channel and is ours). */
function untag(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let k = 0; k < value.length; k++) value[k] = untag(value[k]);
    return value;
  }
  const original = untagged(value);
  if (original !== undefined) return original;
  for (const key of Object.keys(value)) Reflect.set(value, key, untag(Reflect.get(value, key)));
  return value;
}

/** The tree encodeStatement made, after the channel; it comes from svc's own workers, so its shape is trusted. */
export function decodeStatement(encoded: EncodedStatement): Statement {
  const tree = encoded.tagged ? untag(encoded.tree) : encoded.tree;
  return tree as Statement;
}
