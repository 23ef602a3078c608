// Names become directories and files: found by the /imp fuzzer. An import `name` that climbs out of db/ or is
// too long for a file name is a 400 and writes nothing; long column names get shortened file stems; RENAME
// checks the new name like CREATE does.
import test from 'ava';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';
import { importCsv } from '../helpers/upload.js';

test('table and column names never escape db/ or exceed file-name limits', async (t) => {
  const server = await startServer({ workers: 1 });
  try {
    for (const name of ['../x', '..', 'a/b', '.hidden', 'x'.repeat(200)]) {
      const upload = await importCsv(server.baseUrl, { name, fmt: 'json' }, [{ name: 'data', filename: 'f.csv', content: 'a,b\n1,2\n' }]);
      t.is(upload.status, 400, `${name.slice(0, 20)}: ${upload.text}`);
      t.regex(upload.text, /invalid table name/);
    }
    t.deepEqual(readdirSync(server.rootDir).filter((name) => !name.startsWith('.')).sort(), ['conf', 'db', 'log', 'public'], 'nothing written outside db/');

    const long = 'c'.repeat(300);
    const upload = await importCsv(server.baseUrl, { name: 'wide_names', fmt: 'json' }, [{ name: 'data', filename: 'f.csv', content: `${long},b\n1,2\n` }]);
    t.is(upload.status, 200, upload.text);
    t.deepEqual(await rows(server.baseUrl, `select ${long}, b from wide_names`), [[1, 2]]);
    await execOk(server.baseUrl, `create table lc (a int, ${long} int)`);
    await execOk(server.baseUrl, `alter table lc add column ${long}x int`);
    await execOk(server.baseUrl, 'insert into lc values (1, 2, 3)');
    t.deepEqual(await rows(server.baseUrl, 'select * from lc'), [[1, 2, 3]]);
    const renamed = await exec(server.baseUrl, `rename table lc to ${'y'.repeat(300)}`);
    t.is(renamed.status, 400, renamed.text);
    t.regex(renamed.text, /invalid table name/);
    t.true(readdirSync(join(server.rootDir, 'db')).includes('lc'), 'the table keeps its name');
  } finally {
    await server.stop();
    server.cleanup();
  }
});
