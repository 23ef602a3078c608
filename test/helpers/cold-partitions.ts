// Makes Parquet partitions of a stopped server's table cold the way the cold-storage mover leaves them: the
// partition's data.parquet uploaded to the store, its footer kept locally as footer.parquet (the file's last
// footer-length + 8 bytes), data.parquet deleted, and the _txn entry given `cold` with the object's key, ETag
// and size. Tests use it to read cold partitions without running a storage policy.
import { readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openObjectStore } from '../../src/objectstore/open-object-store.js';
import { decodeTxn, encodeTxn, partitionDirName, type PartitionEntry } from '../../src/storage/txn-file.js';

export interface ColdPartition {
  readonly name: string;
  readonly key: string;
  readonly etag: string;
  readonly bytes: number;
}

/** `names`: Parquet partitions of `table` under `rootDir` (server stopped); `connection`: the store's string. */
export async function makePartitionsCold(rootDir: string, table: string, names: readonly string[], connection: string): Promise<ColdPartition[]> {
  const tableDir = join(rootDir, 'db', table);
  const txnPath = join(tableDir, '_txn');
  const txn = decodeTxn(readFileSync(txnPath), tableDir);
  const store = await openObjectStore(connection);
  const made: ColdPartition[] = [];
  try {
    const partitions: PartitionEntry[] = [];
    for (const entry of txn.partitions) {
      if (!names.includes(entry.name)) {
        partitions.push(entry);
        continue;
      }
      if (entry.parquetBytes === undefined) throw new Error(`partition ${entry.name} is not Parquet`);
      const dir = join(tableDir, partitionDirName(entry));
      const file = join(dir, 'data.parquet');
      const key = `${table}~${txn.tableId}/${entry.name}.${entry.version}/data.parquet`;
      await store.putFile(key, file);
      const info = await store.head(key);
      if (info === null || info.etag === null || info.sizeBytes !== statSync(file).size) throw new Error(`upload of ${key} not found after put`);
      const bytes = readFileSync(file);
      const footerLength = bytes.readUInt32LE(bytes.length - 8);
      writeFileSync(join(dir, 'footer.parquet'), bytes.subarray(bytes.length - footerLength - 8));
      unlinkSync(file);
      const cold = { key, etag: info.etag, bytes: info.sizeBytes, local: false };
      partitions.push({ ...entry, cold });
      made.push({ name: entry.name, key, etag: info.etag, bytes: info.sizeBytes });
    }
    writeFileSync(txnPath, encodeTxn({ ...txn, partitions }));
  } finally {
    await store.close();
  }
  return made;
}

/** One sample of the primary's /metrics exposition (0 when absent). */
export async function metricValue(adminUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}
