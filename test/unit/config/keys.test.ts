// Integrity of the key table: env names, defaults, and the generated documents that must not drift from it.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderConfigTable, renderDefaultServerConf, spliceConfigTable, README_TABLE_START } from '../../../src/config/config-docs.js';
import { KEY_GROUPS, SERVER_KEYS, envNameForKey, findServerKey, findServerKeyByEnvName } from '../../../src/config/keys.js';
import { parseKeyValue } from '../../../src/config/parse-key-value.js';

const repoFile = (relative: string): string => fileURLToPath(new URL(`../../../${relative}`, import.meta.url));

test('every key and alias has a unique name and a unique env name that maps back to it', (t) => {
  const names = SERVER_KEYS.flatMap((key) => [key.name, ...(key.aliases ?? [])]);
  t.is(new Set(names).size, names.length, 'names are unique');
  const envNames = names.map(envNameForKey);
  t.is(new Set(envNames).size, envNames.length, 'env names are unique');
  for (const key of SERVER_KEYS) {
    const envName = envNameForKey(key.name);
    t.regex(envName, /^SVC_[A-Z0-9_]+$/, `${envName} can be exported from a POSIX shell`);
    t.is(findServerKeyByEnvName(envName), key, `${envName} round-trips to ${key.name}`);
    t.is(findServerKey(key.name), key);
  }
});

test('env name rule: SVC_ + upper case, . and - become _', (t) => {
  t.is(envNameForKey('http.keep-alive.timeout'), 'SVC_HTTP_KEEP_ALIVE_TIMEOUT');
  t.is(envNameForKey('query.timeout'), 'SVC_QUERY_TIMEOUT');
});

test('every default parses under its own key, and enums and groups are consistent', (t) => {
  for (const key of SERVER_KEYS) {
    t.notThrows(() => parseKeyValue(key, key.default, 'default'), key.name);
    t.true(KEY_GROUPS.includes(key.group), `${key.name} has a known group`);
    t.is(key.type === 'enum', (key.enumValues ?? []).length > 0, `${key.name}: enumValues iff enum`);
    t.true(key.description.endsWith('.'), `${key.name} description is a sentence`);
  }
});

test('conf/server.conf is exactly what the generator produces', (t) => {
  const shipped = readFileSync(repoFile('conf/server.conf'), 'utf8');
  t.is(shipped, renderDefaultServerConf(), 'run: npx tsx scripts/render-config-docs.ts --write-conf');
});

test('the default conf lists every key commented out with its default', (t) => {
  const lines = renderDefaultServerConf().split('\n');
  for (const key of SERVER_KEYS) t.true(lines.includes(`#${key.name}=${key.default ?? ''}`), key.name);
  t.false(lines.some((line) => line.length > 0 && !line.startsWith('#')), 'no active line');
});

test('the README table has one row per key with env name and default', (t) => {
  const rows = renderConfigTable().trimEnd().split('\n');
  t.is(rows.length, SERVER_KEYS.length + 2);
  SERVER_KEYS.forEach((key, index) => {
    const row = rows[index + 2] ?? '';
    t.true(row.startsWith(`| \`${key.name}\` | \`${envNameForKey(key.name)}\` |`), key.name);
    t.true(row.includes(key.default === null ? '| unset |' : `| \`${key.default}\` |`), `${key.name} default`);
  });
});

test('spliceConfigTable replaces the text between the markers and needs both', (t) => {
  const readme = `# svc\n\n${README_TABLE_START}\nold table\n<!-- server-config-table:end -->\n\nafter\n`;
  const spliced = spliceConfigTable(readme);
  t.truthy(spliced);
  t.true(spliced?.includes(renderConfigTable()));
  t.false(spliced?.includes('old table'));
  t.true(spliced?.endsWith('<!-- server-config-table:end -->\n\nafter\n'));
  t.is(spliceConfigTable('# no markers\n'), null);
});

// README.md belongs to the docs owner; once it carries the markers, its table must match keys.ts.
const readmePath = repoFile('README.md');
const readme = existsSync(readmePath) ? readFileSync(readmePath, 'utf8') : '';
(readme.includes(README_TABLE_START) ? test : test.skip)('README.md configuration table matches keys.ts', (t) => {
  t.is(spliceConfigTable(readme), readme, 'run: npx tsx scripts/render-config-docs.ts --readme README.md');
});
