// Table settings kept in _meta: `WITH maxUncommittedRows=n, o3MaxLag=t` at CREATE, `ALTER TABLE SET PARAM` later,
// and DEDUP UPSERT KEYS (validated as QuestDB does: the keys exist and include the designated timestamp).
// Dedup keys are stored and reported (tables(), SHOW CREATE TABLE, table_columns); the table writer deduplicates on them.
import type { Expr, Name } from '../sql/compiler.js';
import type { TableMeta } from '../storage/table-meta.js';
import { sqlSemanticError } from '../core/errors.js';

/** Microseconds per o3MaxLag unit; a bare number is microseconds. */
const LAG_UNIT_MICROS: Readonly<Record<string, number>> = { us: 1, ms: 1000, s: 1_000_000, m: 60_000_000, h: 3_600_000_000, d: 86_400_000_000 };

function settingText(value: Expr): string | undefined {
  if (value.kind !== 'literal') return undefined;
  if (typeof value.value === 'string') return value.value;
  if (typeof value.value === 'number' || typeof value.value === 'bigint') return String(value.value);
  return undefined;
}

function parseLagMicros(text: string): number | undefined {
  const match = /^(\d+)\s*([a-zA-Z]*)$/.exec(text.trim());
  if (match === null) return undefined;
  const perUnit = LAG_UNIT_MICROS[(match[2] ?? '').toLowerCase() || 'us'];
  return perUnit === undefined ? undefined : Number(match[1]) * perUnit;
}

/** Applies `key = value` settings to a table's metadata (unknown keys are an error, as in QuestDB). */
export function applySettings(meta: TableMeta, settings: readonly { readonly key: Name; readonly value: Expr }[]): TableMeta {
  let next = meta;
  for (const { key, value } of settings) {
    const text = settingText(value);
    switch (key.name.toLowerCase()) {
      case 'maxuncommittedrows': {
        const rows = text === undefined ? NaN : Number(text);
        if (!Number.isInteger(rows) || rows < 0) throw sqlSemanticError('invalid value for maxUncommittedRows, expected a non-negative integer', value.position);
        next = { ...next, maxUncommittedRows: rows };
        break;
      }
      case 'o3maxlag': {
        const micros = text === undefined ? undefined : parseLagMicros(text);
        if (micros === undefined) throw sqlSemanticError('invalid value for o3MaxLag, expected a duration such as 10s', value.position);
        next = { ...next, o3MaxLagMs: Math.floor(micros / 1000) };
        break;
      }
      default:
        throw sqlSemanticError(`unknown parameter '${key.name}'`, key.position);
    }
  }
  return next;
}

/** Resolves DEDUP UPSERT KEYS to stored column names; the designated timestamp must be one of them. */
export function dedupKeyNames(meta: Pick<TableMeta, 'columns' | 'timestampIndex'>, keys: readonly Name[], listPosition: number): string[] {
  const names = keys.map((key) => {
    const lower = key.name.toLowerCase();
    const column = meta.columns.find((candidate) => candidate.name.toLowerCase() === lower);
    if (column === undefined) throw sqlSemanticError(`deduplicate key column not found [column=${key.name}]`, key.position);
    return column.name;
  });
  const timestamp = meta.columns[meta.timestampIndex]?.name;
  if (timestamp === undefined || !names.includes(timestamp)) {
    throw sqlSemanticError('deduplicate key list must include dedicated timestamp column', keys[0]?.position ?? listPosition);
  }
  return names;
}
