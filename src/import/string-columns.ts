// Parsers for text-valued columns: VARCHAR/STRING (strings), SYMBOL (keys into a per-batch dictionary),
// UUID and CHAR. Decoding a short string costs ~150 ns in V8, so repeated short ASCII values go through a
// small hash cache that returns the string (or symbol key) already made for the same bytes; the cache turns
// itself off for a column whose values rarely repeat.
import { assert } from '../core/assert.js';
import type { ColumnTarget, ParseJob } from './column-target.js';
import { targetInt32, targetStrings } from './column-target.js';
import { importInternCacheEntries, importInternFieldBytesMax } from './import-limits.js';
import { decodeField, parseUuidBytes } from './value-parsers.js';

const CACHE_MASK = importInternCacheEntries - 1;
/** Lookups between hit-rate checks, and the hit rate below which the cache is switched off. */
const CACHE_SAMPLE_LOOKUPS = 8192;
const CACHE_HIT_RATE_MIN = 0.2;

/** Per-column cache from field bytes to a previously built string and, for SYMBOL, its dictionary key. */
export class InternCache {
  readonly hashes = new Int32Array(importInternCacheEntries);
  readonly strings: (string | null)[] = new Array<string | null>(importInternCacheEntries).fill(null);
  readonly keys = new Int32Array(importInternCacheEntries);
  enabled = true;
  lookups = 0;
  hits = 0;

  /** Called after each block: keep the cache only while it pays for itself. */
  review(): void {
    if (this.lookups < CACHE_SAMPLE_LOOKUPS) return;
    if (this.hits < this.lookups * CACHE_HIT_RATE_MIN) this.enabled = false;
    this.lookups = 0;
    this.hits = 0;
  }
}

/** Cache slot for ASCII bytes buf[s, e), or -1 when a byte is non-ASCII; the hash is left in lastHash. */
let lastHash = 0;
function cacheSlot(buf: Buffer, s: number, e: number): number {
  let h = -2128831035;
  let bits = 0;
  for (let i = s; i < e; i++) {
    const b = buf[i];
    bits |= b;
    h = Math.imul(h ^ b, 16777619);
  }
  lastHash = h;
  return bits < 0x80 ? (h ^ (h >>> 15)) & CACHE_MASK : -1;
}

function sameAscii(text: string, buf: Buffer, s: number, e: number): boolean {
  if (text.length !== e - s) return false;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) !== buf[s + i]) return false;
  return true;
}

/** VARCHAR and STRING: empty field → null. Never fails. */
export function parseStringColumn(job: ParseJob, target: ColumnTarget, cache: InternCache): number {
  const out = targetStrings(target);
  const { buf, fieldStart, fieldEnd, fieldEscaped, width, rowCount, base } = job;
  const useCache = cache.enabled;
  let hits = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    if (s === e) {
      out[base + r] = null;
      continue;
    }
    if (fieldEscaped[slot] !== 0 || !useCache || e - s > importInternFieldBytesMax) {
      out[base + r] = decodeField(buf, s, e, fieldEscaped[slot]);
      continue;
    }
    const index = cacheSlot(buf, s, e);
    if (index < 0) {
      out[base + r] = buf.toString('utf8', s, e);
      continue;
    }
    const cached = cache.strings[index];
    if (cached !== null && cache.hashes[index] === lastHash && sameAscii(cached, buf, s, e)) {
      out[base + r] = cached;
      hits++;
      continue;
    }
    const text = buf.toString('latin1', s, e);
    cache.strings[index] = text;
    cache.hashes[index] = lastHash;
    out[base + r] = text;
  }
  cache.lookups += rowCount;
  cache.hits += hits;
  cache.review();
  return 0;
}

/**
 * SYMBOL: a session-wide dictionary (text → global key) and, per batch, a compact dictionary holding only
 * the values the batch uses, so every emitted batch owns its `symbols` array.
 */
export class SymbolDictionary {
  readonly globalKeys = new Map<string, number>();
  readonly cache = new InternCache();
  /** Batch key of each global key, valid where batchStamp equals the current batch generation. */
  private batchKeyOf = new Int32Array(256);
  private batchStamp = new Int32Array(256);
  private generation = 1;
  batchSymbols: string[] = [];

  beginBatch(): void {
    this.generation++;
    this.batchSymbols = [];
  }

  globalKey(text: string): number {
    let key = this.globalKeys.get(text);
    if (key === undefined) {
      key = this.globalKeys.size;
      this.globalKeys.set(text, key);
      if (key >= this.batchKeyOf.length) this.grow();
    }
    return key;
  }

  batchKey(globalKey: number, text: string): number {
    if (this.batchStamp[globalKey] === this.generation) return this.batchKeyOf[globalKey];
    const key = this.batchSymbols.length;
    this.batchSymbols.push(text);
    this.batchStamp[globalKey] = this.generation;
    this.batchKeyOf[globalKey] = key;
    return key;
  }

  private grow(): void {
    const keyOf = new Int32Array(this.batchKeyOf.length * 2);
    keyOf.set(this.batchKeyOf);
    const stamp = new Int32Array(this.batchStamp.length * 2);
    stamp.set(this.batchStamp);
    this.batchKeyOf = keyOf;
    this.batchStamp = stamp;
  }
}

/** SYMBOL: empty field → key -1. Never fails. */
export function parseSymbolColumn(job: ParseJob, target: ColumnTarget, dictionary: SymbolDictionary): number {
  const out = targetInt32(target);
  const { buf, fieldStart, fieldEnd, fieldEscaped, width, rowCount, base } = job;
  const cache = dictionary.cache;
  const useCache = cache.enabled;
  let hits = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    if (s === e) {
      out[base + r] = -1;
      continue;
    }
    const index = useCache && fieldEscaped[slot] === 0 && e - s <= importInternFieldBytesMax ? cacheSlot(buf, s, e) : -1;
    const cached = index >= 0 ? cache.strings[index] : null;
    if (cached !== null && cache.hashes[index] === lastHash && sameAscii(cached, buf, s, e)) {
      out[base + r] = dictionary.batchKey(cache.keys[index], cached);
      hits++;
      continue;
    }
    const text = decodeField(buf, s, e, fieldEscaped[slot]);
    const key = dictionary.globalKey(text);
    if (index >= 0) {
      cache.strings[index] = text;
      cache.hashes[index] = lastHash;
      cache.keys[index] = key;
    }
    out[base + r] = dictionary.batchKey(key, text);
  }
  cache.lookups += rowCount;
  cache.hits += hits;
  cache.review();
  return 0;
}

/** UUID: canonical hex text, stored lower-case; anything else is an error (null). */
export function parseUuidColumn(job: ParseJob, target: ColumnTarget): number {
  const out = targetStrings(target);
  const { buf, fieldStart, fieldEnd, width, rowCount, base } = job;
  let errors = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    const value = s === e ? undefined : parseUuidBytes(buf, s, e);
    out[base + r] = value ?? null;
    if (value === undefined && s !== e) errors = reportBad(job, r, errors);
  }
  return errors;
}

/** CHAR: exactly one UTF-16 code unit; empty → 0 (the CHAR null); longer text is an error. */
export function parseCharColumn(job: ParseJob, target: ColumnTarget): number {
  const out = target.data;
  assert(out instanceof Uint16Array, 'CHAR column target must be a Uint16Array');
  const { buf, fieldStart, fieldEnd, fieldEscaped, width, rowCount, base } = job;
  let errors = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    if (s === e) {
      out[base + r] = 0;
      continue;
    }
    const text = e - s === 1 && buf[s] < 0x80 ? '' : decodeField(buf, s, e, fieldEscaped[slot]);
    if (text === '' || text.length === 1) {
      out[base + r] = text === '' ? buf[s] : text.charCodeAt(0);
    } else {
      out[base + r] = 0;
      errors = reportBad(job, r, errors);
    }
  }
  return errors;
}

/** Records a bad value at block row r; returns the new error count. */
export function reportBad(job: ParseJob, r: number, errors: number): number {
  if (errors === 0) job.stats.firstBadRow = r;
  if (job.markRows) job.rowBad[r] = 1;
  return errors + 1;
}
