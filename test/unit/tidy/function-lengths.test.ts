// The function-length scanner the tidy test uses: which braces open function bodies, and how long they are.
import test from 'ava';
import { functionSpans } from '../../helpers/function-lengths.js';

function spans(source: string): string[] {
  return functionSpans(source).map((span) => `${span.name}:${span.line}+${span.lines}`);
}

test('declarations, methods, arrows and return types open bodies; control blocks and literals do not', (t) => {
  const source = [
    'export function first(a: number): Record<string, number> {', // 1
    '  if (a > 1) {',
    '    return { a };',
    '  }',
    '  const inner = (b: number) => {', // 5
    '    for (const c of [b]) { void c; }',
    '  };',
    '  return {};',
    '}',
    'class Thing extends Base<number> {', // 10
    '  get size(): number {',
    '    return 1;',
    '  }',
    '  private async load<T>(x: T): Promise<{ value: T }> {',
    '    return { value: x };', // 15
    '  }',
    '}',
    'const typed = (x: unknown): x is { kind: string } & { n: number } => {',
    '  return x !== null;',
    '};', // 20
  ].join('\n');
  t.deepEqual(spans(source), ['inner:5+3', 'first:1+9', 'size:11+3', 'load:14+3', 'typed:18+3']);
});

test('braces inside strings, templates, comments and regular expressions are not counted', (t) => {
  const source = [
    'function quoted(): string {',
    "  const a = '{'; const b = \"}\"; // {",
    '  /* } */ const re = /[{}]/g;',
    '  return `${a}{${b.replace(re, () => { return "}"; })}`;',
    '}',
  ].join('\n');
  t.deepEqual(spans(source), ['<anonymous>:4+1', 'quoted:1+5']);
});
