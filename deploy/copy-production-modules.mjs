// Offline alternative to `npm ci --omit=dev` for deploy/install.sh --node-modules-from: copies, from an
// existing node_modules (same lockfile, already built native addons), exactly the top-level packages that
// package-lock.json does not mark dev-only. Nested node_modules come along inside their parent package.
// Usage: node copy-production-modules.mjs <package-lock.json> <from node_modules> <to node_modules>
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [lockPath, fromDir, toDir] = process.argv.slice(2);
if (lockPath === undefined || fromDir === undefined || toDir === undefined) {
  process.stderr.write('usage: copy-production-modules.mjs <package-lock.json> <from node_modules> <to node_modules>\n');
  process.exit(2);
}

const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages ?? {};
let copied = 0;
const missing = [];
for (const [key, entry] of Object.entries(packages)) {
  // Top-level entries only ("node_modules/x" or "node_modules/@scope/x"); "" is the project itself.
  if (!key.startsWith('node_modules/') || key.indexOf('/node_modules/') >= 0) continue;
  if (entry.dev === true) continue;
  const name = key.slice('node_modules/'.length);
  const source = join(fromDir, name);
  if (!existsSync(source)) {
    // Platform-specific optional packages for other systems are legitimately absent.
    if (entry.optional === true || entry.devOptional === true) continue;
    missing.push(name);
    continue;
  }
  mkdirSync(dirname(join(toDir, name)), { recursive: true });
  cpSync(source, join(toDir, name), { recursive: true, dereference: false, verbatimSymlinks: true });
  copied++;
}
if (missing.length > 0) {
  process.stderr.write(`copy-production-modules: missing in ${fromDir}: ${missing.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`copy-production-modules: ${copied} packages copied into ${toDir}\n`);
