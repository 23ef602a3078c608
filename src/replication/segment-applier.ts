// Applies decoded replication objects to a replica's root, with the primary's commit atomicity: every file
// is written before the _txn that publishes it (capture order), a whole-file write goes to a temporary file
// that is fsynced and renamed over the old one, so readers see the old or the new file, never a part.
// Applying the same object twice leaves the same files (writes are positional and truncate to their end,
// deletes ignore missing files, a copy whose source went finds its target made), which is what makes a kill -9
// between apply and the recorded sequence safe. A copy writes a file no reader sees until a later _txn.
import * as fs from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { SvcError } from '../core/errors.js';
import { realFiles } from '../core/files.js';
import type { CopyOperation, DecodedSegment, WriteOperation } from './segment-codec.js';
import { ACCOUNTS_PATH } from './tracked-files.js';
import { isTableDirName } from '../storage/catalog.js';

export interface ApplyOutcome {
  /** The service-accounts file changed: the token lists must be reloaded. */
  readonly accountsChanged: boolean;
}

const TEMPORARY_SUFFIX = '.replica-tmp';

function writeWhole(path: string, bytes: Buffer): void {
  fs.mkdirSync(dirname(path), { recursive: true });
  const temporary = path + TEMPORARY_SUFFIX;
  const fd = fs.openSync(temporary, 'w');
  try {
    fs.writeSync(fd, bytes, 0, bytes.length, 0);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, path);
}

function writeAt(path: string, operation: WriteOperation, bytes: Buffer): void {
  const exists = fs.existsSync(path);
  // An append to a file this replica does not have means its files diverged from the primary's: only a
  // checkpoint can repair that.
  if (!exists && operation.offset > 0) throw new SvcError('SVC_STORAGE', `replica file is missing for an append [path=${operation.path}]`, 500);
  fs.mkdirSync(dirname(path), { recursive: true });
  const fd = fs.openSync(path, exists ? 'r+' : 'w');
  try {
    const size = fs.fstatSync(fd).size;
    if (size < operation.offset) throw new SvcError('SVC_STORAGE', `replica file is shorter than the primary's [path=${operation.path}, size=${size}, append at=${operation.offset}]`, 500);
    fs.writeSync(fd, bytes, 0, bytes.length, operation.offset);
    fs.ftruncateSync(fd, operation.offset + bytes.length);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Creates the file from a prefix of another. Applied again after a kill -9, the source may be gone (a later
 * operation of the same object deleted it); the target then exists already from the first attempt.
 */
function copyPrefix(rootDir: string, operation: CopyOperation): void {
  const from = join(rootDir, operation.from);
  const path = join(rootDir, operation.path);
  const sourceSize = fs.statSync(from, { throwIfNoEntry: false })?.size ?? -1;
  if (sourceSize < operation.length) {
    if ((fs.statSync(path, { throwIfNoEntry: false })?.size ?? -1) >= operation.length) return;
    throw new SvcError('SVC_STORAGE', `replica file is missing or short for a copy [from=${operation.from}, size=${sourceSize}, length=${operation.length}]`, 500);
  }
  fs.mkdirSync(dirname(path), { recursive: true });
  const source = fs.openSync(from, 'r');
  const target = fs.openSync(path, 'w');
  try {
    // In the kernel (copy_file_range), never through this process.
    const copied = realFiles.copyRange(source, target, operation.length, 0, 0);
    if (copied < operation.length) throw new SvcError('SVC_STORAGE', `replica file ended during a copy [from=${operation.from}]`, 500);
    // The write of the file's tail that follows in the same object fsyncs it.
  } finally {
    fs.closeSync(source);
    fs.closeSync(target);
  }
}

/** Removes directories left empty, up to (not including) the root's db/ or conf/. */
function removeEmptyParents(rootDir: string, path: string): void {
  let dir = dirname(path);
  const stops = new Set([rootDir, join(rootDir, 'db'), join(rootDir, 'conf')]);
  while (!stops.has(dir) && dir.startsWith(rootDir + sep)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      return; // not empty, or already gone
    }
    dir = dirname(dir);
  }
}

function deleteFile(rootDir: string, relative: string): void {
  const path = join(rootDir, relative);
  fs.rmSync(path, { force: true });
  removeEmptyParents(rootDir, path);
}

/** Tracked files on this replica (the same set the primary scans), for a checkpoint's prune. */
function listTracked(rootDir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string, depth: number): void => {
    for (const entry of fs.readdirSync(join(rootDir, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory() && !(depth === 0 && entry.name === 'wal')) walk(child, depth + 1);
      else if (entry.isFile()) found.push(child);
    }
  };
  const dbDir = join(rootDir, 'db');
  if (fs.existsSync(dbDir)) {
    for (const entry of fs.readdirSync(dbDir, { withFileTypes: true })) if (entry.isDirectory() && isTableDirName(entry.name)) walk(`db/${entry.name}`, 0);
  }
  if (fs.existsSync(join(rootDir, ACCOUNTS_PATH))) found.push(ACCOUNTS_PATH);
  return found;
}

export function applySegment(rootDir: string, segment: DecodedSegment): ApplyOutcome {
  let offset = 0;
  let accountsChanged = false;
  for (const operation of segment.operations) {
    if (operation.op !== 'prune' && operation.path === ACCOUNTS_PATH) accountsChanged = true;
    switch (operation.op) {
      case 'write': {
        const bytes = segment.body.subarray(offset, offset + operation.length);
        offset += operation.length;
        const path = join(rootDir, operation.path);
        if (operation.whole) writeWhole(path, bytes);
        else writeAt(path, operation, bytes);
        break;
      }
      case 'copy':
        copyPrefix(rootDir, operation);
        break;
      case 'delete':
        deleteFile(rootDir, operation.path);
        break;
      case 'prune': {
        const keep = new Set(operation.keep);
        // _txn files go first, so a table that is gone stops being listed before its files disappear.
        const stale = listTracked(rootDir).filter((path) => !keep.has(path)).sort((a, b) => Number(b.endsWith('/_txn')) - Number(a.endsWith('/_txn')));
        for (const path of stale) deleteFile(rootDir, path);
        if (stale.includes(ACCOUNTS_PATH)) accountsChanged = true;
        break;
      }
    }
  }
  return { accountsChanged };
}
