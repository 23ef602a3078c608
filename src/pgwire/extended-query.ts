// The extended query protocol: named and unnamed prepared statements (Parse), portals (Bind), Describe of
// either, Execute with a row limit, Close. Owns both maps, bounded in size; the connection handles Sync, Flush
// and the skip-to-Sync error recovery around these handlers.
import type { ParameterValue } from '../sql/compiler.js';
import { SqlError } from '../core/errors.js';
import { BodyReader } from './body-reader.js';
import type { MessageWriter } from './message-writer.js';
import { protocolError } from './message-reader.js';
import { describeColumns, prepareStatement, type PreparedStatement } from './prepared-statement.js';
import { columnDescriptions, Portal, type ExecuteOutcome, type PgSession } from './portal.js';
import { PARAMETER_OID_OF } from './pg-types.js';
import { decodeParameter } from './parameter-decoders.js';
import { StatementFailure } from './statement-failure.js';

/** Prepared statements one connection may hold (clients that never Close would otherwise grow without bound). */
export const PREPARED_STATEMENTS_MAX = 10_000;
/** Open portals one connection may hold; each may pin a running cursor. */
export const PORTALS_MAX = 1_000;

/** Runs a step that binds `prepared`; its errors carry the statement text, so their position can be reported. */
function withStatementText<T>(prepared: PreparedStatement, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw new StatementFailure(error, prepared.text, 0);
  }
}

export class ExtendedQuery {
  private readonly statements = new Map<string, PreparedStatement>();
  private readonly portals = new Map<string, Portal>();

  constructor(private readonly session: PgSession) {}

  /** The portal an Execute is running, for CancelRequest. */
  running: Portal | undefined;

  parse(body: Buffer, out: MessageWriter): void {
    const reader = new BodyReader(body);
    const name = reader.cstring();
    const text = reader.cstring();
    const count = reader.count16('parameter type');
    const oids: number[] = [];
    for (let k = 0; k < count; k++) oids.push(reader.int32() >>> 0);
    if (name !== '' && this.statements.has(name)) throw new SqlError(`prepared statement "${name}" already exists`, 0, 'SVC_SQL_SEMANTIC');
    if (name !== '' && this.statements.size >= PREPARED_STATEMENTS_MAX) {
      throw new SqlError(`too many prepared statements [max=${PREPARED_STATEMENTS_MAX}]: close unused ones`, 0, 'SVC_SQL_LIMIT');
    }
    this.statements.set(name, prepareStatement(text, oids, this.session.catalog));
    out.empty('1');
  }

  bind(body: Buffer, out: MessageWriter): void {
    const reader = new BodyReader(body);
    const portalName = reader.cstring();
    const statementName = reader.cstring();
    const prepared = this.statement(statementName);
    const formatCount = reader.count16('parameter format');
    const formats: number[] = [];
    for (let k = 0; k < formatCount; k++) formats.push(reader.int16());
    const valueCount = reader.count16('parameter value');
    if (valueCount !== prepared.parameterTypes.length) {
      throw protocolError(`bind message supplies ${valueCount} parameters, but prepared statement "${statementName}" requires ${prepared.parameterTypes.length}`);
    }
    if (formatCount > 1 && formatCount !== valueCount) throw protocolError(`bind message has ${formatCount} parameter formats but ${valueCount} parameters`);
    const values: ParameterValue[] = [];
    for (let k = 0; k < valueCount; k++) {
      const length = reader.int32();
      const bytes = length === -1 ? null : reader.bytes(length);
      const format = formatCount === 0 ? 0 : (formatCount === 1 ? formats[0] : formats[k]) ?? 0;
      const type = prepared.parameterTypes[k] ?? 'VARCHAR';
      values.push(decodeParameter({ index: k, type, declaredOid: prepared.declaredOids[k] ?? 0 }, format, bytes));
    }
    const resultCount = reader.count16('result format');
    const resultFormats: number[] = [];
    for (let k = 0; k < resultCount; k++) resultFormats.push(reader.int16());
    if ([...formats, ...resultFormats].some((format) => format !== 0 && format !== 1)) throw protocolError('format codes must be 0 (text) or 1 (binary)');
    this.closePortal(portalName);
    if (this.portals.size >= PORTALS_MAX) throw new SqlError(`too many open portals [max=${PORTALS_MAX}]`, 0, 'SVC_SQL_LIMIT');
    this.portals.set(portalName, withStatementText(prepared, () => new Portal(prepared, values, resultFormats, this.session)));
    out.empty('2');
  }

  describe(body: Buffer, out: MessageWriter): void {
    const reader = new BodyReader(body);
    const what = String.fromCharCode(reader.int8() & 0xff);
    const name = reader.cstring();
    if (what === 'S') {
      const prepared = this.statement(name);
      out.parameterDescription(prepared.parameterTypes.map((type) => PARAMETER_OID_OF[type]));
      const columns = withStatementText(prepared, () => describeColumns(prepared, this.session.catalog));
      if (columns === null) out.empty('n');
      else out.rowDescription(columnDescriptions(columns, []));
    } else if (what === 'P') {
      const columns = this.portal(name).columns;
      if (columns === undefined) out.empty('n');
      else out.rowDescription(columnDescriptions(columns, this.portal(name).resultFormats));
    } else {
      throw protocolError(`Describe of unknown kind '${what}'`);
    }
  }

  async execute(body: Buffer, out: MessageWriter): Promise<ExecuteOutcome> {
    const reader = new BodyReader(body);
    const portal = this.portal(reader.cstring());
    const maxRows = reader.int32();
    this.running = portal;
    try {
      return await portal.execute(maxRows < 0 ? 0 : maxRows, out, this.session);
    } catch (error) {
      portal.close();
      throw error;
    } finally {
      this.running = undefined;
    }
  }

  close(body: Buffer, out: MessageWriter): void {
    const reader = new BodyReader(body);
    const what = String.fromCharCode(reader.int8() & 0xff);
    const name = reader.cstring();
    if (what === 'S') this.statements.delete(name);
    else if (what === 'P') this.closePortal(name);
    else throw protocolError(`Close of unknown kind '${what}'`);
    out.empty('3');
  }

  /** Ends the implicit transaction at Sync: portals do not outlive it (PostgreSQL drops them at commit). */
  closeAllPortals(): void {
    for (const portal of this.portals.values()) portal.close();
    this.portals.clear();
  }

  private closePortal(name: string): void {
    this.portals.get(name)?.close();
    this.portals.delete(name);
  }

  private statement(name: string): PreparedStatement {
    const prepared = this.statements.get(name);
    if (prepared === undefined) throw new SqlError(name === '' ? 'unnamed prepared statement does not exist' : `prepared statement "${name}" does not exist`, 0, 'SVC_SQL_SEMANTIC');
    return prepared;
  }

  private portal(name: string): Portal {
    const portal = this.portals.get(name);
    if (portal === undefined) throw new SqlError(name === '' ? 'unnamed portal does not exist' : `portal "${name}" does not exist`, 0, 'SVC_SQL_SEMANTIC');
    return portal;
  }
}
