// CREATE TABLE [IF NOT EXISTS] t ( columns ) | AS (query) | (LIKE other), then `, INDEX(col ...)` / `, CAST(col AS T)`,
// TIMESTAMP(col), PARTITION BY unit and the options QuestDB allows after it in any order: WAL | BYPASS WAL,
// WITH k = v, TTL n unit, STORAGE POLICY(...), DEDUP UPSERT KEYS(...), IN VOLUME v, OWNED BY o. Duplicate column names fail here.
import type { ColumnDef, CreateTableStatement, Name, PartitionUnit, QueryExpr, StoragePolicyClause, TtlClause } from './ast.js';
import type { Token } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { compact, parseName, parseParenthesizedNames, parseTableName } from './parse-cursor.js';
import { parseColumnDef, parseInteger, parseSettings, upperWord } from './parse-ddl.js';
import { parseTypeName } from './parse-type-name.js';
import { parseStoragePolicyStages, parseTtlValue } from './parse-storage-policy.js';

type Casts = NonNullable<CreateTableStatement['casts']>;
type Indexes = NonNullable<CreateTableStatement['indexes']>;

export function parseCreateTable(c: ParseCursor, createToken: Token): CreateTableStatement {
  c.expectWord('table');
  const ifNotExists = c.acceptWord('if') !== undefined;
  if (ifNotExists && (!c.acceptWord('not') || !c.acceptWord('exists'))) throw c.error("'if not exists' expected");
  if (c.atStatementEnd()) throw c.error('table name expected');
  const head = { kind: 'createTable' as const, position: createToken.start, table: parseTableName(c), ifNotExists };
  if (c.isOperator('(') && c.isWord('like', 1)) {
    c.next();
    c.next();
    const like = parseTableName(c);
    c.expectOperator(')');
    return { ...head, columns: [], like, settings: [] };
  }
  let columns: ColumnDef[] = [];
  let asSelect: QueryExpr | undefined;
  if (c.acceptOperator('(')) columns = parseColumnDefs(c);
  else if (c.acceptWord('as')) asSelect = parseCreateAsQuery(c);
  else if (c.atEnd()) throw c.error("'(' or 'as' expected");
  else throw c.unexpected();
  const extras = parseExtras(c, asSelect !== undefined);
  if (asSelect === undefined) columns = applyIndexes(c, columns, extras.indexes);
  return compact({
    ...head, columns, asSelect,
    casts: extras.casts.length > 0 ? extras.casts : undefined,
    indexes: asSelect !== undefined && extras.indexes.length > 0 ? extras.indexes : undefined,
    ...parseTail(c),
  });
}

function parseColumnDefs(c: ParseCursor): ColumnDef[] {
  const columns: ColumnDef[] = [];
  const seen = new Set<string>();
  for (;;) {
    const column = parseColumnDef(c);
    const key = column.name.name.toLowerCase();
    if (seen.has(key)) throw c.errorAt(`Duplicate column [name=${column.name.name}]`, column.name.position);
    seen.add(key);
    columns.push(column);
    if (c.acceptOperator(')')) return columns;
    if (!c.acceptOperator(',')) throw c.found("',' or ')' expected");
  }
}

/** `AS (SELECT ...)` or `AS SELECT ...`. */
function parseCreateAsQuery(c: ParseCursor): QueryExpr {
  if (!c.acceptOperator('(')) return c.hooks.parseQuery(c);
  const query = c.hooks.parseQuery(c);
  c.expectOperator(')');
  return query;
}

/** `, INDEX(col [CAPACITY n])` and (CREATE ... AS only) `, CAST(col AS type)` after the column list or query. */
function parseExtras(c: ParseCursor, isCreateAs: boolean): { casts: Casts; indexes: Indexes } {
  const casts: Casts[number][] = [];
  const indexes: Indexes[number][] = [];
  while (c.acceptOperator(',')) {
    if (c.acceptWord('index')) {
      c.expectOperator('(');
      const column = parseName(c, 'literal');
      const capacity = c.acceptWord('capacity') ? parseInteger(c) : undefined;
      c.expectOperator(')');
      indexes.push(compact({ column, capacity }));
    } else if (c.isWord('cast')) {
      if (!isCreateAs) throw c.error("cast is only supported in 'create table as ...' context");
      c.next();
      c.expectOperator('(');
      const column = parseName(c, 'literal');
      c.expectWord('as');
      const type = parseTypeName(c);
      c.expectOperator(')');
      casts.push({ column, typeName: type.name, typePosition: type.position });
    } else {
      throw c.error(c.atEnd() ? "'index' or 'cast' expected" : `unexpected token [${c.peek().text}]`);
    }
  }
  return { casts, indexes };
}

function applyIndexes(c: ParseCursor, columns: ColumnDef[], indexes: Indexes): ColumnDef[] {
  let result = columns;
  for (const index of indexes) {
    const key = index.column.name.toLowerCase();
    const at = result.findIndex((column) => column.name.name.toLowerCase() === key);
    if (at < 0) throw c.errorAt(`Invalid column: ${index.column.name}`, index.column.position);
    const updated = compact({ ...result[at], indexed: true, indexCapacity: index.capacity ?? result[at].indexCapacity });
    result = result.map((column, i) => (i === at ? updated : column));
  }
  return result;
}

const PARTITION_UNITS: ReadonlySet<string> = new Set(['NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']);

interface CreateTail {
  timestamp?: Name;
  partitionBy?: { unit: PartitionUnit; position: number };
  wal?: boolean;
  dedupKeys?: Name[];
  settings: { key: Name; value: CreateTableStatement['settings'][number]['value'] }[];
  ttl?: TtlClause;
  storagePolicy?: StoragePolicyClause;
}

function parseTail(c: ParseCursor): CreateTail {
  const tail: CreateTail = { settings: [] };
  if (c.acceptWord('timestamp')) {
    c.expectOperator('(');
    tail.timestamp = parseName(c, 'literal');
    c.expectOperator(')');
  }
  if (c.acceptWord('partition')) {
    c.expectWord('by');
    const unit = c.peek();
    if (!PARTITION_UNITS.has(upperWord(unit))) throw c.error("'NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH' or 'YEAR' expected");
    c.next();
    tail.partitionBy = { unit: upperWord(unit) as PartitionUnit, position: unit.start };
  }
  while (parseTailOption(c, tail));
  return tail;
}

/** One option after PARTITION BY; false when the next token starts none. */
function parseTailOption(c: ParseCursor, tail: CreateTail): boolean {
  const word = upperWord(c.peek());
  if (word === 'WAL' && tail.wal === undefined) {
    c.next();
    tail.wal = true;
  } else if (word === 'BYPASS' && tail.wal === undefined) {
    c.next();
    c.expectWord('wal');
    tail.wal = false;
  } else if (word === 'WITH') {
    c.next();
    tail.settings.push(...parseSettings(c));
  } else if (word === 'TTL' && tail.ttl === undefined) {
    tail.ttl = parseTtl(c);
  } else if (word === 'STORAGE' && c.isWord('policy', 1) && tail.storagePolicy === undefined) {
    c.next();
    c.next();
    tail.storagePolicy = parseStoragePolicyStages(c);
  } else if ((word === 'DEDUP' || word === 'DEDUPLICATE') && tail.dedupKeys === undefined) {
    c.next();
    c.expectWord('upsert');
    c.expectWord('keys');
    tail.dedupKeys = parseParenthesizedNames(c, 'column name');
  } else if (word === 'IN' && c.isWord('volume', 1)) {
    c.next();
    c.next();
    parseName(c, 'volume name', true);
  } else if (word === 'OWNED' && c.isWord('by', 1)) {
    c.next();
    c.next();
    parseName(c, 'owner name', true);
  } else {
    return false;
  }
  return true;
}

/** `TTL 2 DAYS`, `TTL 2d`, `TTL 12 HOURS`. */
function parseTtl(c: ParseCursor): TtlClause {
  c.next();
  return parseTtlValue(c);
}
