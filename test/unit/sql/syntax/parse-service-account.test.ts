// Service-account statements: the four forms, TTL and token kept as written with their positions, and
// positioned errors for the usual mistakes; CREATE/DROP/ALTER TABLE are not disturbed.
import test from 'ava';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import { SqlError } from '../../../../src/core/errors.js';

test('the four forms', (t) => {
  t.deepEqual(parseStatement('CREATE SERVICE ACCOUNT ingest'), { kind: 'serviceAccount', position: 0, account: { name: 'ingest', position: 23 }, action: 'create' });
  t.deepEqual(parseStatement('drop service account "My App";'), { kind: 'serviceAccount', position: 0, account: { name: 'My App', position: 21 }, action: 'drop' });
  t.deepEqual(parseStatement("alter service account a create token type rest with ttl '30d'"), {
    kind: 'serviceAccount', position: 0, account: { name: 'a', position: 22 }, action: 'createToken', ttl: { text: '30d', position: 56 },
  });
  t.deepEqual(parseStatement('ALTER SERVICE ACCOUNT a CREATE TOKEN TYPE REST'), { kind: 'serviceAccount', position: 0, account: { name: 'a', position: 22 }, action: 'createToken' });
  t.deepEqual(parseStatement("ALTER SERVICE ACCOUNT a DROP TOKEN TYPE REST 'svc_x'"), {
    kind: 'serviceAccount', position: 0, account: { name: 'a', position: 22 }, action: 'dropToken', token: { text: 'svc_x', position: 45 },
  });
});

test('mistakes are positioned errors', (t) => {
  const cases: [string, number][] = [
    ['CREATE SERVICE ACCOUNT', 22],
    ['ALTER SERVICE ACCOUNT a', 23],
    ['ALTER SERVICE ACCOUNT a CREATE TOKEN TYPE JWK', 42],
    ['ALTER SERVICE ACCOUNT a CREATE TOKEN TYPE REST WITH TTL 30', 56],
    ['ALTER SERVICE ACCOUNT a CREATE TOKEN TYPE REST WITH TTL', 55],
    ['CREATE SERVICE ACCOUNT a extra', 25],
  ];
  for (const [sql, position] of cases) {
    const error = t.throws(() => parseStatement(sql), { instanceOf: SqlError }, sql);
    t.is(error?.position, position, sql);
  }
});

test('table statements starting with the same words still parse as before', (t) => {
  t.is(parseStatement('create table service (x int)').kind, 'createTable');
  t.is(parseStatement('drop table service').kind, 'dropTable');
  t.is(parseStatement('alter table service add column y int').kind, 'alterTable');
});
