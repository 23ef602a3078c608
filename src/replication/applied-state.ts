// The replica's durable position: the last sequence number whose objects are fully applied, in
// <root>/replication/applied.json, replaced atomically and fsynced after each apply. A kill -9 before the
// record leaves the old number, and the object is applied again (idempotently) at the next start.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '../core/errors.js';

export function appliedStatePath(rootDir: string): string {
  return join(rootDir, 'replication', 'applied.json');
}

/** The recorded sequence number, or null when this root never followed a primary. */
export function readAppliedSeq(rootDir: string): number | null {
  const path = appliedStatePath(rootDir);
  if (!fs.existsSync(path)) return null;
  const value: unknown = JSON.parse(fs.readFileSync(path, 'utf8'));
  if (typeof value !== 'object' || value === null || !Number.isSafeInteger((value as Record<string, unknown>)['appliedSeq'])) {
    throw new SvcError('SVC_STORAGE', `malformed replication state [path=${path}]`, 500);
  }
  return (value as Record<string, number>)['appliedSeq'] ?? null;
}

export function writeAppliedSeq(rootDir: string, appliedSeq: number): void {
  const path = appliedStatePath(rootDir);
  fs.mkdirSync(join(rootDir, 'replication'), { recursive: true });
  const temporary = `${path}.tmp`;
  const fd = fs.openSync(temporary, 'w');
  try {
    fs.writeSync(fd, JSON.stringify({ appliedSeq, appliedAtMs: Date.now() }));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, path);
}

/** A promoted replica stops following: its position no longer means anything. */
export function clearAppliedSeq(rootDir: string): void {
  fs.rmSync(appliedStatePath(rootDir), { force: true });
}
