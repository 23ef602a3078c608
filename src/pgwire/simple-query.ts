// The simple query protocol: one Query message may hold several statements, run in order; each answers with
// RowDescription + DataRows (text) + CommandComplete, or CommandComplete alone; text with no statement answers
// EmptyQueryResponse. The first error stops the rest (PostgreSQL runs them as one implicit transaction).
import { splitStatements } from '../sql/compiler.js';
import type { MessageWriter } from './message-writer.js';
import { prepareStatement } from './prepared-statement.js';
import { columnDescriptions, Portal, type PgSession } from './portal.js';
import { BodyReader } from './body-reader.js';
import { SqlError } from '../core/errors.js';
import { StatementFailure } from './statement-failure.js';


/** Runs every statement of the Query; throws StatementFailure at the first error. `onPortal` sees the running portal (cancel). */
export async function runSimpleQuery(body: Buffer, out: MessageWriter, session: PgSession, onPortal: (portal: Portal | undefined) => void): Promise<'done' | 'copy'> {
  const text = new BodyReader(body).cstring();
  let pieces;
  try {
    pieces = splitStatements(text);
  } catch (error) {
    throw new StatementFailure(error, text, 0);
  }
  if (pieces.length === 0) {
    out.empty('I');
    return 'done';
  }
  for (const piece of pieces) {
    let portal: Portal | undefined;
    try {
      const prepared = prepareStatement(piece.text, [], session.catalog, piece.offset);
      if (prepared.statement?.kind === 'copy' && piece !== pieces[pieces.length - 1]) {
        throw new SqlError('COPY FROM STDIN must be the last statement of a query', 0, 'SVC_SQL_SEMANTIC');
      }
      portal = new Portal(prepared, [], [], session);
      const columns = portal.columns;
      if (columns !== undefined) out.rowDescription(columnDescriptions(columns, []));
      onPortal(portal);
      if (await portal.execute(0, out, session) === 'copy') return 'copy';
    } catch (error) {
      throw new StatementFailure(error, text, piece.offset);
    } finally {
      onPortal(undefined);
      portal?.close();
    }
  }
  return 'done';
}
