// Object keys of cold partitions, Hive style under the store root:
// `<table>~<tableId>/year=YYYY[/month=MM[/day=DD[/hour=HH]]]/data.<version>.parquet`, as fine as the table's
// partitioning (a WEEK partition is named by its Monday). The partition version in the file name makes every
// key immutable: a rewritten partition is a new version, so it never overwrites an object a manifest names.
import type { PartitionUnit } from '../../types/timestamp.js';
import { formatTimestamp } from '../../types/timestamp.js';
import { partitionSpanOf } from '../../storage/partition-layout.js';
import { assert } from '../../core/assert.js';

export function coldTablePrefix(table: string, tableId: number): string {
  return `${table}~${tableId}/`;
}

export function coldObjectKey(table: string, tableId: number, unit: PartitionUnit, minTimestamp: number, version: number): string {
  assert(unit !== 'NONE', 'only partitioned tables move to cold storage');
  const start = formatTimestamp(partitionSpanOf(minTimestamp, unit).start);
  // 2024-01-05T07:00:00.000000Z
  const match = /^(-?\d+)-(\d\d)-(\d\d)T(\d\d)/.exec(start);
  assert(match !== null, 'formatted timestamps start with a date and an hour');
  const parts = [`year=${match[1]}`];
  if (unit !== 'YEAR') parts.push(`month=${match[2]}`);
  if (unit === 'DAY' || unit === 'WEEK' || unit === 'HOUR') parts.push(`day=${match[3]}`);
  if (unit === 'HOUR') parts.push(`hour=${match[4]}`);
  return `${coldTablePrefix(table, tableId)}${parts.join('/')}/data.${version}.parquet`;
}
