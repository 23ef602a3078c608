// One COPY <table> FROM STDIN: the CopyData bytes go through the same pipeline as an /imp upload (an import
// session converting CSV into a staging segment) and the primary commits the segment at CopyDone, all rows or
// none (atomicity=abort: a value that does not convert fails the whole COPY, as in PostgreSQL). CopyFail, an
// error or a closed connection deletes the segment and leaves the table unchanged. The table must exist.
import type { Catalog, CopyStatement } from '../sql/compiler.js';
import type { WriterClient } from '../engine/writer-client.js';
import { createImportSession, type ImportSession } from '../import/import-session.js';
import { createImportStaging, type ImportStaging } from '../import/staging.js';
import { SqlError } from '../core/errors.js';
import { importRowsChannel } from '../core/diagnostics.js';
import { CopyTextToCsv } from './copy-text-format.js';

export interface CopyInDeps {
  readonly catalog: Catalog;
  readonly writer: WriterClient;
  readonly dbDir: string;
  readonly analysisMaxLines: number;
}

export class CopyIn {
  private readonly staging: ImportStaging;
  private readonly session: ImportSession;
  private readonly text: CopyTextToCsv | undefined;
  private readonly table: string;
  private finished = false;
  /** Columns of the table, for CopyInResponse. */
  readonly columnCount: number;

  constructor(statement: CopyStatement, private readonly deps: CopyInDeps) {
    const stored = deps.catalog.resolveName(statement.table.name);
    const meta = stored === undefined ? undefined : deps.catalog.openSnapshot(stored)?.meta;
    if (stored === undefined || meta === undefined) throw new SqlError(`table does not exist [table=${statement.table.name}]`, statement.table.position, 'SVC_SQL_SEMANTIC');
    this.table = stored;
    this.columnCount = meta.columns.length;
    const columns = meta.columns.map((column) => ({ name: column.name, type: column.type }));
    const layout = { partitionBy: meta.partitionBy, timestampIndex: meta.timestampIndex, nanos: meta.columns[meta.timestampIndex]?.type === 'TIMESTAMP_NS' };
    this.staging = createImportStaging(deps.dbDir, () => layout);
    this.text = statement.format === 'text' ? new CopyTextToCsv(statement.delimiter ?? '\t', statement.nullText ?? '\\N') : undefined;
    const staging = this.staging;
    const session: ImportSession = createImportSession({
      analysisMaxLines: deps.analysisMaxLines,
      // Text format arrives converted to comma-separated CSV; CSV keeps its own delimiter.
      delimiter: statement.format === 'text' ? ',' : (statement.delimiter ?? ','),
      forceHeader: statement.header,
      atomicity: 'abort',
      skipLev: false,
      existingColumns: columns,
      layoutOf: () => layout,
      onBatch: (batch) => staging.append(batch, session.columns()),
    });
    this.session = session;
  }

  /** Feeds one CopyData message; the connection awaits it, so a slow import slows the client (no queue here). */
  async push(data: Buffer): Promise<void> {
    const csv = this.text === undefined ? data : Buffer.from(this.text.push(data), 'utf8');
    if (csv.length > 0) await this.session.push(csv);
  }

  /** CopyDone: finishes the segment and commits it; returns the rows committed. */
  async finish(): Promise<number> {
    const rest = this.text?.end() ?? '';
    if (rest !== '') await this.session.push(Buffer.from(rest, 'utf8'));
    const summary = await this.session.finish();
    this.staging.finish(this.session.columns());
    const result = await this.deps.writer.importCommit({ segmentDir: this.staging.dir, table: this.table, create: false, overwrite: false, partitionBy: 'NONE' });
    this.finished = true;
    importRowsChannel.publish({ table: this.table, rowsImported: result.rowsCommitted, rowsRejected: summary.rowsRejected + result.rowsDropped });
    return result.rowsCommitted;
  }

  /** CopyFail, an error, or the connection closed: nothing becomes visible. */
  abort(): void {
    if (this.finished) return;
    this.finished = true;
    this.session.abort();
    this.staging.abort();
  }
}

