// URL parameters of the SQL endpoints, parsed from the raw query string as QuestDB does: names are
// case-sensitive, a flag is true only for the literal `true` (any case), an unparseable limit is ignored.
import { SqlError } from '../core/errors.js';
import { bytesAsSignExtendedChars, decodeUtf8Strict, urlParamBytes } from './url-param-bytes.js';

/** Refuses statement text longer than http.query.max.length, before any parsing work is spent on it. */
export function checkQueryLength(query: string, lengthMax: number): void {
  if (query.length > lengthMax) {
    throw new SqlError(`query text is too long [length=${query.length}, max=${lengthMax}]`, lengthMax, 'SVC_SQL_LIMIT');
  }
}
export interface ExecuteParams {
  readonly query: string;
  readonly count: boolean;
  readonly skipMetadata: boolean;
  readonly timings: boolean;
  readonly explain: boolean;
  readonly quoteLargeNum: boolean;
  /** Rows to skip and the exclusive 0-based stop row (Infinity: no upper bound). */
  readonly skip: number;
  readonly stop: number;
  readonly version: number;
  /** Set when the query's bytes are not UTF-8: the text QuestDB echoes in its error (url-param-bytes.ts). */
  readonly badUtf8QueryEcho?: string;
  /** Raw bytes of `cols` (result projection, column-list.ts); null when absent. */
  readonly cols: Uint8Array | null;
}

export function searchParamsOf(url: string): URLSearchParams {
  const index = url.indexOf('?');
  return new URLSearchParams(index < 0 ? '' : url.slice(index + 1));
}

export function flag(params: URLSearchParams, name: string): boolean {
  return params.get(name)?.toLowerCase() === 'true';
}

/** `limit=n` → rows 1..n; `limit=lo,hi` → rows lo..hi (1-based, inclusive); `lo,` → from lo on. */
export function parseExecuteLimit(text: string | null): { skip: number; stop: number } {
  if (text === null || text.trim() === '') return { skip: 0, stop: Infinity };
  const comma = text.indexOf(',');
  const toInt = (part: string): number | undefined => (/^\s*-?\d+\s*$/.test(part) ? Math.max(0, Number(part)) : undefined);
  if (comma < 0) {
    const n = toInt(text);
    return n === undefined ? { skip: 0, stop: Infinity } : { skip: 0, stop: n };
  }
  const lo = toInt(text.slice(0, comma));
  const hiText = text.slice(comma + 1);
  const hi = hiText.trim() === '' ? Infinity : toInt(hiText);
  if (lo === undefined || hi === undefined) return { skip: 0, stop: Infinity };
  return { skip: Math.max(0, lo - 1), stop: hi };
}

export function parseExecuteParams(url: string): ExecuteParams {
  const params = searchParamsOf(url);
  const { skip, stop } = parseExecuteLimit(params.get('limit'));
  const version = Number(params.get('version') ?? '1');
  const query = params.get('query') ?? '';
  const badUtf8QueryEcho = query.includes('\uFFFD') ? parseExecuteQueryEcho(urlParamBytes(url, 'query')) : undefined;
  return {
    ...(badUtf8QueryEcho === undefined ? {} : { badUtf8QueryEcho }),
    cols: params.has('cols') ? urlParamBytes(url, 'cols') : null,
    query,
    count: flag(params, 'count'),
    skipMetadata: flag(params, 'nm'),
    timings: flag(params, 'timings'),
    explain: flag(params, 'explain'),
    quoteLargeNum: flag(params, 'quoteLargeNum') || params.get('src') === 'con',
    skip,
    stop,
    version: Number.isFinite(version) ? version : 1,
  };
}

/** Bytes that are not UTF-8 always decode with a U+FFFD, so only such text needs its bytes checked. */
function parseExecuteQueryEcho(bytes: Uint8Array | null): string | undefined {
  return bytes === null || decodeUtf8Strict(bytes) !== undefined ? undefined : bytesAsSignExtendedChars(bytes);
}
