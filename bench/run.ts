// npm run bench: runs every bench file in order and prints its figures tables.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const dir = import.meta.dirname;
const only = process.argv[2];
// Servers the benches start get the allocator setting `npm start` and the systemd unit give them (README,
// Operations), so the figures are those of the server as deployed. Tests keep glibc's default: the compile-cache
// test reads a worker's RSS floor, which the 64 MiB the setting keeps above the heap would move.
const env = { ...process.env, MALLOC_TOP_PAD_: process.env['MALLOC_TOP_PAD_'] ?? '67108864' };
const files = readdirSync(dir).filter((name) => name.endsWith('.bench.ts') && (only === undefined || name.includes(only))).sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit', env });
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
