// Reuses compiled queries on the thread that compiled them: the same statement text over the same table
// versions gets the same QueryFactory back, skipping parse, bind, optimize and physical planning (factories are
// reusable by contract: each open() makes its own cursor). An entry is valid while every table it opened still
// has the very txn its snapshot holds (Catalog.currentTxn: every commit, ALTER, DROP or re-create changes it).
// Only statements that cannot depend on anything else are kept: one plain SELECT over tables of the catalog,
// calling pure functions only (no clock, random, catalog or session functions, no subqueries, no table
// functions, no bind parameters, no window calls), over local partitions (cold ones plan their fetches at
// compile time). When in doubt a statement is not kept. Entries and key lengths are bounded (core/limits.ts).
import type { Catalog, CompiledStatement } from './compiler.js';
import type { TableSnapshot } from '../storage/table-reader.js';
import { isPureFunctionName } from './functions/pure-functions.js';
import { planCacheEntriesMax, planCacheTextLengthMax } from '../core/limits.js';
import { assert } from '../core/assert.js';

type CompiledQuery = Extract<CompiledStatement, { kind: 'query' }>;

/** AST node kinds whose meaning is fixed at bind time by something other than the tables' txns, or nested plans. */
const UNCACHEABLE_KINDS: ReadonlySet<string> = new Set(['subquery', 'subquerySource', 'functionSource', 'parameter', 'setOperation']);

export class PlanCache {
  /** Insertion order is recency order: a hit moves its entry to the end, the first entry is evicted first. */
  private readonly entries = new Map<string, CompiledQuery>();

  constructor(
    private readonly catalog: Catalog,
    private readonly compileText: (text: string, catalog: Catalog) => CompiledStatement,
    private readonly entriesMax: number = planCacheEntriesMax,
  ) {
    assert(entriesMax > 0, 'a plan cache holds at least one entry');
  }

  /** `compileText(text)`, or the plan compiled before for the same text while its tables are unchanged. */
  compile(text: string): CompiledStatement {
    const cached = this.entries.get(text);
    if (cached !== undefined) {
      this.entries.delete(text);
      if (this.isCurrent(cached)) {
        this.entries.set(text, cached);
        return cached;
      }
    }
    this.dropSuperseded();
    const compiled = this.compileText(text, this.catalog);
    if (compiled.kind === 'query' && text.length <= planCacheTextLengthMax && this.isReusable(compiled)) this.remember(text, compiled);
    return compiled;
  }

  /** Entries held now (tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  private remember(text: string, compiled: CompiledQuery): void {
    if (this.entries.size >= this.entriesMax) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(text, compiled);
    assert(this.entries.size <= this.entriesMax, 'the plan cache stays within its bound');
  }

  /**
   * Drops the entries over a txn this process has since seen replaced (no file is read): their snapshots hold
   * mappings of column files that may be deleted, whose disk space is freed only when the mappings go.
   */
  private dropSuperseded(): void {
    for (const [text, compiled] of this.entries) {
      for (const [storedName, snapshot] of compiled.snapshots) {
        if (this.catalog.lastReadTxn(storedName) === snapshot.txn) continue;
        this.entries.delete(text);
        break;
      }
    }
  }

  private isCurrent(compiled: CompiledQuery): boolean {
    for (const [storedName, snapshot] of compiled.snapshots) {
      if (this.catalog.currentTxn(storedName) !== snapshot.txn) return false;
    }
    return true;
  }

  private isReusable(compiled: CompiledQuery): boolean {
    const tableNames = cacheableTableNames(compiled.statement);
    if (tableNames === undefined) return false;
    for (const name of tableNames) {
      const stored = this.catalog.resolveName(name);
      // A name that is not a table of the catalog was answered by a catalog view (pg_catalog, information_schema…).
      if (stored === undefined || !compiled.snapshots.has(stored)) return false;
    }
    for (const snapshot of compiled.snapshots.values()) if (!isLocal(snapshot)) return false;
    return true;
  }
}

function isLocal(snapshot: TableSnapshot): boolean {
  return snapshot.partitions.every((partition) => partition.parquet === undefined);
}

/** The table names a statement reads, when it is of the kind the header allows; undefined otherwise. */
export function cacheableTableNames(statement: CompiledStatement['statement']): string[] | undefined {
  if (statement.kind !== 'query') return undefined;
  const found = { tables: [] as string[], selects: 0 };
  return walkCacheable(statement.query, found) && found.selects === 1 ? found.tables : undefined;
}

/** Visits every node below `node` (ASTs are plain data); false at the first one that makes the statement uncacheable. */
function walkCacheable(node: unknown, found: { tables: string[]; selects: number }): boolean {
  if (typeof node !== 'object' || node === null) return true;
  if (Array.isArray(node)) return node.every((item) => walkCacheable(item, found));
  const kind = 'kind' in node ? node.kind : undefined;
  if (typeof kind === 'string') {
    if (UNCACHEABLE_KINDS.has(kind)) return false;
    if (kind === 'select' && ++found.selects > 1) return false;
    if (kind === 'call' && !isPureCall(node)) return false;
    if (kind === 'table' && 'name' in node && typeof node.name === 'string') found.tables.push(node.name);
  }
  return Object.values(node).every((value) => walkCacheable(value, found));
}

function isPureCall(node: object): boolean {
  if ('over' in node && node.over !== undefined) return false;
  return 'name' in node && typeof node.name === 'string' && isPureFunctionName(node.name);
}
