// Statement and expression nodes produced by the parser: discriminated unions on `kind`.
// Every node carries `position`, the 0-based UTF-16 offset of its first token in the statement text;
// name-bearing nodes also carry the position of the name token, so errors can point at it.

export interface Name {
  readonly name: string;
  readonly position: number;
}

// ---------- expressions ----------

export type LiteralType = 'INT' | 'LONG' | 'DOUBLE' | 'FLOAT' | 'STRING' | 'CHAR' | 'BOOLEAN' | 'NULL' | 'LONG256' | 'GEOHASH' | 'DECIMAL';

export interface LiteralExpr {
  readonly kind: 'literal';
  readonly position: number;
  readonly literalType: LiteralType;
  /**
   * INT/DOUBLE/FLOAT: number (NaN for the `NaN` literal); LONG: bigint; STRING/CHAR: the unquoted text; BOOLEAN;
   * NULL: null; LONG256: canonical hex text; GEOHASH: the hash as binary digits (their count is the precision);
   * DECIMAL: the number as written without its `m` suffix.
   */
  readonly value: number | bigint | string | boolean | null;
  /** Source text of the token, as written. */
  readonly text: string;
}

export interface ColumnRefExpr {
  readonly kind: 'column';
  readonly position: number;
  /** Qualifier before the dot (`t` in `t.price`), if written. */
  readonly qualifier?: string;
  readonly name: string;
}

/** `*` or `t.*` in a select list, or the `*` of `count(*)` (then it appears in CallExpr.star instead). */
export interface StarExpr {
  readonly kind: 'star';
  readonly position: number;
  readonly qualifier?: string;
}

export type UnaryOp = '-' | '+' | 'not' | '~';

export interface UnaryExpr {
  readonly kind: 'unary';
  readonly position: number;
  readonly op: UnaryOp;
  readonly operand: Expr;
}

export type BinaryOp =
  | '+' | '-' | '*' | '/' | '%' | '||'
  | '=' | '!=' | '<' | '<=' | '>' | '>='
  | 'and' | 'or'
  | 'like' | 'ilike' | 'not like' | 'not ilike' | '~' | '!~' | '~*' | '!~*'
  | '&' | '|' | '^';

export interface BinaryExpr {
  readonly kind: 'binary';
  /** Position of the operator token (QuestDB reports operator errors there). */
  readonly position: number;
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
}

export interface CallExpr {
  readonly kind: 'call';
  /** Position of the function name token. */
  readonly position: number;
  /** Function name as written (case preserved); resolution is case-insensitive. */
  readonly name: string;
  readonly args: readonly Expr[];
  /** `count(*)`. */
  readonly star: boolean;
  /** `count(DISTINCT x)`. */
  readonly distinct: boolean;
  /** `lag(x) IGNORE NULLS OVER (...)`. */
  readonly ignoreNulls: boolean;
  readonly over?: WindowSpec;
}

export interface CastExpr {
  readonly kind: 'cast';
  /** Position of `CAST` or of the `::` token. */
  readonly position: number;
  readonly operand: Expr;
  /** Type name as written, upper-cased (e.g. `TIMESTAMP`, `VARCHAR`, `IPV4`). */
  readonly typeName: string;
  readonly typePosition: number;
  /** True for the `x::T` form (same semantics; kept for EXPLAIN text). */
  readonly shorthand: boolean;
}

export interface CaseExpr {
  readonly kind: 'case';
  readonly position: number;
  /** `CASE x WHEN v THEN ...` form has a subject; the searched form does not. */
  readonly subject?: Expr;
  readonly whens: readonly { readonly when: Expr; readonly then: Expr }[];
  readonly otherwise?: Expr;
}

export interface InExpr {
  readonly kind: 'in';
  /** Position of the `IN` keyword. */
  readonly position: number;
  readonly operand: Expr;
  readonly negated: boolean;
  /** `x IN (a, b)` and `ts IN '2024-01'` (a single-element list without parentheses is allowed). */
  readonly list?: readonly Expr[];
  readonly subquery?: QueryExpr;
}

export interface BetweenExpr {
  readonly kind: 'between';
  /** Position of the `BETWEEN` keyword. */
  readonly position: number;
  readonly operand: Expr;
  readonly low: Expr;
  readonly high: Expr;
  readonly negated: boolean;
}

export interface IsNullExpr {
  readonly kind: 'isNull';
  /** Position of the `IS` keyword. */
  readonly position: number;
  readonly operand: Expr;
  readonly negated: boolean;
}

export interface SubqueryExpr {
  readonly kind: 'subquery';
  readonly position: number;
  readonly query: QueryExpr;
}

/** `ARRAY[1.0, 2.0]`; nested brackets inside an array constructor (`ARRAY[[1, 2], [3, 4]]`) are arrays too. */
export interface ArrayExpr {
  readonly kind: 'array';
  /** Position of the `ARRAY` keyword, or of `[` for a nested element. */
  readonly position: number;
  readonly elements: readonly Expr[];
}

/** `arr[1]`, `arr[1, 2]` (one index per dimension); indexes are 1-based as written. */
export interface ArrayIndexExpr {
  readonly kind: 'arrayIndex';
  /** Position of the `[` token. */
  readonly position: number;
  readonly operand: Expr;
  readonly indexes: readonly Expr[];
}

/**
 * A bind parameter `$n` (PostgreSQL extended query protocol). The parser leaves `value` unset; the protocol
 * layer fills it from the client's Bind values (bind/bind-parameters.ts) and the binder makes it a typed constant.
 */
export interface ParameterExpr {
  readonly kind: 'parameter';
  readonly position: number;
  /** 1-based, as written after the `$`. */
  readonly index: number;
  readonly value?: ParameterValue;
}

/**
 * A parameter's value as plain data (it crosses IPC to the primary for writes): the type it binds as and the
 * value's canonical text (numbers in decimal, TIMESTAMP/DATE as epoch µs/ms, BINARY in hex), or null.
 */
export interface ParameterValue {
  readonly type: 'BOOLEAN' | 'SHORT' | 'INT' | 'LONG' | 'FLOAT' | 'DOUBLE' | 'TIMESTAMP' | 'DATE' | 'VARCHAR' | 'UUID' | 'CHAR' | 'BINARY';
  readonly text: string | null;
}

export type Expr =
  | LiteralExpr | ColumnRefExpr | StarExpr | UnaryExpr | BinaryExpr | CallExpr | CastExpr
  | CaseExpr | InExpr | BetweenExpr | IsNullExpr | SubqueryExpr | ArrayExpr | ArrayIndexExpr | ParameterExpr;

// ---------- window specifications ----------

export interface OrderItem {
  readonly expr: Expr;
  readonly descending: boolean;
  /** Explicit NULLS FIRST / NULLS LAST; undefined means the default (nulls are the smallest values). */
  readonly nulls?: 'first' | 'last';
}

export interface FrameBound {
  readonly kind: 'unboundedPreceding' | 'preceding' | 'currentRow' | 'following' | 'unboundedFollowing';
  readonly position: number;
  /** `n PRECEDING` / `n FOLLOWING`: the n. */
  readonly offset?: Expr;
  /** Time unit for RANGE offsets (`1 HOUR PRECEDING` → 'HOUR'), upper-cased. */
  readonly unit?: string;
}

export interface WindowFrame {
  readonly mode: 'rows' | 'range' | 'groups';
  readonly position: number;
  readonly start: FrameBound;
  readonly end: FrameBound;
  readonly exclude?: 'currentRow' | 'group' | 'ties' | 'noOthers';
}

export interface WindowSpec {
  readonly position: number;
  readonly partitionBy: readonly Expr[];
  readonly orderBy: readonly OrderItem[];
  readonly frame?: WindowFrame;
}

// ---------- queries ----------

export interface SelectItem {
  readonly expr: Expr;
  readonly alias?: Name;
}

export interface TableSource {
  readonly kind: 'table';
  readonly position: number;
  /** Table name as written (unquoted); `'name'` string form is accepted and unquoted too. */
  readonly name: string;
  readonly alias?: Name;
  /** `FROM t TIMESTAMP(col)` re-declares the designated timestamp of the table. */
  readonly timestamp?: Name;
  /** PostgreSQL's column alias list `t a(x, y)`: parsed so the statement reads, refused by the binder. */
  readonly columnAliases?: readonly Name[];
}

export interface SubquerySource {
  readonly kind: 'subquerySource';
  readonly position: number;
  readonly query: QueryExpr;
  readonly alias?: Name;
  /** `(subquery) TIMESTAMP(col)` declares the designated timestamp of a derived table. */
  readonly timestamp?: Name;
  /** PostgreSQL's column alias list `(subquery) s(x, y)`: parsed so the statement reads, refused by the binder. */
  readonly columnAliases?: readonly Name[];
}

export interface FunctionSource {
  readonly kind: 'functionSource';
  readonly position: number;
  /** `long_sequence(10)`, `tables()`, `table_columns('t')`... */
  readonly call: CallExpr;
  readonly alias?: Name;
  /** `long_sequence(10) x TIMESTAMP(x)`. */
  readonly timestamp?: Name;
  /** PostgreSQL's column alias list `unnest(a) s(n)`: parsed so the statement reads, refused by the binder. */
  readonly columnAliases?: readonly Name[];
}

export type JoinType = 'inner' | 'left' | 'right' | 'full' | 'cross' | 'asof' | 'lt' | 'splice';

export interface JoinSource {
  readonly kind: 'join';
  /** Position of the join keyword(s). */
  readonly position: number;
  readonly joinType: JoinType;
  readonly left: FromSource;
  readonly right: FromSource;
  /** `ON expr`. */
  readonly on?: Expr;
  /** `ON (a, b)` / `USING (a, b)`: equality on same-named columns. */
  readonly using?: readonly Name[];
  /** ASOF/LT `TOLERANCE 1s`. */
  readonly tolerance?: { readonly value: number; readonly unit: string; readonly position: number };
}

export type FromSource = TableSource | SubquerySource | FunctionSource | JoinSource;

export type FillItem =
  | { readonly kind: 'none' | 'null' | 'prev' | 'linear'; readonly position: number }
  | { readonly kind: 'value'; readonly position: number; readonly value: Expr };

export interface SampleByClause {
  readonly position: number;
  /** `SAMPLE BY 15m` → count 15, unit 'm'. Units: U T s m h d w M y n (case-sensitive). */
  readonly count: number;
  readonly unit: string;
  readonly unitPosition: number;
  readonly from?: Expr;
  readonly to?: Expr;
  readonly fill: readonly FillItem[];
  readonly align: 'calendar' | 'firstObservation';
  readonly timeZone?: Expr;
  readonly offset?: Expr;
}

export interface LatestOnClause {
  readonly position: number;
  /** `LATEST ON ts PARTITION BY ...`; undefined for the legacy `LATEST BY k` form. */
  readonly timestamp?: Name;
  readonly partitionBy: readonly Expr[];
}

export interface LimitClause {
  readonly position: number;
  /** `LIMIT n` has only `lo`; `LIMIT lo, hi` has both. */
  readonly lo: Expr;
  readonly hi?: Expr;
}

export interface CommonTableExpr {
  readonly name: Name;
  readonly query: QueryExpr;
}

export interface SelectQuery {
  readonly kind: 'select';
  readonly position: number;
  readonly with: readonly CommonTableExpr[];
  readonly distinct: boolean;
  /** A bare table name query (`trades` ≡ `SELECT * FROM trades`) has a single star item. */
  readonly columns: readonly SelectItem[];
  readonly from?: FromSource;
  readonly where?: Expr;
  readonly latestOn?: LatestOnClause;
  readonly sampleBy?: SampleByClause;
  readonly groupBy: readonly Expr[];
  readonly having?: Expr;
  readonly orderBy: readonly OrderItem[];
  readonly limit?: LimitClause;
}

export interface SetOperationQuery {
  readonly kind: 'setOperation';
  /** Position of the UNION / EXCEPT / INTERSECT keyword. */
  readonly position: number;
  readonly op: 'union' | 'except' | 'intersect';
  readonly all: boolean;
  readonly left: QueryExpr;
  readonly right: QueryExpr;
  readonly with: readonly CommonTableExpr[];
  /** ORDER BY / LIMIT written after the last operand apply to the whole set operation. */
  readonly orderBy: readonly OrderItem[];
  readonly limit?: LimitClause;
}

export type QueryExpr = SelectQuery | SetOperationQuery;

// ---------- statements ----------

export interface QueryStatement {
  readonly kind: 'query';
  readonly position: number;
  readonly query: QueryExpr;
}

export interface ColumnDef {
  readonly name: Name;
  /** Upper-cased type name as written (`SYMBOL`, `TIMESTAMP`, `DOUBLE`...). */
  readonly typeName: string;
  readonly typePosition: number;
  /** SYMBOL options, parsed and kept for SHOW CREATE TABLE. */
  readonly symbolCapacity?: number;
  readonly cached?: boolean;
  readonly indexed?: boolean;
  /** `INDEX CAPACITY n` (inline or `, INDEX(col CAPACITY n)`). */
  readonly indexCapacity?: number;
}

/** `TTL 2 DAYS` / `TTL 12h`: unit normalised to HOUR, DAY, WEEK, MONTH or YEAR. */
export interface TtlClause {
  readonly value: number;
  readonly unit: 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';
  readonly position: number;
}

/** `STORAGE POLICY(TO PARQUET 7d, TO REMOTE 14d, DROP LOCAL 30d, DROP REMOTE 1Y)`: the stages written. */
export interface StoragePolicyClause {
  readonly position: number;
  readonly toParquet?: TtlClause;
  readonly toRemote?: TtlClause;
  readonly dropLocal?: TtlClause;
  readonly dropRemote?: TtlClause;
}

export type PartitionUnit = 'NONE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';

export interface CreateTableStatement {
  readonly kind: 'createTable';
  readonly position: number;
  readonly table: Name;
  readonly ifNotExists: boolean;
  /** Column definitions; empty for CREATE TABLE ... AS (SELECT ...). */
  readonly columns: readonly ColumnDef[];
  readonly asSelect?: QueryExpr;
  /** `CREATE TABLE t (LIKE other)`. */
  readonly like?: Name;
  readonly timestamp?: Name;
  readonly partitionBy?: { readonly unit: PartitionUnit; readonly position: number };
  /** `WAL` → true, `BYPASS WAL` → false, absent → undefined. */
  readonly wal?: boolean;
  readonly dedupKeys?: readonly Name[];
  /** `WITH maxUncommittedRows=..., o3MaxLag=...` and similar key=value settings, kept raw. */
  readonly settings: readonly { readonly key: Name; readonly value: Expr }[];
  /** CREATE TABLE ... AS (...), CAST(col AS type): column types forced on the query's columns. */
  readonly casts?: readonly { readonly column: Name; readonly typeName: string; readonly typePosition: number }[];
  /** CREATE TABLE ... AS (...), INDEX(col [CAPACITY n]): columns to index (for column lists they set ColumnDef.indexed). */
  readonly indexes?: readonly { readonly column: Name; readonly capacity?: number }[];
  readonly ttl?: TtlClause;
  readonly storagePolicy?: StoragePolicyClause;
}

export interface DropTableStatement {
  readonly kind: 'dropTable';
  readonly position: number;
  readonly tables: readonly Name[];
  readonly ifExists: boolean;
  /** `DROP ALL TABLES`. */
  readonly all: boolean;
}

export interface TruncateTableStatement {
  readonly kind: 'truncateTable';
  readonly position: number;
  readonly tables: readonly Name[];
  readonly ifExists: boolean;
}

export interface RenameTableStatement {
  readonly kind: 'renameTable';
  readonly position: number;
  readonly from: Name;
  readonly to: Name;
}

export interface InsertStatement {
  readonly kind: 'insert';
  readonly position: number;
  readonly table: Name;
  /** Explicit column list, if written. */
  readonly columns?: readonly Name[];
  /** `VALUES (...), (...)`: one expression list per row. */
  readonly rows?: readonly (readonly Expr[])[];
  /** `INSERT INTO t SELECT ...` / `INSERT INTO t (SELECT ...)`. */
  readonly query?: QueryExpr;
  /** `INSERT ATOMIC` / `INSERT BATCH n` options, parsed and ignored. */
  readonly batchSize?: number;
}

export interface UpdateStatement {
  readonly kind: 'update';
  readonly position: number;
  readonly table: Name;
  readonly alias?: Name;
  readonly assignments: readonly { readonly column: Name; readonly value: Expr }[];
  readonly from?: FromSource;
  readonly where?: Expr;
}

export type AlterAction =
  | { readonly kind: 'addColumn'; readonly position: number; readonly columns: readonly ColumnDef[]; readonly ifNotExists: boolean }
  | { readonly kind: 'dropColumn'; readonly position: number; readonly columns: readonly Name[] }
  | { readonly kind: 'renameColumn'; readonly position: number; readonly from: Name; readonly to: Name }
  | { readonly kind: 'alterColumnType'; readonly position: number; readonly column: Name; readonly typeName: string; readonly typePosition: number }
  | { readonly kind: 'dropPartition'; readonly position: number; readonly list?: readonly Expr[]; readonly where?: Expr }
  /** CONVERT PARTITION TO PARQUET | NATIVE, LIST or WHERE as in DROP PARTITION. */
  | { readonly kind: 'convertPartition'; readonly position: number; readonly toParquet: boolean; readonly list?: readonly Expr[]; readonly where?: Expr }
  /**
   * Cold storage now, without waiting for the policy: `CONVERT PARTITION TO REMOTE` uploads (converting to Parquet
   * first), `DROP LOCAL PARTITION` removes the local file of partitions already in the store.
   */
  | { readonly kind: 'coldPartition'; readonly position: number; readonly move: 'toRemote' | 'dropLocal'; readonly list?: readonly Expr[]; readonly where?: Expr }
  /** SET STORAGE POLICY(...) merges the stages written; ENABLE, DISABLE and DROP STORAGE POLICY. */
  | { readonly kind: 'storagePolicy'; readonly position: number; readonly change: 'set' | 'enable' | 'disable' | 'drop'; readonly stages?: StoragePolicyClause }
  | { readonly kind: 'setParam'; readonly position: number; readonly settings: readonly { readonly key: Name; readonly value: Expr }[] }
  | { readonly kind: 'dedup'; readonly position: number; readonly enable: boolean; readonly keys: readonly Name[] }
  | { readonly kind: 'other'; readonly position: number; readonly text: string };

export interface AlterTableStatement {
  readonly kind: 'alterTable';
  readonly position: number;
  readonly table: Name;
  readonly action: AlterAction;
}

export interface ShowStatement {
  readonly kind: 'show';
  readonly position: number;
  readonly what: 'tables' | 'columns' | 'partitions' | 'createTable' | 'parameters' | 'serverVersion' | 'timeZone' | 'setting' | 'all';
  readonly table?: Name;
  /** SHOW <parameter>: the parameter's name as written (`DateStyle`, `search_path`). */
  readonly setting?: Name;
}

export interface ExplainStatement {
  readonly kind: 'explain';
  readonly position: number;
  readonly statement: Statement;
  /** `EXPLAIN (FORMAT JSON) ...`; undefined when not written (text). */
  readonly format?: 'text' | 'json';
  /** `EXPLAIN (VERBOSE) ...`: the optimized logical plan follows the physical one. */
  readonly verbose?: boolean;
}

/** Statements accepted and answered with `{"ddl":"OK"}` without effect (SET, BEGIN, COMMIT, ROLLBACK, VACUUM...). */
export interface NoOpStatement {
  readonly kind: 'noop';
  readonly position: number;
  /** Upper-cased leading keyword(s), e.g. `SET`, `COMMIT`. */
  readonly keyword: string;
  /** VACUUM TABLE t / REINDEX TABLE t: the table named, which must exist although nothing is done to it. */
  readonly table?: Name;
}

/**
 * Service accounts and their REST tokens (the HTTP bearer tokens): `CREATE SERVICE ACCOUNT a`,
 * `DROP SERVICE ACCOUNT a`, `ALTER SERVICE ACCOUNT a CREATE TOKEN TYPE REST WITH TTL '30d'`,
 * `ALTER SERVICE ACCOUNT a DROP TOKEN TYPE REST ['token']`.
 */
export interface ServiceAccountStatement {
  readonly kind: 'serviceAccount';
  readonly position: number;
  readonly action: 'create' | 'drop' | 'createToken' | 'dropToken';
  readonly account: Name;
  /** createToken only: the TTL text as written (`'30d'`) and its position; absent means the default TTL. */
  readonly ttl?: { readonly text: string; readonly position: number };
  /** dropToken only: the token to drop; without it the account's token is dropped whatever it is. */
  readonly token?: { readonly text: string; readonly position: number };
}

/**
 * `COPY t FROM STDIN [WITH] (FORMAT csv, HEADER, DELIMITER ',', NULL '')` or the older `WITH CSV HEADER` form:
 * a bulk load whose rows follow as CopyData messages (PostgreSQL wire protocol only).
 */
export interface CopyStatement {
  readonly kind: 'copy';
  readonly position: number;
  readonly table: Name;
  readonly format: 'text' | 'csv';
  readonly header: boolean;
  /** One character; default tab (text) or comma (csv). */
  readonly delimiter?: string;
  /** The text that stands for NULL; default `\N` (text) or an empty unquoted field (csv). */
  readonly nullText?: string;
}

export type Statement =
  | QueryStatement | CreateTableStatement | DropTableStatement | TruncateTableStatement | RenameTableStatement
  | InsertStatement | UpdateStatement | AlterTableStatement | ShowStatement | ExplainStatement | NoOpStatement
  | ServiceAccountStatement | CopyStatement;
