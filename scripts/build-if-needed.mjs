// Builds dist/ when it is missing or older than any source file (server or console), so `npm start` works on a
// fresh clone.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

function newestMtimeMs(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtimeMs(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

/** Each build output with the source tree it is made from. */
const outputs = [
  { entry: 'dist/main.js', sources: 'src' },
  { entry: 'dist/console/index.html', sources: 'console' },
];
const stale = outputs.some(({ entry, sources }) => !existsSync(entry) || statSync(entry).mtimeMs < newestMtimeMs(sources));
if (stale) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
