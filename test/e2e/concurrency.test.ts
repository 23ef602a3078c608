// Concurrent writers and readers through 2 workers: each INSERT commits 10 rows of one batch atomically,
// so a reader must never see a batch with fewer than 10 rows, and counts only grow. Single-row INSERTs sent
// at once commit in shared groups, and a bad one fails alone.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 2 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

test('readers never see a partial commit', async (t) => {
  await execOk(server.baseUrl, 'create table conc (grp int, k int, ts timestamp) timestamp(ts) partition by DAY');
  const writers = Array.from({ length: 4 }, (_, writer) => (async () => {
    for (let round = 0; round < 15; round++) {
      const batch = writer * 100 + round;
      const values = Array.from({ length: 10 }, (_, k) => `(${batch}, ${k}, '2024-01-0${1 + (k % 3)}T00:00:00.${String(batch).padStart(6, '0')}Z')`);
      await execOk(server.baseUrl, `insert into conc values ${values.join(', ')}`);
    }
  })());
  let lastTotal = 0;
  let checks = 0;
  const reader = (async () => {
    let writing = true;
    void Promise.all(writers).then(() => { writing = false; });
    while (writing || checks < 3) {
      const groups = (await rows(server.baseUrl, 'select grp, count(*) from conc')) as [number, number][];
      const total = groups.reduce((sum, [, count]) => sum + count, 0);
      for (const [batch, count] of groups) t.is(count, 10, `batch ${batch} is complete`);
      t.true(total >= lastTotal, 'counts only grow');
      lastTotal = total;
      checks++;
    }
  })();
  await Promise.all([...writers, reader]);
  t.deepEqual(await rows(server.baseUrl, 'select count(*) from conc'), [[600]]);
  t.true(checks > 3);
});

test('single-row INSERTs sent at once are acknowledged each with its own outcome; a bad one fails alone', async (t) => {
  await execOk(server.baseUrl, 'create table burst (ts timestamp, sym symbol, v double) timestamp(ts) partition by DAY WAL');
  const good = (k: number): string => `insert into burst values('2024-01-01T00:00:${String(k % 60).padStart(2, '0')}Z', 's${k % 7}', ${k})`;
  // Every sixth statement fails in its own way: a value the column cannot hold, an unknown column, an unknown table.
  const bad = ["insert into burst values('2024-01-01', 'x', 'not a number')", 'insert into burst (nope) values(1)', 'insert into no_such_table values(1)'];
  const statements = Array.from({ length: 60 }, (_, k) => (k % 6 === 5 ? (bad[(k / 6 | 0) % bad.length] as string) : good(k)));
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(statements.map((statement) => exec(server.baseUrl, statement)));
    answers.forEach((answer, k) => t.is(answer.status, k % 6 === 5 ? 400 : 200, `${statements[k] ?? ''} → ${answer.text}`));
  }
  t.deepEqual(await rows(server.baseUrl, 'select count(*), sum(v) from burst'), [[150, 3 * statements.reduce((sum, _, k) => sum + (k % 6 === 5 ? 0 : k), 0)]]);
});

test('a bad INSERT among statements of its own VALUES shape fails alone, with the error and position it has alone', async (t) => {
  await execOk(server.baseUrl, 'create table same_shape (ts timestamp, sym symbol, v double) timestamp(ts) partition by DAY WAL');
  const good = (k: number): string => `insert into same_shape values('2024-01-02T00:00:${String(k % 60).padStart(2, '0')}Z', 's${k % 5}', ${k})`;
  // Both have the good statements' shape (string, string, integer); one fails binding, the other the designated timestamp check.
  const bad = ["insert into same_shape values('not a time', 'x', 1)", "insert into same_shape values('1969-12-31T00:00:00Z', 'xyz', 12345)"];
  const alone = await Promise.all(bad.map((statement) => exec(server.baseUrl, statement)));
  for (const answer of alone) t.is(answer.status, 400, answer.text);
  const statements = Array.from({ length: 40 }, (_, k) => (k % 8 === 7 ? (bad[(k >> 3) % 2] as string) : good(k)));
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(statements.map((statement) => exec(server.baseUrl, statement)));
    answers.forEach((answer, k) => {
      if (k % 8 !== 7) t.is(answer.status, 200, `${statements[k] ?? ''} → ${answer.text}`);
      else t.deepEqual(answer.json, alone[(k >> 3) % 2]?.json, `${statements[k] ?? ''} → ${answer.text}`);
    });
  }
  t.deepEqual(await rows(server.baseUrl, 'select count(*), sum(v) from same_shape'), [[105, 3 * statements.reduce((sum, _, k) => sum + (k % 8 === 7 ? 0 : k), 0)]]);
});
