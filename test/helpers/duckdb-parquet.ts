// DuckDB as the independent reader of the Parquet files svc writes: bytes go to a temp file, SQL over
// read_parquet / parquet_metadata / parquet_schema / parquet_file_metadata / parquet_bloom_probe comes back
// as JSON-friendly rows (BIGINT and friends as strings). Also builds test batches by name.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnBatch } from '../../src/sql/exec/batch.js';
import { ParquetFileWriter } from '../../src/output/parquet-writer.js';
import { PARQUET_EXPORT_DEFAULTS } from '../../src/output/parquet-params.js';
import type { ExportColumn, ParquetExportOptions } from '../../src/output/parquet-params.js';

export type Row = Record<string, unknown>;

export class ParquetReader {
  private constructor(private readonly connection: DuckDBConnection, readonly dir: string) {}

  static async open(): Promise<ParquetReader> {
    const instance = await DuckDBInstance.create(':memory:');
    return new ParquetReader(await instance.connect(), mkdtempSync(join(tmpdir(), 'svc-parquet-test-')));
  }

  /** Writes bytes to a file of the temp dir and returns its path (for use inside SQL string literals). */
  save(name: string, bytes: Uint8Array): string {
    const path = join(this.dir, name);
    writeFileSync(path, bytes);
    return path;
  }

  async rows(sql: string): Promise<Row[]> {
    const reader = await this.connection.runAndReadAll(sql);
    return reader.getRowObjectsJson() as Row[];
  }

  close(): void {
    this.connection.closeSync();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Writes batches with the in-process writer and returns the whole file. */
export function writeParquet(columns: readonly ExportColumn[], batches: readonly ColumnBatch[], options: Partial<ParquetExportOptions> = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  const writer = new ParquetFileWriter(columns, { ...PARQUET_EXPORT_DEFAULTS, ...options }, (bytes) => parts.push(bytes));
  for (const batch of batches) writer.writeBatch(batch);
  writer.finish();
  return Buffer.concat(parts);
}
