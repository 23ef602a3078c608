// Style gates (STYLE.md): file length, function length and no `any` / ts-ignore (src/ and the console's
// console/), no type assertion in src/ that asserts the type its operand already has, the import layering
// between src/ folders and between the stages of sql/, the README listing every error code, and no call in src/
// that detaches an ArrayBuffer (transfer lists, ArrayBuffer transfer, BYOB readers).
import test from 'ava';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import { ERROR_CODES } from '../src/core/errors.js';
import { functionSpans } from './helpers/function-lengths.js';
import { redundantCasts } from './helpers/redundant-casts.js';
import { detachingCalls } from './helpers/detaching-calls.js';

const root = resolve(import.meta.dirname, '..');
const srcDir = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const files = sourceFiles(srcDir);
/** The console's front end (console/) meets the same length and typing rules; the layering is src/'s alone. */
const consoleFiles = [...sourceFiles(join(root, 'console', 'src')), join(root, 'console', 'vite.config.ts')];

/** Layer of each top-level folder of src/ (STYLE.md "Dependency rules"). */
const LAYERS: Record<string, number> = {
  core: 0, types: 1, config: 1, log: 2, metrics: 2, objectstore: 2, storage: 3, sql: 4, engine: 5, accounts: 5, import: 5, ilp: 5, output: 5,
  http: 6, admin: 6, pgwire: 6, cluster: 7, 'main.ts': 8,
};

function folderOf(path: string): string {
  return relative(srcDir, path).split('/')[0] as string;
}

function importsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)) {
    const target = match[1] as string;
    if (target.startsWith('.')) found.push(resolve(dirname(path), target).replace(/\.js$/, '.ts'));
  }
  return found;
}

/** Imports allowed across the layer rule, each with the reason STYLE.md gives. */
function allowedException(from: string, to: string): boolean {
  const source = relative(srcDir, from);
  const target = relative(srcDir, to);
  // Workers reach the write side only through the WriterClient contract.
  if (target === 'engine/writer-client.ts') return true;
  // The batch contract (types and allocation helpers, no behaviour) is what import and output produce and consume.
  if ((source.startsWith('output/') || source.startsWith('import/')) && target === 'sql/exec/batch.ts') return true;
  return false;
}

test('source files stay under 600 lines', (t) => {
  const long = [...files, ...consoleFiles].filter((path) => readFileSync(path, 'utf8').split('\n').length > 600).map((path) => relative(root, path));
  t.deepEqual(long, []);
});

test('no any, no ts-ignore in src and console', (t) => {
  const code = (path: string): string => readFileSync(path, 'utf8').split('\n').filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line)).join('\n');
  const offenders = [...files, ...consoleFiles].filter((path) => /(:\s*any\b|\bas any\b|@ts-ignore|@ts-expect-error)/.test(code(path))).map((path) => relative(root, path));
  t.deepEqual(offenders, []);
});

test('imports respect the layers', (t) => {
  const violations: string[] = [];
  for (const path of files) {
    const from = folderOf(path);
    const fromLayer = LAYERS[from];
    if (fromLayer === undefined) continue;
    for (const target of importsOf(path)) {
      const to = folderOf(target);
      const toLayer = LAYERS[to];
      if (toLayer === undefined || to === from) continue;
      const ok = toLayer < fromLayer && !(from === 'http' && to === 'storage') && !(to === 'engine' && from !== 'cluster' && from !== 'main.ts');
      const sqlEntry = to !== 'sql' || from === 'sql' || relative(srcDir, target) === 'sql/compiler.ts';
      if ((!ok || !sqlEntry) && !allowedException(path, target)) violations.push(`${relative(root, path)} → ${relative(root, target)}`);
    }
  }
  t.deepEqual(violations, []);
});

/**
 * Stage order inside sql/ (STYLE.md "Dependency rules" 1): syntax → bind → plan → optimize → exec, and no
 * stage imports a later one. The plan's node types sit just above the binder's expression types: plan/ imports
 * from bind/ only those type modules, and the binder imports plan/ to build nodes. Each stage lists the sql/
 * folders it must not import.
 */
const SQL_STAGE_FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  syntax: ['bind', 'plan', 'optimize', 'exec', 'parallel', 'codegen', 'functions'],
  bind: ['optimize', 'exec', 'parallel'],
  plan: ['optimize', 'exec', 'parallel', 'codegen'],
  optimize: ['exec', 'parallel', 'codegen'],
};

/** The bind/ modules plan/ may import: bound expression and window kind types, nothing that binds. */
const PLAN_BIND_IMPORTS = new Set(['sql/bind/bound.ts', 'sql/bind/window-functions.ts']);

/** Backward imports that remain, each with its reason; a ratchet: entries may go, none may be added. */
const SQL_STAGE_EXCEPTIONS: Readonly<Record<string, string>> = {
  // Expression subqueries run their factory when the compiled expression first needs the values (execution, not planning).
  'sql/bind/bind-subquery.ts → sql/exec/operator.ts': 'runs the subquery',
  'sql/bind/bind-subquery.ts → sql/exec/batch.ts': 'reads the subquery rows',
  'sql/bind/pg-casts.ts → sql/exec/operator.ts': 'runs the catalog query of a regclass cast',
  // The QueryFactory type of SourceEnv.compileQuery / BindContext.bindQuery (subqueries inside expressions).
  'sql/bind/bind-expression.ts → sql/exec/operator.ts': 'QueryFactory type',
  'sql/bind/bind-source.ts → sql/exec/operator.ts': 'QueryFactory type',
  // Write statements are bound where they run (the primary, at commit): INSERT VALUES rows are evaluated into
  // vectors, UPDATE ... FROM runs its source once, and INSERT ... SELECT / CREATE ... AS SELECT / UPDATE hand the
  // engine a compiled QueryFactory.
  'sql/bind/bind-ddl.ts → sql/exec/operator.ts': 'QueryFactory type of CREATE ... AS SELECT',
  'sql/bind/bind-insert.ts → sql/exec/operator.ts': 'QueryFactory type of INSERT ... SELECT',
  'sql/bind/bind-insert.ts → sql/exec/batch.ts': 'VALUES rows as vectors',
  'sql/bind/bind-insert-values.ts → sql/exec/batch.ts': 'evaluates VALUES rows into vectors',
  'sql/bind/bind-insert-values.ts → sql/exec/vector-value.ts': 'reads evaluated VALUES cells',
  'sql/bind/bind-update.ts → sql/exec/operator.ts': 'QueryFactory type of subqueries in SET and WHERE',
  'sql/bind/bind-update-source.ts → sql/exec/operator.ts': 'runs the UPDATE ... FROM source once',
  'sql/bind/bind-update-source.ts → sql/exec/batch.ts': 'the source rows',
  'sql/bind/bind-update-source.ts → sql/exec/vector-ops.ts': 'concatenates the source batches',
  'sql/bind/bind-update-source.ts → sql/exec/vector-value.ts': 'reads source join keys',
};

function sqlStageOf(path: string): string | undefined {
  const parts = relative(srcDir, path).split('/');
  return parts[0] === 'sql' && parts.length > 2 ? parts[1] : undefined;
}

test('sql stages import only earlier stages', (t) => {
  const violations: string[] = [];
  const used = new Set<string>();
  for (const path of files) {
    const stage = sqlStageOf(path);
    if (stage === undefined) continue;
    for (const target of importsOf(path)) {
      const targetStage = sqlStageOf(target);
      if (targetStage === undefined || targetStage === stage) continue;
      const edge = `${relative(srcDir, path)} → ${relative(srcDir, target)}`;
      const forbidden = (SQL_STAGE_FORBIDDEN[stage] ?? []).includes(targetStage)
        || (stage === 'plan' && targetStage === 'bind' && !PLAN_BIND_IMPORTS.has(relative(srcDir, target)));
      if (!forbidden) continue;
      if (SQL_STAGE_EXCEPTIONS[edge] !== undefined) used.add(edge);
      else violations.push(edge);
    }
  }
  t.deepEqual(violations, [], 'a stage imports a later one');
  t.deepEqual(Object.keys(SQL_STAGE_EXCEPTIONS).filter((edge) => !used.has(edge)), [], 'these exceptions are gone: remove them from SQL_STAGE_EXCEPTIONS');
});

test('the README documents every error code', (t) => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const missing = Object.keys(ERROR_CODES).filter((code) => !readme.includes(`\`${code}\``));
  t.deepEqual(missing, []);
});

test('the README metrics table matches the metric definitions', async (t) => {
  const { renderMetricsTable } = await import('../scripts/render-metrics-docs.js');
  t.true(readFileSync(join(root, 'README.md'), 'utf8').includes(renderMetricsTable()));
});

/** Lines one function body may span (STYLE.md rule 12, TigerBeetle's 70-line rule). */
const FUNCTION_LINES_MAX = 70;

/**
 * Functions that were longer when the rule came in, at their length then (path#name → lines). A ratchet: they
 * may shrink, not grow; an entry goes once its function fits (the test says so), and no entry is ever added.
 */
const LONG_FUNCTIONS: Readonly<Record<string, number>> = {
  'src/cluster/primary.ts#runPrimary': 98,
  // A hand-inlined byte loop (STYLE.md rule 8: one function over the buffer, no per-byte calls).
  'src/import/csv-lexer.ts#lexCsvBlock': 119,
  'src/import/plain-lexer.ts#lexPlainBlock': 85,
  'src/metrics/cluster-collector.ts#createClusterMetricsCollector': 76,
};

test('functions stay within 70 lines, and the listed longer ones do not grow', (t) => {
  const longest = new Map<string, number>();
  for (const path of [...files, ...consoleFiles]) {
    for (const span of functionSpans(readFileSync(path, 'utf8'))) {
      const key = `${relative(root, path)}#${span.name}`;
      if (span.lines > FUNCTION_LINES_MAX) longest.set(key, Math.max(longest.get(key) ?? 0, span.lines));
    }
  }
  const tooLong = [...longest].filter(([key, lines]) => lines > (LONG_FUNCTIONS[key] ?? FUNCTION_LINES_MAX)).map(([key, lines]) => `${key}: ${lines} lines`);
  t.deepEqual(tooLong, [], `split these (at most ${FUNCTION_LINES_MAX} lines; listed ones at most their listed length)`);
  const fixed = Object.keys(LONG_FUNCTIONS).filter((key) => !longest.has(key));
  t.deepEqual(fixed, [], 'these now fit in 70 lines: remove them from LONG_FUNCTIONS');
});

test('no type assertion in src restates its operand\'s type', (t) => {
  // `typed[i] as number` on a Float64Array is one of these: without noUncheckedIndexedAccess (STYLE.md rule 5)
  // an element read already has the element type, and the assertion only hides a real widening if one comes.
  // scripts/remove-redundant-casts.ts removes what this finds.
  const found = redundantCasts(root, join(root, 'tsconfig.json'), srcDir).map((cast) => `${cast.file}:${cast.line}: ${cast.text}`);
  t.deepEqual(found, [], 'drop these assertions: the checker already gives the operand exactly this type');
});

test('nothing in src detaches an ArrayBuffer', (t) => {
  // The first detached buffer of a V8 isolate (a postMessage or structuredClone transfer list, ArrayBuffer
  // transfer, a BYOB read) drops its "array buffer detaching" protector: V8 recompiles every typed-array loop of
  // that process or thread with a detach check per access, 25-40% more CPU per row for the rest of its life.
  // Hand data to threads in SharedArrayBuffers (core/shared-copy.ts), or clone it when it is small.
  const sample = [
    'port.postMessage(m, [b.buffer]);', 'structuredClone(b, { transfer: [b] });', 'const c = b.transfer();',
    'new Worker(u, { transferList: [b] });', "s.getReader({ mode: 'byob' });", 'port.postMessage(m); // postMessage(m, [b])',
  ].join('\n');
  t.deepEqual(detachingCalls('sample.ts', sample).map((call) => call.line), [1, 2, 3, 4, 5], 'the rule sees every detaching form, and not comments');
  const found = files.flatMap((path) => detachingCalls(path, readFileSync(path, 'utf8')).map((call) => `${relative(root, path)}:${call.line}: ${call.text}`));
  t.deepEqual(found, [], 'these detach a buffer in the calling thread: post a SharedArrayBuffer or a clone instead');
});
