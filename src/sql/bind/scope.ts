// Name scopes: the columns a FROM source offers, with qualifiers, and case-insensitive resolution.
// A table scope hands out scan slots on first use, so scans read only the columns a query references.
import type { ValueType } from '../../types/column-type.js';
import { sqlSemanticError } from '../../core/errors.js';

export interface ScopeColumn {
  readonly name: string;
  readonly type: ValueType;
  /** Table name or alias that can qualify the column (`t.price`). */
  readonly qualifiers: readonly string[];
}

export class Scope {
  /** Scan slot of each scope column, assigned on first reference; identity for non-table sources. */
  private readonly slots: number[];
  private slotCount = 0;

  constructor(readonly columns: readonly ScopeColumn[], private readonly lazySlots: boolean) {
    this.slots = columns.map((_, k) => (lazySlots ? -1 : k));
    this.slotCount = lazySlots ? 0 : columns.length;
  }

  /** Index of a column in `columns`, or throws `Invalid column` at the position. */
  find(name: string, qualifier: string | undefined, position: number): number {
    const lower = name.toLowerCase();
    const qualifierLower = qualifier?.toLowerCase();
    let found = -1;
    this.columns.forEach((column, k) => {
      if (column.name.toLowerCase() !== lower) return;
      if (qualifierLower !== undefined && !column.qualifiers.some((q) => q.toLowerCase() === qualifierLower)) return;
      if (found >= 0) throw sqlSemanticError(`Ambiguous column [name=${name}]`, position);
      found = k;
    });
    if (found < 0) throw sqlSemanticError(`Invalid column: ${qualifier === undefined ? name : `${qualifier}.${name}`}`, position);
    return found;
  }

  /** The input slot that carries scope column `index` (allocating one for lazy table scopes). */
  slotOf(index: number): number {
    let slot = this.slots[index];
    if (slot < 0) {
      slot = this.slotCount++;
      this.slots[index] = slot;
    }
    return slot;
  }

  /** Scope column indexes in slot order: which table columns a lazy scan must read. */
  usedColumns(): number[] {
    const used: number[] = new Array<number>(this.slotCount);
    this.slots.forEach((slot, index) => {
      if (slot >= 0) used[slot] = index;
    });
    return used;
  }

  get lazy(): boolean {
    return this.lazySlots;
  }
}
