// The line parser's series cache. Most feeds (TSBS, Telegraf, per-instrument client rows) repeat one
// `table,tag=value,…` prefix for every row of a series: the first line of a series is parsed tag by tag, and
// its table and SYMBOL ids are remembered under the prefix's raw bytes, so a later line with byte-identical
// prefix appends the ids directly, without finding, hashing and probing each tag again. Within one parser the
// same bytes always resolve to the same table and columns (neither is ever removed); only a dictionary id can
// go stale, when a truncate drops entries (a row cut off at a chunk end, a TCP commit unit reset): each
// builder's dictionaryVersion says so, and a stale series is parsed again and remembered anew.
import { assert } from '../core/assert.js';
import { ilpSeriesCacheEntriesMax, ilpSeriesPrefixBytesMax } from '../core/limits.js';
import type { IlpTableBuilder } from './ilp-table-builder.js';
import { SYMBOL_HASH_PRIME, SYMBOL_HASH_SEED, type SymbolColumnBuilder } from './symbol-column-builder.js';

const SPACE = 32;
/** Prefixes up to this long are not looked up (see find()). */
const SHORT_PREFIX_BYTES = 48;

export interface Series {
  readonly prefix: Buffer;
  readonly table: IlpTableBuilder;
  /** Tags the prefix holds (repeated names included): the field position of the line's first field. */
  readonly tagCount: number;
  readonly builders: readonly SymbolColumnBuilder[];
  readonly ids: Int32Array;
  /** Each builder's dictionaryVersion when its id was taken. */
  readonly versions: Int32Array;
}

export class SeriesCache {
  private readonly byHash = new Map<number, Series>();
  /** Where the prefix find() last looked up ends (its line's first space), -1 when it looked none up. */
  prefixEnd = -1;
  /** That prefix's hash. */
  private prefixHash = 0;

  /** Lines whose tags were taken from a remembered series. */
  hits = 0;

  /** Series remembered now. */
  get size(): number {
    return this.byHash.size;
  }

  /**
   * The series of the line at `start`, when its prefix (the bytes before its first space) was remembered
   * and the dictionary ids remembered with it are still valid; otherwise undefined (prefixEnd then says where
   * the prefix looked up ends, -1 when none was). The first space may be escaped or lie past the line's end:
   * no remembered prefix spells such bytes, since the same bytes always end the tag section at the same place.
   */
  find(data: Buffer, start: number): Series | undefined {
    this.prefixEnd = -1;
    // A short prefix (one or two tags) parses about as fast as it is looked up: the cache is for long ones.
    const shortEnd = Math.min(data.length, start + SHORT_PREFIX_BYTES);
    for (let at = start; at < shortEnd; at++) if (data[at] === SPACE) return undefined;
    const end = data.indexOf(SPACE, shortEnd);
    if (end < 0 || end - start > ilpSeriesPrefixBytesMax) return undefined;
    this.prefixEnd = end;
    this.prefixHash = prefixHash(data, start, end);
    const series = this.byHash.get(this.prefixHash);
    // Buffer.compare is a native memcmp: the full check costs far less than a JS loop over the bytes.
    if (series === undefined || series.prefix.length !== end - start || data.compare(series.prefix, 0, series.prefix.length, start, end) !== 0) return undefined;
    const builders = series.builders;
    const versions = series.versions;
    for (let k = 0; k < builders.length; k++) if (builders[k].dictionaryVersion !== versions[k]) return undefined;
    return series;
  }

  /** Writes the series' tag values into the row being built. */
  apply(series: Series): void {
    const builders = series.builders;
    const ids = series.ids;
    for (let k = 0; k < builders.length; k++) builders[k].appendId(ids[k]);
    this.hits++;
  }

  /**
   * Remembers the tags the general parse just wrote into the open row of `table`: the caller saw the parse of
   * the tags end at prefixEnd, the end of the prefix the last find() missed. A tag in a column that is not
   * SYMBOL (an existing table's VARCHAR, say) is written as text each time: such a series is not remembered.
   */
  remember(data: Buffer, start: number, table: IlpTableBuilder, tagCount: number): void {
    const end = this.prefixEnd;
    assert(end > start, 'a series is remembered under the prefix its line was looked up by');
    const row = table.rowCount;
    const builders: SymbolColumnBuilder[] = [];
    for (const column of table.columns) {
      const builder = column.builder;
      if (builder.length <= row) continue;
      if (builder.kind !== 'symbol') return;
      builders.push(builder);
    }
    assert(builders.length <= tagCount, 'only the tags of the line are written when its prefix is parsed');
    const ids = new Int32Array(builders.length);
    const versions = new Int32Array(builders.length);
    for (let k = 0; k < builders.length; k++) {
      ids[k] = builders[k].idAt(row);
      versions[k] = builders[k].dictionaryVersion;
    }
    // Forgetting every series at once keeps the bound without bookkeeping; a feed with more series than the
    // bound pays one general parse per series per refill, as it would without the cache.
    if (this.byHash.size >= ilpSeriesCacheEntriesMax) this.byHash.clear();
    this.byHash.set(this.prefixHash, { prefix: Buffer.from(data.subarray(start, end)), table, tagCount, builders, ids, versions });
  }
}

/** FNV-1a over the prefix's bytes (the end is known: the loop only hashes). */
function prefixHash(data: Buffer, start: number, end: number): number {
  let hash = SYMBOL_HASH_SEED;
  for (let at = start; at < end; at++) hash = Math.imul(hash ^ data[at], SYMBOL_HASH_PRIME);
  return hash;
}
