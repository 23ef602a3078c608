// The object-store suite against fs:: (a directory tree with an atomic-write scratch dir on the same file system).
import test from 'ava';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openObjectStore } from '../../src/objectstore/open-object-store.js';
import { registerObjectStoreCases } from '../helpers/objectstore-cases.js';

const base = mkdtempSync(join(tmpdir(), 'svc-objstore-fs-'));
let rootCount = 0;
test.after.always(() => rmSync(base, { recursive: true, force: true }));

registerObjectStoreCases({
  kind: 'fs',
  open: (overrides = {}) => {
    rootCount++;
    return openObjectStore(`fs::root=${join(base, `store-${rootCount}`, 'final')};atomic_write_dir=${join(base, `store-${rootCount}`, 'scratch')};`, overrides);
  },
  scratchDir: () => base,
  lease: { leaseMs: 600, settleMs: 50 },
});

test('fs: writes leave nothing behind in atomic_write_dir, and open creates missing directories', async (t) => {
  const root = join(base, 'tidy', 'deep', 'final');
  const scratch = join(base, 'tidy', 'scratch');
  const store = await openObjectStore(`fs::root=${root};atomic_write_dir=${scratch};`);
  await store.put('k/1', Buffer.from('one'));
  t.is(await store.putIfAbsent('k/1', Buffer.from('two')), 'exists');
  t.deepEqual(readdirSync(scratch), []);
  t.deepEqual(readdirSync(join(root, 'k')), ['1']);
  await store.close();
});
