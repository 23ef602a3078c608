// Concurrent writers and readers through 2 workers: each INSERT commits 10 rows of one batch atomically,
// so a reader must never see a batch with fewer than 10 rows, and counts only grow.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { execOk, rows } from '../helpers/http.js';

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
