// The one loader of svc's Node-API binding (native/mmap): memory maps for storage/mmap.ts, in-kernel copies
// of file ranges for the FilesFacade (files.ts) and huge-page memory for huge-page-memory.ts. Loaded on first
// use, once per process or thread: a module that only imports files.ts (a tool, a test helper) does not need
// the binding built.
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import { StorageError } from './errors.js';

/** What native/mmap/mmap.c exports. */
export interface NativeBinding {
  map(sizeBytes: number, fd: number, offsetBytes: number, advice: number): Buffer;
  advise(buffer: Buffer, advice: number): void;
  sync(buffer: Buffer): void;
  pageSize(): number;
  /**
   * copy_file_range(2) of `length` bytes; the bytes copied: fewer at the source's end or when the kernel cannot
   * copy between the two files (the caller copies the rest). Other failures throw an Error with `errno`.
   */
  copyRange(sourceFd: number, targetFd: number, length: number, sourceOffset: number, targetOffset: number): number;
  /** Zeroed anonymous memory on a huge-page boundary, advised for transparent huge pages (see huge-page-memory.ts). */
  allocateHugePages(sizeBytes: number): Buffer;
  readonly advice: { readonly normal: number; readonly sequential: number; readonly random: number; readonly willneed: number };
}

/** Where the binding is built, relative to the package root (the install script runs node-gyp there). */
const BINDING_PATH = join('native', 'mmap', 'build', 'Release', 'svc_mmap.node');
/** How many folders up from this file the package root may be: src/core/ under tsx, dist/core/ when built. */
const PACKAGE_ROOT_DEPTH_MAX = 4;

/** The nearest folder above this module holding package.json: the checkout, or an installed release tree. */
function findPackageRoot(): string {
  let dir = import.meta.dirname;
  for (let depth = 0; depth < PACKAGE_ROOT_DEPTH_MAX; depth++) {
    dir = dirname(dir);
    if (fs.existsSync(join(dir, 'package.json'))) return dir;
  }
  throw new StorageError(`no package.json within ${PACKAGE_ROOT_DEPTH_MAX} folders above ${import.meta.dirname}`);
}

/** Loads the compiled binding and checks it has the shape its callers use. */
function loadBinding(): NativeBinding {
  const path = join(findPackageRoot(), BINDING_PATH);
  if (!fs.existsSync(path)) {
    throw new StorageError(`the native binding ${path} is not built; run npm run build:native (npm ci and npm install build it)`);
  }
  const loaded: unknown = createRequire(import.meta.url)(path);
  if (!isNativeBinding(loaded)) throw new StorageError(`${path} does not export map, advise, sync, pageSize, copyRange, allocateHugePages and advice`);
  return loaded;
}

function isNativeBinding(value: unknown): value is NativeBinding {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof NativeBinding, unknown>>;
  const advice = candidate.advice as Partial<Record<string, unknown>> | null | undefined;
  return typeof candidate.map === 'function' && typeof candidate.advise === 'function' && typeof candidate.sync === 'function'
    && typeof candidate.pageSize === 'function' && typeof candidate.copyRange === 'function' && typeof candidate.allocateHugePages === 'function'
    && typeof advice?.['sequential'] === 'number';
}

let binding: NativeBinding | undefined;

export function nativeBinding(): NativeBinding {
  binding ??= loadBinding();
  return binding;
}
