// Parsed statements as text, for the hop from a worker to the primary: a write statement is parsed (and its
// parameters filled) once, in the worker that received it, and the primary runs the tree it is given. The tree
// is plain data except for values JSON cannot carry: LONG literals are bigints, and the `NaN` literal (and
// infinities, -0) are numbers JSON would turn into null or 0. Those travel tagged, `{"$bigint":"<digits>"}` and
// `{"$number":"NaN"}`.
import type { Statement } from './ast.js';

const BIGINT_TAG = '$bigint';
const NUMBER_TAG = '$number';

export function encodeStatement(statement: Statement): string {
  return JSON.stringify(statement, (_key, value: unknown) => {
    if (typeof value === 'bigint') return { [BIGINT_TAG]: value.toString() };
    if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) return { [NUMBER_TAG]: Object.is(value, -0) ? '-0' : String(value) };
    return value;
  });
}

/** The tree encodeStatement wrote; the text comes from svc's own workers, so its shape is trusted. */
export function decodeStatement(text: string): Statement {
  const tree: unknown = JSON.parse(text, (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length !== 1) return value;
    const digits: unknown = Reflect.get(value, BIGINT_TAG);
    if (typeof digits === 'string') return BigInt(digits);
    const number: unknown = Reflect.get(value, NUMBER_TAG);
    if (typeof number === 'string') return Number(number);
    return value;
  });
  return tree as Statement;
}
