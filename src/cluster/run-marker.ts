// Marks a root as in use by a running primary: `<root>/.svc-running` holds its pid and is removed by a clean
// shutdown. Finding it at start-up means the previous primary was killed or crashed (kill -9, power loss), which
// the new primary reports as a C record next to what recovery did.
import * as fs from 'node:fs';
import { join } from 'node:path';

const MARKER_NAME = '.svc-running';

/** Writes this process's marker; returns the pid the previous run left behind, if it did not stop cleanly. */
export function claimRunMarker(rootDir: string): string | undefined {
  const path = join(rootDir, MARKER_NAME);
  let previous: string | undefined;
  try {
    previous = fs.readFileSync(path, 'utf8').trim() || 'unknown';
  } catch {
    previous = undefined;
  }
  fs.writeFileSync(path, `${process.pid}\n`);
  return previous;
}

export function releaseRunMarker(rootDir: string): void {
  fs.rmSync(join(rootDir, MARKER_NAME), { force: true });
}
