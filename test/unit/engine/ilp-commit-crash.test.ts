// Crash matrix of one ILP group commit, in process and deterministic. Four staged requests (one table; two tables;
// a new column; a new table beside an existing one, with in-order and out-of-order rows) commit as one group
// under cairo.commit.mode=sync while the Nth write, fsync or rename fails, for every N until the commit runs
// through without reaching the fault. Four requests to one table (appends, out-of-order rows, a new column)
// commit the same way under sync (one insert without a WAL record) and nosync (one insert per request, the
// out-of-order ones as one). Crash mode: the process dies at the failed call; after recovery each
// request's rows are all present or all absent, in every table it wrote, and every acknowledged request is
// present. Failure mode: the failed requests get a 500 StorageError, nothing is half-visible, the engine keeps
// working, a retry of the failed requests commits them, and a restart then finds every request exactly once.
import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../../src/engine/engine.js';
import { commitIlpGroup } from '../../../src/engine/ilp-commit.js';
import type { IlpCommitRequest } from '../../../src/engine/writer-client.js';
import { IlpRequest } from '../../../src/ilp/ilp-request.js';
import type { FilesFacade } from '../../../src/core/files.js';
import { SvcError } from '../../../src/core/errors.js';
import { CrashFiles } from '../../helpers/crash-files.js';
import { committedIdClientRows } from '../../helpers/ilp-stage.js';
import type { CommitMode } from '../../../src/config/keys.js';

/** Roots live in memory when the machine has /dev/shm: the matrix makes a few hundred of them. */
const ROOT_PARENT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/** Ids are request * ID_SPAN + row, so each row names its request. */
const ID_SPAN = 1000;

interface RequestSpec {
  readonly request: number;
  /** Rows per table. */
  readonly rows: Readonly<Record<string, number>>;
  readonly lines: string;
}

/** Lines for one table: ids of the request, a symbol naming it, rows `stepMs` apart from `offsetMs` into January `day`. */
function ilpLines(table: string, request: number, rows: number, day: number, offsetMs: number, extra = ''): string {
  let text = '';
  for (let row = 0; row < rows; row++) {
    const ms = Date.UTC(2024, 0, day) + offsetMs + row * 1000;
    text += `${table},client=c${request} id=${request * ID_SPAN + row}i,value=${row / 2}${extra} ${ms}000000\n`;
  }
  return text;
}

function spec(request: number, parts: readonly { table: string; rows: number; day: number; offsetMs: number; extra?: string }[]): RequestSpec {
  const rows: Record<string, number> = {};
  for (const part of parts) rows[part.table] = (rows[part.table] ?? 0) + part.rows;
  return { request, rows, lines: parts.map((part) => ilpLines(part.table, request, part.rows, part.day, part.offsetMs, part.extra)).join('') };
}

const TABLES = ['ilp_a', 'ilp_b', 'ilp_c'];
const SETUP = spec(0, [{ table: 'ilp_a', rows: 20, day: 1, offsetMs: 0 }, { table: 'ilp_b', rows: 20, day: 1, offsetMs: 0 }]);
const GROUP: readonly RequestSpec[] = [
  spec(1, [{ table: 'ilp_a', rows: 60, day: 2, offsetMs: 0 }]),
  // Out of order into ilp_a's first day (a merged partition version), in order into a new day of ilp_b.
  spec(2, [{ table: 'ilp_a', rows: 40, day: 1, offsetMs: 500 }, { table: 'ilp_b', rows: 30, day: 2, offsetMs: 0 }]),
  spec(3, [{ table: 'ilp_b', rows: 25, day: 1, offsetMs: 250, extra: ',note="new column"' }]),
  spec(4, [{ table: 'ilp_c', rows: 15, day: 3, offsetMs: 0 }, { table: 'ilp_a', rows: 10, day: 3, offsetMs: 0 }]),
];

/** A group to commit and the commit mode it commits under. */
interface Scenario {
  readonly name: string;
  readonly commitMode: CommitMode;
  readonly group: readonly RequestSpec[];
}

const ONE_TABLE: readonly RequestSpec[] = [
  spec(1, [{ table: 'ilp_a', rows: 60, day: 2, offsetMs: 0 }]),
  spec(2, [{ table: 'ilp_a', rows: 40, day: 1, offsetMs: 500 }]),
  spec(3, [{ table: 'ilp_a', rows: 25, day: 3, offsetMs: 0, extra: ',note="new column"' }]),
  spec(4, [{ table: 'ilp_a', rows: 10, day: 1, offsetMs: 750 }]),
];

const SCENARIOS: readonly Scenario[] = [
  { name: 'several tables, sync', commitMode: 'sync', group: GROUP },
  { name: 'one table, sync', commitMode: 'sync', group: ONE_TABLE },
  { name: 'one table, nosync', commitMode: 'nosync', group: ONE_TABLE },
];

function openEngine(root: string, files: FilesFacade, commitMode: CommitMode): Engine {
  const engine = new Engine({ rootDir: root, files, commitMode, walSegmentBytesMax: 1 << 20, uncommittedRowsMax: 500_000, o3LagMaxMs: 600_000 });
  engine.recover();
  return engine;
}

/** Parses a request's lines the way a worker does, staging its rows under db/.staging/ (spilling in parts). */
function stage(engine: Engine, request: RequestSpec): IlpCommitRequest {
  const ilp = new IlpRequest({
    dbDir: engine.dbDir, catalog: engine.catalog, lineBytesMax: 1 << 20, autoCreateTables: true, autoCreateColumns: true,
    partitionBy: 'DAY', spillBytes: 2048,
  }, 'ns');
  ilp.feed(Buffer.from(request.lines));
  ilp.finish();
  const staged = ilp.commitRequest();
  if (staged === undefined) throw new Error('a request with rows stages them');
  return staged;
}

/** Rows per request in each table, from the committed state of a table (what a restart or a reader sees). */
function countRows(engine: Engine, problems: string[]): Map<string, Map<number, number>> {
  const counts = new Map<string, Map<number, number>>();
  for (const table of TABLES) {
    const perRequest = new Map<number, number>();
    counts.set(table, perRequest);
    const writer = engine.catalog.resolveName(table) === undefined ? undefined : engine.writer(table);
    if (writer === undefined) continue;
    const seen = new Set<number>();
    for (const { id, client } of committedIdClientRows(writer)) {
      const request = Math.floor(id / ID_SPAN);
      if (seen.has(id)) problems.push(`${table}: id ${id} twice`);
      seen.add(id);
      if (client !== `c${request}`) problems.push(`${table}: id ${id} has client ${String(client)}`);
      perRequest.set(request, (perRequest.get(request) ?? 0) + 1);
    }
  }
  return counts;
}

/** Each request whole or absent across its tables; acknowledged ones whole; the set-up request always whole. */
function stateProblems(engine: Engine, group: readonly RequestSpec[], acknowledged: readonly boolean[]): string[] {
  const problems: string[] = [];
  const counts = countRows(engine, problems);
  for (const [k, request] of [SETUP, ...group].entries()) {
    const found = TABLES.map((table) => counts.get(table)?.get(request.request) ?? 0);
    const expected = TABLES.map((table) => request.rows[table] ?? 0);
    const whole = found.every((count, index) => count === expected[index]);
    const absent = found.every((count) => count === 0);
    const mustBeWhole = k === 0 || acknowledged[k - 1] === true;
    if (!whole && (mustBeWhole || !absent)) problems.push(`request ${request.request} has ${found.join('/')} of ${expected.join('/')} rows (acknowledged: ${mustBeWhole})`);
  }
  for (const perRequest of counts.values()) {
    for (const request of perRequest.keys()) if (request > group.length) problems.push(`rows of an unknown request ${request}`);
  }
  return problems;
}

/** A fresh root with the set-up request committed, the group staged and the fault armed. */
function prepareCase(root: string, files: CrashFiles, scenario: Scenario, fault: string, crash: boolean): { engine: Engine; staged: IlpCommitRequest[] } {
  const engine = openEngine(root, files, scenario.commitMode);
  const setup = commitIlpGroup(engine, [stage(engine, SETUP)]);
  if (setup.some((outcome) => outcome instanceof Error)) throw new Error(`the set-up commit failed: ${String(setup[0])}`);
  const staged = scenario.group.map((request) => stage(engine, request));
  files.arm(fault, crash);
  return { engine, staged };
}

/** The process dies at the fault; a new engine recovers the root. Returns whether the fault was reached. */
function crashCase(t: ExecutionContext, scenario: Scenario, fault: string): boolean {
  const root = mkdtempSync(join(ROOT_PARENT, 'svc-ilp-crash-'));
  try {
    const files = new CrashFiles();
    const { engine, staged } = prepareCase(root, files, scenario, fault, true);
    const outcomes = commitIlpGroup(engine, staged);
    const acknowledged = outcomes.map((outcome) => !(outcome instanceof Error));
    // Engines are dropped, never closed: as in a crash, and Engine.close() would fsync the whole tree.
    const recovered = openEngine(root, new CrashFiles(), scenario.commitMode);
    t.deepEqual(stateProblems(recovered, scenario.group, acknowledged), [], `${fault}, crash: after recovery`);
    return files.fired;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The fault fails the commit, the engine lives on and the failed requests are retried. */
function failureCase(t: ExecutionContext, scenario: Scenario, fault: string): void {
  const group = scenario.group;
  const root = mkdtempSync(join(ROOT_PARENT, 'svc-ilp-fault-'));
  try {
    const files = new CrashFiles();
    const { engine, staged } = prepareCase(root, files, scenario, fault, false);
    const outcomes = commitIlpGroup(engine, staged);
    files.disarm();
    for (const outcome of outcomes) {
      if (outcome instanceof Error && !(outcome instanceof SvcError && outcome.httpStatus === 500 && outcome.code === 'SVC_STORAGE')) {
        t.fail(`${fault}: a failure is a 500 StorageError, not ${outcome.name}: ${outcome.message}`);
      }
    }
    const acknowledged = outcomes.map((outcome) => !(outcome instanceof Error));
    t.deepEqual(stateProblems(engine, group, acknowledged), [], `${fault}, failure: right after it`);
    const retried = group.filter((_, k) => !acknowledged[k]).map((request) => stage(engine, request));
    const retriedOutcomes = retried.length === 0 ? [] : commitIlpGroup(engine, retried);
    t.deepEqual(retriedOutcomes.filter((outcome) => outcome instanceof Error), [], `${fault}: the retry commits`);
    const everything = group.map(() => true);
    t.deepEqual(stateProblems(engine, group, everything), [], `${fault}, failure: after the retry`);
    t.deepEqual(stateProblems(openEngine(root, new CrashFiles(), scenario.commitMode), group, everything), [], `${fault}, failure: after a restart`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Far more calls than one group commit makes: reaching it means the matrix never ends. */
const CALLS_MAX = 400;

for (const scenario of SCENARIOS) {
  // Nothing is fsynced under nosync.
  for (const kind of scenario.commitMode === 'sync' ? ['write', 'fsync', 'rename'] as const : ['write', 'rename'] as const) {
    test(`every ${kind} of an ILP group commit failing (${scenario.name}): all or nothing per request, acknowledged ones kept`, (t) => {
      let n = 1;
      for (; n <= CALLS_MAX; n++) {
        const fired = crashCase(t, scenario, `${kind}:${n}`);
        failureCase(t, scenario, `${kind}:${n}`);
        if (!fired) break;
      }
      t.true(n > 1 && n <= CALLS_MAX, `the commit makes ${n - 1} ${kind} calls`);
      t.log(`${kind}: ${n - 1} crash points`);
    });
  }
}
