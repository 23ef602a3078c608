// QuestDB LIMIT arithmetic, shared by the binder (how many rows a sort must keep), the optimizer and the LIMIT
// operator: `n` first n, `-n` last n, `lo,hi` rows (lo, hi] (bounds swapped when lo > hi), `-m,-n` the last m
// minus the last n, `m,-n` drops the first m and last n. Pure functions of the constants.

/** Rows to return as [from, to) of the full result; `total` is needed only for negative forms. */
export interface LimitRange {
  readonly needsTotal: boolean;
  range(total: number): { from: number; to: number };
}

export function limitRange(lo: number, hi: number | undefined): LimitRange {
  if (hi === undefined) {
    if (lo >= 0) return { needsTotal: false, range: () => ({ from: 0, to: lo }) };
    return { needsTotal: true, range: (total) => ({ from: Math.max(0, total + lo), to: total }) };
  }
  if (lo >= 0 && hi >= 0) {
    const [a, b] = hi === 0 ? [0, lo] : lo > hi ? [hi, lo] : [lo, hi];
    return { needsTotal: false, range: () => ({ from: a, to: b }) };
  }
  if (lo < 0 && hi < 0) {
    const [m, n] = -lo < -hi ? [-hi, -lo] : [-lo, -hi];
    return { needsTotal: true, range: (total) => ({ from: Math.max(0, total - m), to: Math.max(0, total - n) }) };
  }
  if (lo >= 0) return { needsTotal: true, range: (total) => ({ from: lo, to: Math.max(lo, total + hi) }) };
  return { needsTotal: false, range: () => ({ from: 0, to: hi }) };
}

/** How many leading rows of the ordered result a LIMIT reads; undefined when it needs the total (negative forms). */
export function limitKeepRows(lo: number, hi: number | undefined): number | undefined {
  const range = limitRange(lo, hi);
  return range.needsTotal ? undefined : Math.max(0, range.range(0).to);
}
