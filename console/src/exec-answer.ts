// The shapes of /exec answers as the console uses them, and the narrowing of an answer's JSON (`unknown`)
// into them. Pure: no DOM, so unit tests run it under Node.

export interface Column {
  readonly name: string;
  readonly type: string;
}

/** Server-side phases in nanoseconds, as QuestDB reports them with `timings=true`. */
export interface Timings {
  readonly compiler: number;
  readonly execute: number;
  readonly count: number;
}

export type Cell = string | number | boolean | null;

export interface RowsResult {
  readonly kind: 'rows';
  readonly columns: readonly Column[];
  /** Index of the designated timestamp column, -1 when the result has none. */
  readonly timestampIndex: number;
  readonly dataset: readonly (readonly Cell[])[];
  readonly count: number;
  readonly timings: Timings | undefined;
}

export type ExecResult =
  | RowsResult
  | { readonly kind: 'ddl' }
  | { readonly kind: 'dml' }
  | { readonly kind: 'error'; readonly message: string; readonly position: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function parseColumns(value: unknown): Column[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((column) => ({ name: String(column['name']), type: String(column['type']) }));
}

function parseCell(value: unknown): Cell {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

function parseDataset(value: unknown): Cell[][] {
  if (!Array.isArray(value)) return [];
  return value.map((row: unknown) => (Array.isArray(row) ? row.map(parseCell) : []));
}

function parseTimings(value: unknown): Timings | undefined {
  if (!isRecord(value)) return undefined;
  return { compiler: numberOr(value['compiler'], 0), execute: numberOr(value['execute'], 0), count: numberOr(value['count'], 0) };
}

/** Narrows an /exec answer body; anything unrecognised becomes an error at position 0. */
export function parseExecBody(body: unknown): ExecResult {
  if (!isRecord(body)) return { kind: 'error', message: 'unexpected answer from the server', position: 0 };
  if (typeof body['error'] === 'string') return { kind: 'error', message: body['error'], position: numberOr(body['position'], 0) };
  if (body['ddl'] !== undefined) return { kind: 'ddl' };
  if (body['dml'] !== undefined) return { kind: 'dml' };
  const dataset = parseDataset(body['dataset']);
  return {
    kind: 'rows',
    columns: parseColumns(body['columns']),
    timestampIndex: numberOr(body['timestamp'], -1),
    dataset,
    count: numberOr(body['count'], dataset.length),
    timings: parseTimings(body['timings']),
  };
}
