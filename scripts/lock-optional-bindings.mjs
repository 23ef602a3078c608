// Re-adds lock entries for DuckDB's per-platform optional bindings after an `npm install`. The registry mirror
// here serves only this platform's package, so npm drops the others from package-lock.json and `npm ci` on a
// clean machine then refuses the lock as out of sync. The entries carry no tarball: npm skips them by os/cpu.
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const parent = lock.packages['node_modules/@duckdb/node-bindings'];
if (parent === undefined) process.exit(0);
const platforms = {
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'darwin-x64': { os: ['darwin'], cpu: ['x64'] },
  'linux-arm64': { os: ['linux'], cpu: ['arm64'], libc: ['glibc'] },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'win32-arm64': { os: ['win32'], cpu: ['arm64'] },
  'win32-x64': { os: ['win32'], cpu: ['x64'] },
};
let added = 0;
for (const [suffix, target] of Object.entries(platforms)) {
  const key = `node_modules/@duckdb/node-bindings-${suffix}`;
  if (lock.packages[key] !== undefined) continue;
  lock.packages[key] = { version: parent.version, ...target, dev: true, license: 'MIT', optional: true };
  added++;
}
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock: ${added} optional DuckDB binding entries added`);
