// Output column naming as QuestDB does it: bare column → its name, alias → alias, function call → the
// function name, `::`/CAST → `cast`, anything else → `column`; clashes get the lowest free suffix 1, 2, ...
import type { Expr } from '../syntax/ast.js';

export function defaultColumnName(expr: Expr): string {
  switch (expr.kind) {
    case 'column': return expr.name;
    // `count(DISTINCT x)` is rewritten to count_distinct(x), so that is its name.
    case 'call': return expr.distinct ? `${expr.name}_distinct` : expr.name;
    case 'cast': return 'cast';
    // QuestDB names an unaliased numeric literal by its text (`select 1` has a column `1`).
    case 'literal': return expr.literalType === 'INT' || expr.literalType === 'LONG' || expr.literalType === 'DOUBLE' || expr.literalType === 'FLOAT' ? expr.text : 'column';
    default: return 'column';
  }
}

export class OutputNames {
  private readonly taken = new Set<string>();

  /** Reserves `name`, or the first free `name<k>`, case-insensitively. */
  claim(name: string): string {
    let candidate = name;
    for (let suffix = 1; this.taken.has(candidate.toLowerCase()); suffix++) candidate = `${name}${suffix}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
