// Finished fragment plans, kept per table version (one txn of one table directory), so a fragment that runs again
// over the same rows reopens the plan it ran before instead of binding, optimizing and planning its statement
// anew. Both sides use it: each parallel thread for the fragments it runs, the calling thread for its own share.
// A plan reads the snapshot of its version cut to its slice. A newer txn replaces its directory's entry, and an
// entry idle for FRAGMENT_PLANS_IDLE_MS goes (with the mappings its snapshot holds, so files of a replaced
// partition version or a dropped table are not kept alive).
import { join } from 'node:path';
import type { Statement } from '../syntax/ast.js';
import type { QueryFactory } from '../exec/operator.js';
import type { SourceEnv } from '../bind/bind-source.js';
import { bindQueryWith } from '../bind/bind-query.js';
import { finishPlan } from '../exec/plan-query.js';
import type { Catalog } from '../../storage/catalog.js';
import type { PartitionRows, TableSnapshot } from '../../storage/table-reader.js';
import type { TableMeta } from '../../storage/table-meta.js';
import type { TxnState } from '../../storage/txn-file.js';
import { SqlError, sqlSemanticError } from '../../core/errors.js';
import { assert } from '../../core/assert.js';

/** An entry not used for this long is dropped, in ms. */
const FRAGMENT_PLANS_IDLE_MS = 10_000;
/** Plans kept per table version (statement texts times slices); past it the oldest plan is dropped. */
const PLANS_PER_VERSION_MAX = 64;
/** Table versions kept at once (distinct table directories); past it the least recently used goes. */
const VERSIONS_MAX = 32;

interface VersionPlans {
  readonly snapshot: TableSnapshot;
  readonly plans: Map<string, QueryFactory>;
  usedMs: number;
}

export class FragmentPlans {
  private readonly versions = new Map<string, VersionPlans>();

  constructor() {
    setInterval(() => this.dropIdle(Date.now()), FRAGMENT_PLANS_IDLE_MS).unref();
  }

  /**
   * The snapshot of table version (`dir`, `meta`, `txn`) this cache plans over; `open` makes it when the
   * directory's entry holds another version (or none), and that entry's plans go.
   */
  snapshotOf(dir: string, meta: TableMeta, txn: TxnState, open: () => TableSnapshot): TableSnapshot {
    return this.version(dir, meta, txn, open).snapshot;
  }

  /**
   * The plan of `statement` (named by `planKey`, the same key for the same statement text) over `slice` of the
   * version, bound and planned on first use. `batchRowsMin` is the scan batch floor of the slice.
   */
  plan(catalog: Catalog, snapshot: TableSnapshot, planKey: string, statement: Statement, slice: readonly PartitionRows[], batchRowsMin: number): QueryFactory {
    const version = this.version(snapshot.dir, snapshot.meta, snapshot.txn, () => snapshot);
    const key = `${planKey}\u0000${sliceKey(slice)}`;
    const cached = version.plans.get(key);
    if (cached !== undefined) return cached;
    if (version.plans.size >= PLANS_PER_VERSION_MAX) {
      const oldest = version.plans.keys().next();
      if (oldest.done !== true) version.plans.delete(oldest.value);
    }
    const factory = planFragment(catalog, version.snapshot.withSlice(slice, batchRowsMin), statement);
    version.plans.set(key, factory);
    return factory;
  }

  private version(dir: string, meta: TableMeta, txn: TxnState, open: () => TableSnapshot): VersionPlans {
    const now = Date.now();
    const cached = this.versions.get(dir);
    if (cached !== undefined && sameVersion(cached.snapshot, meta, txn)) {
      cached.usedMs = now;
      return cached;
    }
    const snapshot = open();
    assert(snapshot.dir === dir && sameVersion(snapshot, meta, txn), 'a fragment snapshot is opened at the version asked for');
    this.versions.delete(dir);
    if (this.versions.size >= VERSIONS_MAX) this.dropLeastRecent();
    const fresh: VersionPlans = { snapshot, plans: new Map(), usedMs: now };
    this.versions.set(dir, fresh);
    return fresh;
  }

  private dropIdle(now: number): void {
    for (const [dir, version] of this.versions) if (now - version.usedMs > FRAGMENT_PLANS_IDLE_MS) this.versions.delete(dir);
  }

  private dropLeastRecent(): void {
    let oldest: string | undefined;
    let oldestMs = Infinity;
    for (const [dir, version] of this.versions) {
      if (version.usedMs < oldestMs) {
        oldest = dir;
        oldestMs = version.usedMs;
      }
    }
    if (oldest !== undefined) this.versions.delete(oldest);
  }
}

function sameVersion(snapshot: TableSnapshot, meta: TableMeta, txn: TxnState): boolean {
  return snapshot.txn.txn === txn.txn && snapshot.txn.tableId === txn.tableId && snapshot.meta.structureVersion === meta.structureVersion;
}

function sliceKey(slice: readonly PartitionRows[]): string {
  let key = '';
  for (const part of slice) key += `${part.partitionIndex}:${part.lo}:${part.hi};`;
  return key;
}

/** Binds and plans a fragment statement in an environment whose only table is `sliced`. */
function planFragment(catalog: Catalog, sliced: TableSnapshot, statement: Statement): QueryFactory {
  if (statement.kind !== 'query') throw new SqlError('a parallel fragment must be a query', 0, 'SVC_INTERNAL', 500);
  const env: SourceEnv = {
    catalog,
    bindQuery: (query) => bindQueryWith(query, env),
    compileQuery: (query) => finishPlan(bindQueryWith(query, env)),
    finishPlan,
    openTable(name, position) {
      const stored = catalog.resolveName(name);
      if (stored === undefined || join(catalog.dbDir, stored) !== sliced.dir) throw sqlSemanticError(`table does not exist [table=${name}]`, position);
      return sliced;
    },
  };
  return finishPlan(bindQueryWith(statement.query, env));
}
