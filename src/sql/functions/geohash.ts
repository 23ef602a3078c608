// GEOHASH functions: make_geohash(lon, lat, bits), rnd_geohash(bits), equality, and `g WITHIN (p1, p2, ...)`,
// the prefix test. The precision argument is a constant 1..60 that decides the result type.
import type { BoundExpr } from '../bind/bound.js';
import type { ValueType } from '../../types/column-type.js';
import { typeDisplayName } from '../../types/column-type.js';
import type { ScalarFunctionDef } from './signature.js';
import { geohashBits, geohashToBinary, geohashTypeOf, GEOHASH_BITS_MAX, isGeohashType } from '../../types/geohash.js';
import { constantNumber, requireConstantNumber } from './constant-args.js';
import { sqlSemanticError } from '../../core/errors.js';

/** The precision argument at `index`: a constant number of bits, 1..60. */
function precisionArgument(args: readonly BoundExpr[] | undefined, index: number): number {
  const arg = args?.[index];
  const bits = requireConstantNumber(arg, arg?.position ?? 0, 'precision');
  if (!Number.isInteger(bits) || bits < 1 || bits > GEOHASH_BITS_MAX) {
    throw sqlSemanticError(`precision must be in [1..${GEOHASH_BITS_MAX}] range`, arg?.position ?? 0);
  }
  return bits;
}

/** A constant coordinate out of range is an error, as in QuestDB; computed ones out of range give null. */
function checkConstantCoordinate(arg: BoundExpr | undefined, limit: number, name: string): void {
  const value = constantNumber(arg);
  if (value !== undefined && (value < -limit || value > limit)) {
    throw sqlSemanticError(`${name} must be in [-${limit}.0..${limit}.0] range`, arg?.position ?? 0);
  }
}

function bitsOf(type: ValueType | undefined): number {
  return type !== undefined && isGeohashType(type) ? geohashBits(type) : 0;
}

/**
 * `g WITHIN (p1, p2, ...)`: every argument after the first must be a GEOHASH (QuestDB's "cannot compare" error
 * otherwise). Constant prefixes become binary digits at bind time (null ones never match); other prefixes are
 * compared row by row. A prefix more precise than the value never matches.
 */
function prepareWithin(args: readonly BoundExpr[]): readonly string[] | undefined {
  const prefixes = args.slice(1);
  for (const arg of prefixes) {
    if (!isGeohashType(arg.type)) throw sqlSemanticError(`cannot compare GEOHASH with type ${typeDisplayName(arg.type)}`, arg.position);
  }
  if (!prefixes.every((arg) => arg.kind === 'constant')) return undefined;
  const bits = bitsOf(args[0]?.type);
  return prefixes.flatMap((arg) => {
    const prefixBits = bitsOf(arg.type);
    if (arg.kind !== 'constant' || arg.value === null || prefixBits > bits) return [];
    return [geohashToBinary(String(arg.value), prefixBits)];
  });
}

function emitWithin(args: readonly string[], constant: (value: unknown) => string, types: readonly ValueType[], prefixes: unknown): string {
  const [value, ...others] = args;
  const bits = bitsOf(types[0]);
  if (prefixes !== undefined) return `rt.geohashWithin(${value}, ${bits}, ${constant(prefixes)})`;
  const prefixBits = types.slice(1).map(bitsOf);
  return `rt.geohashWithinAny(${value}, ${bits}, [${others.join(', ')}], ${constant(prefixBits)})`;
}

const sameType = (types: readonly ValueType[]): boolean => types[0] === types[1];

export const GEOHASH_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    name: 'make_geohash', args: ['DOUBLE', 'DOUBLE', 'INT'],
    returns: (_types, args) => geohashTypeOf(precisionArgument(args, 2)),
    prepare: (args) => {
      checkConstantCoordinate(args[0], 180, 'longitude');
      checkConstantCoordinate(args[1], 90, 'latitude');
      return precisionArgument(args, 2);
    },
    emit: ([lon, lat], constant, _types, bits) => `rt.makeGeohash(${lon}, ${lat}, ${constant(bits)})`,
  },
  {
    name: 'rnd_geohash', args: ['INT'], volatile: true,
    returns: (_types, args) => geohashTypeOf(precisionArgument(args, 0)),
    prepare: (args) => precisionArgument(args, 0),
    emit: (_args, constant, _types, bits) => `rt.rndGeohash(${constant(bits)})`,
  },
  {
    name: 'within', args: ['GEOHASH', 'ANY'], variadic: true, returns: 'BOOLEAN',
    prepare: prepareWithin,
    emit: emitWithin,
  },
  // Values of different precisions are never equal.
  { name: '=', args: ['GEOHASH', 'GEOHASH'], returns: 'BOOLEAN', emit: ([a, b], _c, types) => (sameType(types) ? `(${a} === ${b})` : 'false') },
  { name: '!=', args: ['GEOHASH', 'GEOHASH'], returns: 'BOOLEAN', emit: ([a, b], _c, types) => (sameType(types) ? `(${a} !== ${b})` : 'true') },
];
