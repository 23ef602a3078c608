// Metadata sources of storage policies and cold storage: the `storage_policies` view (one row per table with a
// policy, durations as written: `7d`, `1M`) and table_cold_partitions('t'), the table's cold manifest as the
// primary last committed it (its local mirror `_cold`; no store access from workers). Rows are built when the
// query runs.
import type { Catalog } from '../../storage/catalog.js';
import type { LifecycleDuration } from '../../storage/table-meta.js';
import { readColdMirror } from '../../storage/cold-manifest-file.js';
import type { ValuesPlan } from '../plan/logical-plan.js';
import { valuesPlan } from '../plan/plan-builders.js';
import type { CellValue } from '../plan/plan-specs.js';
import { sqlSemanticError } from '../../core/errors.js';

const DISPLAY_LETTERS: Readonly<Record<LifecycleDuration['unit'], string>> = { HOUR: 'h', DAY: 'd', WEEK: 'W', MONTH: 'M', YEAR: 'Y' };

function durationText(duration: LifecycleDuration | undefined): string | null {
  return duration === undefined ? null : `${duration.value}${DISPLAY_LETTERS[duration.unit]}`;
}

export function storagePoliciesRelation(catalog: Catalog): ValuesPlan {
  const columns = [
    { name: 'table_name', type: 'STRING' }, { name: 'to_parquet', type: 'STRING' }, { name: 'to_remote', type: 'STRING' },
    { name: 'drop_local', type: 'STRING' }, { name: 'drop_remote', type: 'STRING' }, { name: 'status', type: 'STRING' },
  ] as const;
  return valuesPlan(columns, () => catalog.listTableNames().flatMap((name): CellValue[][] => {
    const policy = catalog.openSnapshot(name)?.meta.storagePolicy;
    if (policy === undefined) return [];
    return [[
      name, durationText(policy.toParquet), durationText(policy.toRemote), durationText(policy.dropLocal), durationText(policy.dropRemote),
      policy.enabled ? 'enabled' : 'disabled',
    ]];
  }), 'storage_policies');
}

export function tableColdPartitionsRelation(catalog: Catalog, table: string, position: number): ValuesPlan {
  const stored = catalog.resolveName(table);
  if (stored === undefined) throw sqlSemanticError(`table does not exist [table=${table}]`, position);
  const columns = [
    { name: 'partitionName', type: 'STRING' }, { name: 'version', type: 'LONG' }, { name: 'state', type: 'STRING' },
    { name: 'objectKey', type: 'STRING' }, { name: 'etag', type: 'STRING' }, { name: 'sizeBytes', type: 'LONG' },
    { name: 'changedAt', type: 'TIMESTAMP' }, { name: 'deleteAfter', type: 'TIMESTAMP' },
  ] as const;
  return valuesPlan(columns, () => {
    const snapshot = catalog.openSnapshot(stored);
    const mirror = snapshot === undefined ? undefined : readColdMirror(snapshot.dir);
    if (mirror === undefined) return [];
    return mirror.body.entries.map((entry): CellValue[] => [
      entry.partition, entry.version, entry.state, entry.key, entry.etag, entry.bytes,
      entry.changedAtMs * 1000, entry.deleteAfterMs === undefined ? null : entry.deleteAfterMs * 1000,
    ]);
  }, `table_cold_partitions('${stored}')`);
}
