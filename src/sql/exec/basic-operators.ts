// Row sources and per-batch operators: long_sequence, the one-row source of FROM-less selects,
// compiled filters and compiled projections.
import type { ColumnBatch } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { indent } from './operator.js';
import type { BoundExpr, OutputColumn } from '../bind/bound.js';
import type { CompiledFilter } from '../codegen/compile.js';
import { compileFilter, compileProjection } from '../codegen/compile.js';
import { gatherBatch } from './vector-ops.js';
import { batchRowsMax } from '../../core/limits.js';

export class LongSequenceFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[] = [{ name: 'x', type: 'LONG' }];
  readonly timestampIndex = -1;
  constructor(private readonly count: number) {}

  open(ctx: ExecContext): Cursor {
    let next = 1;
    const last = this.count;
    return {
      nextBatch(): ColumnBatch | undefined {
        if (next > last) return undefined;
        ctx.checkCancelled();
        const count = Math.min(batchRowsMax, last - next + 1);
        const data = new Float64Array(count);
        for (let k = 0; k < count; k++) data[k] = next + k;
        next += count;
        return { rowCount: count, vectors: [{ type: 'LONG', data }] };
      },
      close(): void {},
    };
  }

  explain(depth: number): string[] {
    return [indent(depth, `long_sequence count: ${this.count}`)];
  }
}

/** The single empty row a SELECT without FROM evaluates its expressions over. */
export class SingleRowFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[] = [];
  readonly timestampIndex = -1;

  open(): Cursor {
    let done = false;
    return {
      nextBatch: (): ColumnBatch | undefined => {
        if (done) return undefined;
        done = true;
        return { rowCount: 1, vectors: [] };
      },
      close(): void {},
    };
  }

  explain(depth: number): string[] {
    return [indent(depth, 'VirtualRecord')];
  }
}

export class FilterFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;
  private readonly filter: CompiledFilter;

  constructor(private readonly child: QueryFactory, predicate: BoundExpr) {
    this.columns = child.columns;
    this.timestampIndex = child.timestampIndex;
    this.filter = compileFilter(predicate);
  }

  open(ctx: ExecContext): Cursor {
    const input = this.child.open(ctx);
    const filter = this.filter;
    ctx.jitCompiled = true;
    let selection = new Int32Array(batchRowsMax);
    return {
      nextBatch(): ColumnBatch | undefined {
        for (let batch = input.nextBatch(); batch !== undefined; batch = input.nextBatch()) {
          if (selection.length < batch.rowCount) selection = new Int32Array(batch.rowCount);
          const matched = filter.run(batch, ctx.rt, selection);
          if (matched === batch.rowCount) return batch;
          if (matched > 0) return gatherBatch(batch, selection, matched);
        }
        return undefined;
      },
      close: () => input.close(),
    };
  }

  /** Counts the matching rows without gathering them (count(*) over this filter reads nothing else). */
  countMatches(ctx: ExecContext): number {
    const input = this.child.open(ctx);
    try {
      ctx.jitCompiled = true;
      let selection = new Int32Array(batchRowsMax);
      let total = 0;
      for (let batch = input.nextBatch(); batch !== undefined; batch = input.nextBatch()) {
        if (selection.length < batch.rowCount) selection = new Int32Array(batch.rowCount);
        total += this.filter.run(batch, ctx.rt, selection);
      }
      return total;
    } finally {
      input.close();
    }
  }

  explain(depth: number): string[] {
    return [indent(depth, 'Filter filter: compiled'), ...this.child.explain(depth + 1)];
  }

  get source(): string {
    return this.filter.source;
  }
}

export class ProjectFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;
  private readonly projection;

  constructor(private readonly child: QueryFactory, exprs: readonly BoundExpr[], names: readonly string[], timestampIndex: number) {
    this.columns = exprs.map((expr, k) => ({ name: names[k] ?? 'column', type: expr.type }));
    this.timestampIndex = timestampIndex;
    this.projection = compileProjection(exprs);
  }

  open(ctx: ExecContext): Cursor {
    const input = this.child.open(ctx);
    const projection = this.projection;
    return {
      nextBatch(): ColumnBatch | undefined {
        const batch = input.nextBatch();
        if (batch === undefined) return undefined;
        return { rowCount: batch.rowCount, vectors: projection.run(batch, ctx.rt) };
      },
      close: () => input.close(),
    };
  }

  explain(depth: number): string[] {
    return [indent(depth, 'VirtualRecord'), ...this.child.explain(depth + 1)];
  }
}
