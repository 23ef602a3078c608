// The files a process's ILP requests stage their rows in (storage/staged-chunks.ts), under db/.staging/, reused
// from one committed request to the next instead of a new file per request that the primary deleted after
// reading it: on this VM the kernel's write into a file's new pages cost about ten times an overwrite of pages
// the file already has, and the staged write was a tenth of a worker's CPU under ILP load. A file goes back to
// the pool only after its request's commit succeeded, which the primary answers after reading it; after any
// failure the request deletes it instead, since the primary may still read a file whose answer never came (an
// IPC timeout). Invariants: a pooled file is in no request's hands; at most `filesMax` are kept; after
// `idleMs` without a take every kept file is deleted; names start with the process id (stagedFilePrefix), so
// the primary deletes the files of a worker that died.
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import { assert } from '../core/assert.js';
import { IdleCheck, realIdleTimers, type IdleTimers } from '../core/idle-check.js';
import { ilpStagedFilesIdleMs, ilpStagedFilesMax } from '../core/limits.js';

export interface StagedFilePoolOptions extends IdleTimers {
  readonly filesMax: number;
  readonly idleMs: number;
}

/** The start of every staged file name of process `pid`. */
export function stagedFilePrefix(pid: number): string {
  return `ilp-${pid}-`;
}

export class StagedFilePool {
  private readonly kept: string[] = [];
  private created = 0;
  private readonly idle: IdleCheck;

  constructor(private readonly options: StagedFilePoolOptions, private readonly pid: number = process.pid) {
    assert(options.filesMax >= 0, 'a staged file pool keeps a non-negative number of files');
    this.idle = new IdleCheck(options.idleMs, options, () => this.kept.length > 0, () => this.deleteKept());
  }

  /** A kept file of `dir` (its old bytes are overwritten, not cut), or a new name there. */
  take(dir: string): string {
    this.idle.markUse();
    // Files of another directory stay for their own takes (one process serves one root; tests serve several).
    const index = this.kept.findLastIndex((path) => dirname(path) === dir);
    if (index >= 0) return this.kept.splice(index, 1)[0];
    this.created++;
    return join(dir, `${stagedFilePrefix(this.pid)}${this.created}.chunks`);
  }

  /** A file whose request committed: kept for the next take, or deleted past the bound. */
  give(path: string): void {
    assert(!this.kept.includes(path), 'a staged file is given back once per take');
    if (this.kept.length >= this.options.filesMax) {
      fs.rmSync(path, { force: true });
      return;
    }
    this.kept.push(path);
    this.idle.arm();
  }

  /** Files kept now. */
  get keptCount(): number {
    return this.kept.length;
  }

  private deleteKept(): void {
    for (const path of this.kept.splice(0)) fs.rmSync(path, { force: true });
  }
}

/** Deletes the staged files of process `pid` in `dir` (a worker that exited: its pool went with it). */
export function removeStagedFilesOf(dir: string, pid: number): void {
  const prefix = stagedFilePrefix(pid);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(prefix)) fs.rmSync(join(dir, name), { force: true });
}

/** This process's pool: real clock, unref'd timers. */
export const stagedFiles = new StagedFilePool({ filesMax: ilpStagedFilesMax, idleMs: ilpStagedFilesIdleMs, ...realIdleTimers });
