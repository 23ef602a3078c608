// npm run bench: runs every bench file in order and prints its figures tables.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const dir = import.meta.dirname;
const only = process.argv[2];
// Servers the benches start get the allocator settings `npm start` and the systemd unit give them (README,
// Operations), so the figures are those of the server as deployed; each can be overridden from the environment.
// Tests keep glibc's default: the compile-cache test reads a worker's RSS floor, which memory the settings keep
// would move.
const ALLOCATOR_DEFAULTS: Readonly<Record<string, string>> = {
  MALLOC_TOP_PAD_: '67108864',
  MALLOC_MMAP_THRESHOLD_: '67108864',
  MALLOC_TRIM_THRESHOLD_: '134217728',
};
const env: Record<string, string | undefined> = { ...process.env };
for (const [name, value] of Object.entries(ALLOCATOR_DEFAULTS)) env[name] = process.env[name] ?? value;
const files = readdirSync(dir).filter((name) => name.endsWith('.bench.ts') && (only === undefined || name.includes(only))).sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit', env });
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
