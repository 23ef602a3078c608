// Bind parameters: `$n` parses to a parameter node at its position, the count is the highest index, values
// fill a copy (the parse result is unchanged) and bind as typed constants; bad values fail at the parameter.
import test from 'ava';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import { bindParameter, fillParameters, parameterCountOf, parametersOf } from '../../../../src/sql/bind/bind-parameters.js';
import { SqlError } from '../../../../src/core/errors.js';

test('$n is a parameter node at its position; the count is the highest index', (t) => {
  const statement = parseStatement('select x from t where x > $2 and y = $1 or z = $2');
  const parameters = parametersOf(statement);
  t.deepEqual(parameters.map((p) => [p.index, p.position]), [[2, 26], [1, 37], [2, 47]]);
  t.is(parameterCountOf(statement), 2);
  t.is(parameterCountOf(parseStatement('select 1')), 0);
});

test('an out-of-range index is a syntax error at the parameter', (t) => {
  const error = t.throws(() => parseStatement('select $99999'), { instanceOf: SqlError });
  t.is(error?.position, 7);
});

test('filling copies: the prepared parse result keeps no values', (t) => {
  const statement = parseStatement('insert into t values ($1, $2)');
  const filled = fillParameters(statement, [{ type: 'LONG', text: '9007199254740993' }, { type: 'VARCHAR', text: null }]);
  t.true(parametersOf(statement).every((p) => p.value === undefined));
  t.deepEqual(parametersOf(filled).map((p) => p.value), [{ type: 'LONG', text: '9007199254740993' }, { type: 'VARCHAR', text: null }]);
  t.throws(() => fillParameters(statement, [{ type: 'INT', text: '1' }]), { message: 'no value bound for parameter $2' });
});

test('filled parameters bind as typed constants; NULL binds as the NULL literal', (t) => {
  const [long, timestamp, bool, nul, bin] = parametersOf(fillParameters(parseStatement('select $1, $2, $3, $4, $5'), [
    { type: 'LONG', text: '9007199254740993' }, { type: 'TIMESTAMP', text: '1704067200000000' }, { type: 'BOOLEAN', text: 'true' },
    { type: 'INT', text: null }, { type: 'BINARY', text: '00ff' },
  ]));
  if (long === undefined || timestamp === undefined || bool === undefined || nul === undefined || bin === undefined) throw new Error('five parameters');
  t.like(bindParameter(long), { type: 'LONG', exact: 9007199254740993n });
  t.like(bindParameter(timestamp), { type: 'TIMESTAMP', value: 1704067200000000 });
  t.like(bindParameter(bool), { type: 'BOOLEAN', value: true });
  t.like(bindParameter(nul), { type: 'NULL', value: null });
  t.deepEqual(bindParameter(bin).value, Uint8Array.from([0, 255]));
});

test('values that do not fit their type fail at the parameter position', (t) => {
  const [p] = parametersOf(fillParameters(parseStatement('select   $1'), [{ type: 'INT', text: 'abc' }]));
  if (p === undefined) throw new Error('one parameter');
  const error = t.throws(() => bindParameter(p), { instanceOf: SqlError });
  t.is(error?.position, 9);
  t.regex(error?.message ?? '', /invalid value for parameter \$1 \[type=INT, value=abc\]/);
  const [big] = parametersOf(fillParameters(parseStatement('select $1'), [{ type: 'LONG', text: '9223372036854775808' }]));
  if (big === undefined) throw new Error('one parameter');
  t.throws(() => bindParameter(big), { instanceOf: SqlError });
});
