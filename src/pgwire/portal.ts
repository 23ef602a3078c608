// A portal: a bound statement ready to run (Bind), run by Execute in one go or in pieces of `maxRows` rows
// (PortalSuspended between them, the cursor kept open). Queries stream DataRows batch by batch, yielding to the
// event loop between batches so other connections and CancelRequests are served; writes go to the primary
// through the WriterClient, the same path /exec takes. The portal owns its cursor: close() releases it.
import type { Catalog, CompiledStatement, CopyStatement, Cursor, ExecContext, OutputColumn, ParameterValue, ColumnBatch, Statement } from '../sql/compiler.js';
import { compileStatement, createExecContext, createRuntime } from '../sql/compiler.js';
import type { WriteResult, WriterClient } from '../engine/writer-client.js';
import { SqlError } from '../core/errors.js';
import type { ColumnDescription, MessageWriter } from './message-writer.js';
import { pgTypeOf } from './pg-types.js';
import { binaryEncoder, textEncoder, type CellEncoder } from './value-encoders.js';
import { bindStatement, type PreparedStatement } from './prepared-statement.js';

export interface PgSession {
  readonly catalog: Catalog;
  readonly writer: WriterClient;
  /** The server is read-only or the user is pg.readonly.user. */
  readonly readOnly: boolean;
  readonly statementTimeoutMs: number;
  /** Called for BEGIN/COMMIT/ROLLBACK (and their synonyms): the connection tracks the transaction status. */
  onTransaction(keyword: string): void;
  /** Starts COPY FROM STDIN: the connection answers CopyInResponse and takes the CopyData messages that follow. */
  beginCopy(statement: CopyStatement): void;
  /** Writes the buffered output to the socket, waiting while the socket is backed up. */
  flush(): Promise<void>;
}

/** Output bytes buffered before rows are pushed to the socket mid-result. */
const FLUSH_BYTES = 64 * 1024;
/** Transaction statements answered by the connection itself (svc has no multi-statement transactions). */
export const TRANSACTION_KEYWORDS = new Set(['BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'ABORT']);

/** The cancellation of the statement a portal runs; its deadline restarts at each Execute. */
export interface RunControl {
  deadlineMs: number;
  cancelled: boolean;
  reason?: string;
}

/** `copy`: a COPY FROM STDIN started; its completion comes with CopyDone. */
export type ExecuteOutcome = 'complete' | 'suspended' | 'copy';

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `0` text or `1` binary per column, from Bind's result format codes (none: all text; one: all alike). */
function formatOf(formats: readonly number[], column: number): number {
  if (formats.length === 0) return 0;
  return (formats.length === 1 ? formats[0] : formats[column]) ?? 0;
}

export function columnDescriptions(columns: readonly OutputColumn[], formats: readonly number[]): ColumnDescription[] {
  return columns.map((column, index) => {
    const type = pgTypeOf(column.type);
    return { name: column.name, typeOid: type.oid, typeSize: type.size, typeModifier: type.modifier, format: formatOf(formats, index) };
  });
}

/** The command tag of a write's result, as PostgreSQL spells it. */
export function writeTag(compiled: Extract<CompiledStatement, { kind: 'write' }>, result: WriteResult): string {
  switch (result.kind) {
    case 'insert': return `INSERT 0 ${result.rows}`;
    case 'update': return `UPDATE ${result.rows}`;
    case 'token': return 'ALTER SERVICE ACCOUNT';
    case 'ddl':
      switch (compiled.statement.kind) {
        case 'dropTable': return 'DROP TABLE';
        case 'truncateTable': return 'TRUNCATE TABLE';
        default: return compiled.queryType;
      }
  }
}

/** Read-only connections write nothing; service accounts are managed over HTTP only. */
function checkWritable(statement: Statement, session: PgSession): void {
  if (session.readOnly) throw new SqlError('Write permission denied', 0, 'SVC_FORBIDDEN', 403);
  if (statement.kind === 'serviceAccount') {
    throw new SqlError('Write permission denied: service accounts are managed over HTTP with the http.user credentials', 0, 'SVC_FORBIDDEN', 403);
  }
}

export class Portal {
  readonly control: RunControl = { deadlineMs: Infinity, cancelled: false };
  private cursor: Cursor | undefined;
  private ctx: ExecContext | undefined;
  private batch: ColumnBatch | undefined;
  private batchRow = 0;
  private rowsSent = 0;
  private finished = false;
  private readonly encoders: CellEncoder[];

  /** Binds at once: semantic errors surface at Bind, as PostgreSQL reports them before Execute. */
  constructor(readonly prepared: PreparedStatement, readonly parameters: readonly ParameterValue[], readonly resultFormats: readonly number[], session: PgSession) {
    const statement = bindStatement(prepared, parameters);
    this.compiled = statement === undefined ? undefined : compileStatement(statement, session.catalog);
    const columns = this.columns ?? [];
    this.encoders = columns.map((column, index) => (formatOf(resultFormats, index) === 1 ? binaryEncoder(column.type) : textEncoder(column.type)));
  }

  readonly compiled: CompiledStatement | undefined;

  /** Result columns, or undefined when the statement returns no rows. */
  get columns(): readonly OutputColumn[] | undefined {
    return this.compiled === undefined || this.compiled.kind === 'write' ? undefined : this.compiled.factory.columns;
  }

  /** Runs up to `maxRows` rows (0: all); sends DataRows then CommandComplete, or PortalSuspended. */
  async execute(maxRows: number, out: MessageWriter, session: PgSession): Promise<ExecuteOutcome> {
    this.control.deadlineMs = Date.now() + session.statementTimeoutMs;
    const compiled = this.compiled;
    if (compiled === undefined) {
      out.empty('I');
      return 'complete';
    }
    if (compiled.kind === 'write' && compiled.statement.kind === 'copy') {
      checkWritable(compiled.statement, session);
      this.finished = true;
      session.beginCopy(compiled.statement);
      return 'copy';
    }
    if (compiled.kind === 'write') {
      out.commandComplete(await this.executeWrite(compiled, session));
      return 'complete';
    }
    if (this.finished) {
      // PostgreSQL answers an Execute of a finished portal with a completion and no rows.
      out.commandComplete(`SELECT 0`);
      return 'complete';
    }
    return this.streamRows(compiled.factory.open.bind(compiled.factory), maxRows, out, session);
  }

  private async executeWrite(compiled: Extract<CompiledStatement, { kind: 'write' }>, session: PgSession): Promise<string> {
    const statement = compiled.statement;
    if (statement.kind === 'noop' && TRANSACTION_KEYWORDS.has(statement.keyword)) {
      session.onTransaction(statement.keyword);
      return statement.keyword === 'START' ? 'START TRANSACTION' : statement.keyword;
    }
    checkWritable(statement, session);
    const result = await session.writer.executeWrite(statement, { timeoutMs: session.statementTimeoutMs });
    this.finished = true;
    return writeTag(compiled, result);
  }

  private async streamRows(open: (ctx: ExecContext) => Cursor, maxRows: number, out: MessageWriter, session: PgSession): Promise<ExecuteOutcome> {
    if (this.cursor === undefined) {
      this.ctx = createExecContext(createRuntime(Date.now() * 1000), this.control, session.statementTimeoutMs);
      this.cursor = open(this.ctx);
    }
    const ctx = this.ctx;
    const cursor = this.cursor;
    if (ctx === undefined) throw new SqlError('portal has no execution context', 0, 'SVC_INTERNAL', 500);
    let sentNow = 0;
    for (;;) {
      if (this.batch === undefined || this.batchRow >= this.batch.rowCount) {
        this.batch = cursor.nextBatch();
        this.batchRow = 0;
        if (this.batch === undefined) break;
        ctx.checkCancelled();
      }
      const limit = maxRows > 0 ? Math.min(this.batch.rowCount, this.batchRow + (maxRows - sentNow)) : this.batch.rowCount;
      this.writeRows(out, this.batch, this.batchRow, limit);
      sentNow += limit - this.batchRow;
      this.batchRow = limit;
      if (out.bufferedBytes > FLUSH_BYTES) await session.flush();
      if (maxRows > 0 && sentNow >= maxRows) {
        out.empty('s');
        this.rowsSent += sentNow;
        return 'suspended';
      }
      if (this.batchRow >= this.batch.rowCount) {
        await yieldToEventLoop();
        ctx.checkCancelled();
      }
    }
    this.rowsSent += sentNow;
    this.finished = true;
    this.close();
    out.commandComplete(`SELECT ${this.rowsSent}`);
    return 'complete';
  }

  private writeRows(out: MessageWriter, batch: ColumnBatch, from: number, to: number): void {
    const encoders = this.encoders;
    const vectors = batch.vectors;
    const columnCount = encoders.length;
    for (let row = from; row < to; row++) {
      out.begin('D');
      out.int16(columnCount);
      for (let column = 0; column < columnCount; column++) encoders[column](out, vectors[column], row);
      out.end();
    }
  }

  close(): void {
    const cursor = this.cursor;
    this.cursor = undefined;
    this.batch = undefined;
    cursor?.close();
  }
}
