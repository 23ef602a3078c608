// Type-aware SQL generation for the fuzzer: expressions built per result kind (number, text, boolean,
// timestamp) from the columns of the fixture tables, so most cases bind and reach execution: filters,
// grouping, SAMPLE BY, LATEST ON, joins, set operations and window functions, with limits at the edges.
export type FuzzKind = 'num' | 'str' | 'bool' | 'ts';

export interface TypedColumn {
  readonly name: string;
  readonly kind: FuzzKind | 'other';
}

export interface TypedTable {
  readonly name: string;
  readonly columns: readonly TypedColumn[];
  readonly designatedTimestamp?: string;
}

export function kindOfType(type: string): FuzzKind | 'other' {
  if (['INT', 'LONG', 'DOUBLE', 'FLOAT', 'SHORT', 'BYTE'].includes(type)) return 'num';
  if (['STRING', 'VARCHAR', 'SYMBOL', 'CHAR'].includes(type)) return 'str';
  if (type === 'BOOLEAN') return 'bool';
  if (type === 'TIMESTAMP' || type === 'DATE') return 'ts';
  return 'other';
}

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

const NUM_LITERALS = ['0', '1', '-1', '2', '10', '0.5', '-3.25', '2147483647', '9223372036854775807', '1e10', 'null', 'NaN', '100000'];
const STR_LITERALS = ["'a'", "''", "'S7'", "'x'", "'abc%'", "null", "'é🙂'", "'2024-01-01'"];
const TS_LITERALS = ["'2024-01-01'", "'2024-01-01T00:00:00.000000Z'", "'2023-12-31T23:59:59Z'", 'null', 'now()'];

class Generator {
  constructor(private readonly random: Random, private readonly columns: readonly TypedColumn[]) {}

  private column(kind: FuzzKind): string | undefined {
    const matching = this.columns.filter((column) => column.kind === kind);
    return matching.length === 0 ? undefined : pick(this.random, matching).name;
  }

  expr(kind: FuzzKind, depth: number): string {
    const random = this.random;
    if (depth <= 0 || random() < 0.3) {
      const column = random() < 0.75 ? this.column(kind) : undefined;
      if (column !== undefined) return column;
      return pick(random, kind === 'num' ? NUM_LITERALS : kind === 'str' ? STR_LITERALS : kind === 'ts' ? TS_LITERALS : ['true', 'false', 'null']);
    }
    const d = depth - 1;
    switch (kind) {
      case 'num': return pick(random, [
        () => `(${this.expr('num', d)} ${pick(random, ['+', '-', '*', '/', '%'])} ${this.expr('num', d)})`,
        () => `${pick(random, ['abs', 'round', 'floor', 'ceil', 'sqrt', 'ln', 'sign'])}(${this.expr('num', d)})`,
        () => `length(${this.expr('str', d)})`,
        () => `case when ${this.expr('bool', d)} then ${this.expr('num', d)} else ${this.expr('num', d)} end`,
        () => `cast(${this.expr(pick(random, ['num', 'str'] as const), d)} as ${pick(random, ['int', 'long', 'double', 'float', 'short'])})`,
        () => `coalesce(${this.expr('num', d)}, ${this.expr('num', d)})`,
        () => `-${this.expr('num', d)}`,
      ])();
      case 'str': return pick(random, [
        () => `(${this.expr('str', d)} || ${this.expr(pick(random, ['str', 'num'] as const), d)})`,
        () => `${pick(random, ['upper', 'lower', 'trim', 'ltrim', 'rtrim'])}(${this.expr('str', d)})`,
        () => `substring(${this.expr('str', d)}, ${this.expr('num', d)}, ${this.expr('num', d)})`,
        () => `left(${this.expr('str', d)}, ${this.expr('num', d)})`,
        () => `replace(${this.expr('str', d)}, ${this.expr('str', d)}, ${this.expr('str', d)})`,
        () => `cast(${this.expr(pick(random, ['num', 'ts', 'bool'] as const), d)} as string)`,
        () => `case when ${this.expr('bool', d)} then ${this.expr('str', d)} else ${this.expr('str', d)} end`,
        () => `to_str(${this.expr('ts', d)}, 'yyyy-MM-dd')`,
      ])();
      case 'bool': return pick(random, [
        () => `${this.expr('num', d)} ${pick(random, ['=', '!=', '<', '<=', '>', '>='])} ${this.expr('num', d)}`,
        () => `${this.expr('str', d)} ${pick(random, ['=', '!=', '<', '>'])} ${this.expr('str', d)}`,
        () => `${this.expr('str', d)} ${pick(random, ['like', 'ilike', '~'])} ${pick(random, ["'a%'", "'%S%'", "'_'", "'^S[0-9]+$'", "'('"])}`,
        () => `(${this.expr('bool', d)} ${pick(random, ['and', 'or'])} ${this.expr('bool', d)})`,
        () => `not ${this.expr('bool', d)}`,
        () => `${this.expr('num', d)} between ${this.expr('num', d)} and ${this.expr('num', d)}`,
        () => `${this.expr(pick(random, ['num', 'str', 'ts'] as const), d)} is ${random() < 0.5 ? 'not ' : ''}null`,
        () => `${this.expr('num', d)} in (${this.expr('num', 0)}, ${this.expr('num', 0)})`,
        () => `${this.expr('ts', d)} ${pick(random, ['<', '>', '='])} ${this.expr('ts', d)}`,
        () => `${this.expr('ts', d)} in ${pick(random, ["'2024-01-01'", "'2024-01-01;2h'", "'2024-01-01T00:00:00Z;1d;2d;3'", "'2025'"])}`,
      ])();
      case 'ts': return pick(random, [
        () => `dateadd('${pick(random, ['s', 'm', 'h', 'd', 'M', 'y'])}', ${this.expr('num', d)}, ${this.expr('ts', d)})`,
        () => `timestamp_floor('${pick(random, ['m', 'h', 'd', 'M', 'y'])}', ${this.expr('ts', d)})`,
        () => `cast(${this.expr(pick(random, ['num', 'str'] as const), d)} as timestamp)`,
        () => `coalesce(${this.expr('ts', d)}, ${this.expr('ts', d)})`,
      ])();
    }
  }

  anyExpr(depth: number): string {
    return this.expr(pick(this.random, ['num', 'str', 'bool', 'ts'] as const), depth);
  }
}

const AGGREGATES: readonly [string, FuzzKind][] = [['sum', 'num'], ['avg', 'num'], ['min', 'num'], ['max', 'str'], ['first', 'ts'], ['last', 'num'],
  ['count_distinct', 'str'], ['stddev_samp', 'num'], ['ksum', 'num'], ['nsum', 'num'], ['min', 'ts'], ['max', 'num']];
const LIMITS = ['0', '1', '3', '-1', '-3', '2,5', '-5,-1', '5,2', '100000000000', '-100000000000'];

function limitClause(random: Random): string {
  return random() < 0.5 ? ` limit ${pick(random, LIMITS)}` : '';
}

/** One statement over the typed fixture tables. */
export function generateTypedStatement(random: Random, tables: readonly TypedTable[]): string {
  const table = pick(random, tables);
  const gen = new Generator(random, table.columns);
  const where = (): string => (random() < 0.5 ? ` where ${gen.expr('bool', 3)}` : '');
  const shape = random();
  if (shape < 0.3) {
    const projections = Array.from({ length: 1 + Math.floor(random() * 4) }, () => gen.anyExpr(3));
    const order = random() < 0.4 ? ` order by ${1 + Math.floor(random() * projections.length)}${random() < 0.5 ? ' desc' : ''}` : '';
    return `select ${random() < 0.1 ? 'distinct ' : ''}${projections.join(', ')} from ${table.name}${where()}${order}${limitClause(random)}`;
  }
  if (shape < 0.55) {
    const keys = Array.from({ length: Math.floor(random() * 3) }, () => gen.anyExpr(1));
    const aggregates = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
      const [name, kind] = pick(random, AGGREGATES);
      return random() < 0.2 ? 'count()' : `${name}(${gen.expr(kind, 2)})`;
    });
    const sample = table.designatedTimestamp !== undefined && random() < 0.3
      ? ` sample by ${pick(random, ['1h', '1d', '30m', '1M', '7d'])}${random() < 0.5 ? ` fill(${pick(random, ['null', 'prev', 'linear', 'none', '0'])})` : ''}${random() < 0.3 ? ' align to calendar' : ''}`
      : '';
    const order = random() < 0.4 ? ` order by ${1 + Math.floor(random() * (keys.length + aggregates.length))}` : '';
    return `select ${[...keys, ...aggregates].join(', ')} from ${table.name}${where()}${sample}${order}${limitClause(random)}`;
  }
  if (shape < 0.65 && table.designatedTimestamp !== undefined) {
    const key = table.columns.find((column) => column.kind === 'str');
    if (key !== undefined) return `select * from ${table.name}${where()} latest on ${table.designatedTimestamp} partition by ${key.name}`;
  }
  if (shape < 0.8) {
    const other = pick(random, tables);
    const left = pick(random, table.columns);
    const right = other.columns.find((column) => column.kind === left.kind) ?? pick(random, other.columns);
    const join = other.designatedTimestamp !== undefined && table.designatedTimestamp !== undefined && random() < 0.4
      ? pick(random, ['asof join', 'lt join', 'splice join'])
      : pick(random, ['join', 'left join', 'cross join']);
    const on = join === 'cross join' ? '' : random() < 0.2 && join !== 'join' && join !== 'left join' ? '' : ` on a.${left.name} = b.${right.name}`;
    return `select a.${left.name}, b.${right.name} from ${table.name} a ${join} ${other.name} b${on}${limitClause(random)}`;
  }
  if (shape < 0.9) {
    const column = pick(random, table.columns).name;
    const order = table.designatedTimestamp ?? column;
    const fn = pick(random, ['row_number()', 'rank()', 'dense_rank()', `lag(${column})`, `lead(${column})`, `first_value(${column})`, `sum(${gen.expr('num', 1)})`, `avg(${gen.expr('num', 1)})`, 'count(*)']);
    const frame = random() < 0.3 ? pick(random, [' rows between 2 preceding and current row', ' rows between unbounded preceding and current row', ' range between 1 hour preceding and current row']) : '';
    return `select ${column}, ${fn} over (${random() < 0.5 ? `partition by ${column} ` : ''}order by ${order}${frame}) from ${table.name}${limitClause(random)}`;
  }
  const other = pick(random, tables);
  const a = pick(random, table.columns);
  const b = pick(random, other.columns);
  return `(select ${a.name} from ${table.name}) ${pick(random, ['union', 'union all', 'except', 'intersect'])} (select ${b.name} from ${other.name})${limitClause(random)}`;
}
