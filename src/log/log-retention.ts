// Retention for rolling log files: delete a writer's own files that are too old, then its oldest files until the
// rest fits the size limit. Only files whose names the writer's location can produce are touched, so a log
// directory shared with other files (or with other writers) is safe. QuestDB deletes in directory order; oldest
// first (by modification time) is what operators expect and keeps the most recent history.
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { reportWriterFailure } from './log-writer.js';

export interface RetentionPolicy {
  readonly writerName: string;
  readonly directory: string;
  readonly familyPattern: RegExp;
  /** 0 = no age bound. */
  readonly lifeDurationMs: number;
  /** 0 = no size bound. */
  readonly sizeLimitBytes: number;
}

interface LogFileEntry {
  readonly path: string;
  readonly mtimeMs: number;
  readonly sizeBytes: number;
}

/** Applies `policy`, never deleting `currentPath`; returns the paths deleted. */
export function applyRetention(policy: RetentionPolicy, currentPath: string, currentSizeBytes: number, nowMillis: number): string[] {
  if (policy.lifeDurationMs === 0 && policy.sizeLimitBytes === 0) return [];
  const deleted: string[] = [];
  const kept: LogFileEntry[] = [];
  for (const entry of listFamily(policy, currentPath)) {
    if (policy.lifeDurationMs > 0 && nowMillis - entry.mtimeMs > policy.lifeDurationMs) {
      if (deleteFile(policy, entry.path)) deleted.push(entry.path);
    } else {
      kept.push(entry);
    }
  }
  if (policy.sizeLimitBytes === 0) return deleted;
  kept.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
  let totalBytes = currentSizeBytes;
  for (const entry of kept) totalBytes += entry.sizeBytes;
  for (const entry of kept) {
    if (totalBytes <= policy.sizeLimitBytes) break;
    if (deleteFile(policy, entry.path)) {
      deleted.push(entry.path);
      totalBytes -= entry.sizeBytes;
    }
  }
  return deleted;
}

function listFamily(policy: RetentionPolicy, currentPath: string): LogFileEntry[] {
  let names: string[];
  try {
    names = readdirSync(policy.directory);
  } catch (error) {
    reportWriterFailure(policy.writerName, `could not list ${policy.directory} for retention`, error);
    return [];
  }
  const entries: LogFileEntry[] = [];
  for (const name of names) {
    if (!policy.familyPattern.test(name)) continue;
    const path = join(policy.directory, name);
    if (path === currentPath) continue;
    try {
      const stats = statSync(path);
      if (stats.isFile()) entries.push({ path, mtimeMs: stats.mtimeMs, sizeBytes: stats.size });
    } catch {
      // Deleted by someone else between readdir and stat: nothing to retain.
    }
  }
  return entries;
}

function deleteFile(policy: RetentionPolicy, path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (error) {
    reportWriterFailure(policy.writerName, `could not delete old log file ${path}`, error);
    return false;
  }
}
