// GET /warnings: what the operator should fix on this host, as the JSON array QuestDB's WarningsProcessor sends
// (`[{"tag":"...","warning":"..."}]`, `[]` when all is well). Like QuestDB's it needs no credentials, so it says
// nothing but limits and sizes (no paths). Readings are cheap but not free (three file reads and a statfs), so
// each process reuses them for systemWarningsCacheMs.
import type { ServerResponse } from 'node:http';
import { readFileSync, statfsSync } from 'node:fs';
import { systemWarningsCacheMs } from '../../core/limits.js';
import { jsonString } from '../../types/value-format.js';

/** QuestDB's recommended minimum for both the open-file limit and vm.max_map_count (WarningsProcessor). */
export const RECOMMENDED_OPEN_FILES_MIN = 1_048_576;
export const RECOMMENDED_MAP_COUNT_MIN = 1_048_576;
/** The database disk should keep at least this much free, and at least DISK_FREE_FRACTION_MIN of its size. */
export const DISK_FREE_BYTES_MIN = 1024 ** 3;
export const DISK_FREE_FRACTION_MIN = 0.05;

/** What the checks read; undefined where the platform does not say (not Linux, no such file). */
export interface SystemReadings {
  /** Soft RLIMIT_NOFILE of this process; Infinity when unlimited. */
  readonly openFilesLimit: number | undefined;
  readonly mapCountLimit: number | undefined;
  readonly disk: { readonly freeBytes: number; readonly totalBytes: number } | undefined;
}

export interface SystemWarning {
  /** QuestDB's ErrorTag text. */
  readonly tag: 'TOO MANY OPEN FILES' | 'OUT OF MMAP AREAS' | 'DISK FULL';
  readonly warning: string;
}

/** The warnings the readings call for, in QuestDB's order (open files, map count), then the disk. */
export function warningsOf(readings: SystemReadings): SystemWarning[] {
  const warnings: SystemWarning[] = [];
  const files = readings.openFilesLimit;
  if (files !== undefined && files > 0 && files < RECOMMENDED_OPEN_FILES_MIN) {
    // QuestDB's text says fs.file-max although the figure is the process's open-file limit (ulimit -n).
    warnings.push({ tag: 'TOO MANY OPEN FILES', warning: `fs.file-max limit is too low [current=${files}, recommended=${RECOMMENDED_OPEN_FILES_MIN}]` });
  }
  const maps = readings.mapCountLimit;
  if (maps !== undefined && maps > 0 && maps < RECOMMENDED_MAP_COUNT_MIN) {
    warnings.push({ tag: 'OUT OF MMAP AREAS', warning: `vm.max_map_count limit is too low [current=${maps}, recommended=${RECOMMENDED_MAP_COUNT_MIN}]` });
  }
  const disk = readings.disk;
  if (disk !== undefined && disk.totalBytes > 0) {
    const recommended = Math.max(DISK_FREE_BYTES_MIN, Math.ceil(disk.totalBytes * DISK_FREE_FRACTION_MIN));
    if (disk.freeBytes < recommended) {
      warnings.push({ tag: 'DISK FULL', warning: `database disk is nearly full [free=${disk.freeBytes}, total=${disk.totalBytes}, recommended=${recommended}]` });
    }
  }
  return warnings;
}

export function warningsJson(warnings: readonly SystemWarning[]): string {
  return `[${warnings.map((w) => `{"tag":${jsonString(w.tag)},"warning":${jsonString(w.warning)}}`).join(',')}]`;
}

/** Reads this host's limits and the free space of the file system holding `dbDir`. */
export function readSystemReadings(dbDir: string): SystemReadings {
  return { openFilesLimit: readOpenFilesLimit(), mapCountLimit: readMapCountLimit(), disk: readDiskSpace(dbDir) };
}

function readOpenFilesLimit(): number | undefined {
  const limits = readTextQuietly('/proc/self/limits');
  const soft = limits === undefined ? undefined : /^Max open files\s+(\S+)/m.exec(limits)?.[1];
  if (soft === undefined) return undefined;
  if (soft === 'unlimited') return Infinity;
  return /^\d+$/.test(soft) ? Number(soft) : undefined;
}

function readMapCountLimit(): number | undefined {
  const text = readTextQuietly('/proc/sys/vm/max_map_count')?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

function readDiskSpace(dbDir: string): SystemReadings['disk'] {
  try {
    const stats = statfsSync(dbDir);
    return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
  } catch {
    return undefined;
  }
}

function readTextQuietly(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The /warnings body of one process, recomputed at most once per systemWarningsCacheMs. */
export class SystemWarningsCache {
  private body = '[]';
  private readAtMs = -Infinity;

  constructor(
    private readonly read: () => SystemReadings,
    private readonly nowMs: () => number = Date.now,
  ) {}

  current(): string {
    const now = this.nowMs();
    if (now - this.readAtMs >= systemWarningsCacheMs || now < this.readAtMs) {
      this.body = warningsJson(warningsOf(this.read()));
      this.readAtMs = now;
    }
    return this.body;
  }
}

export function handleWarnings(method: string, res: ServerResponse, cache: SystemWarningsCache): void {
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET', 'Content-Type': 'text/plain; charset=utf-8' }).end(`Method (${method}) not supported\r\n`);
    return;
  }
  // QuestDB names the type without a charset here.
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(method === 'HEAD' ? undefined : cache.current());
}
