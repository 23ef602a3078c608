// The POST /imp state machine: every path through the transition table, events refused where they do not
// belong (and changing nothing), and each terminal state running its effects exactly once.
import test from 'ava';
import { IMPORT_TRANSITIONS, ImportStateMachine, type ImportEvent, type ImportEventKind, type ImportState } from '../../../../src/http/routes/import-state.js';

interface Recorded {
  readonly machine: ImportStateMachine;
  readonly calls: string[];
}

function recordingMachine(): Recorded {
  const calls: string[] = [];
  const machine = new ImportStateMachine({
    discard: () => calls.push('discard'),
    answerFailure: (event) => calls.push(`answerFailure:${event.kind}`),
    recordCancelled: () => calls.push('recordCancelled'),
    release: () => calls.push('release'),
  });
  return { machine, calls };
}

function eventOf(kind: ImportEventKind, calls: string[] = []): ImportEvent {
  switch (kind) {
    case 'committed': return { kind, answer: () => calls.push('answer') };
    case 'fail': return { kind, error: new Error('boom') };
    case 'shutdown': return { kind, reason: 'server is shutting down' };
    default: return { kind };
  }
}

/** Drives a fresh machine to `state` along accepted events. */
const PATHS: Record<ImportState, readonly ImportEventKind[]> = {
  receiving: [],
  'awaiting-schema': ['hold-data'],
  streaming: ['start-data'],
  committing: ['start-data', 'staged'],
  answered: ['start-data', 'staged', 'committed'],
  failed: ['fail'],
  cancelled: ['client-gone'],
};

function machineIn(state: ImportState): Recorded {
  const recorded = recordingMachine();
  for (const kind of PATHS[state]) recorded.machine.fire(eventOf(kind, recorded.calls));
  if (recorded.machine.state !== state) throw new Error(`path to ${state} ended in ${recorded.machine.state}`);
  recorded.calls.length = 0;
  return recorded;
}

const STATES = Object.keys(PATHS) as ImportState[];
const KINDS = Object.keys(IMPORT_TRANSITIONS) as ImportEventKind[];

test('the happy path: receiving → streaming → committing → answered, answering once and releasing once', (t) => {
  const { machine, calls } = recordingMachine();
  t.is(machine.state, 'receiving');
  t.true(machine.fire({ kind: 'start-data' }));
  t.is(machine.state, 'streaming');
  t.true(machine.fire({ kind: 'staged' }));
  t.is(machine.state, 'committing');
  t.deepEqual(calls, []);
  t.true(machine.fire({ kind: 'committed', answer: () => calls.push('answer') }));
  t.is(machine.state, 'answered');
  t.true(machine.over);
  t.deepEqual(calls, ['answer', 'release']);
});

test('a data part held for a schema file starts streaming once the schema is in', (t) => {
  const { machine } = recordingMachine();
  t.true(machine.fire({ kind: 'hold-data' }));
  t.is(machine.state, 'awaiting-schema');
  t.false(machine.fire({ kind: 'hold-data' }));
  t.true(machine.fire({ kind: 'start-data' }));
  t.is(machine.state, 'streaming');
});

test('every event is accepted exactly where the table says, and a refused event changes nothing', (t) => {
  for (const state of STATES) {
    for (const kind of KINDS) {
      const { machine, calls } = machineIn(state);
      const accepted = machine.fire(eventOf(kind, calls));
      const rule = IMPORT_TRANSITIONS[kind];
      t.is(accepted, rule.from.includes(state), `${kind} in ${state}`);
      t.is(machine.state, accepted ? rule.to : state, `${kind} in ${state}`);
      if (!accepted) t.deepEqual(calls, [], `${kind} refused in ${state} ran effects`);
    }
  }
});

test('terminal states accept nothing', (t) => {
  for (const state of ['answered', 'failed', 'cancelled'] as const) {
    const { machine, calls } = machineIn(state);
    t.true(machine.over);
    for (const kind of KINDS) t.false(machine.fire(eventOf(kind, calls)), `${kind} in ${state}`);
    t.deepEqual(calls, []);
  }
});

test('a commit is not rolled back by shutdown, but a failed commit or a lost client still discards the segment', (t) => {
  const shutdown = machineIn('committing');
  t.false(shutdown.machine.fire(eventOf('shutdown')));
  t.is(shutdown.machine.state, 'committing');
  const failed = machineIn('committing');
  t.true(failed.machine.fire(eventOf('fail')));
  t.deepEqual(failed.calls, ['discard', 'answerFailure:fail', 'release']);
});

test('every way into a terminal state runs its clean-up exactly once, and never twice however events repeat', (t) => {
  const expected: Record<'fail' | 'shutdown' | 'client-gone', readonly string[]> = {
    fail: ['discard', 'answerFailure:fail', 'release'],
    shutdown: ['discard', 'answerFailure:shutdown', 'release'],
    'client-gone': ['discard', 'recordCancelled', 'release'],
  };
  for (const state of ['receiving', 'awaiting-schema', 'streaming', 'committing'] as const) {
    for (const kind of ['fail', 'shutdown', 'client-gone'] as const) {
      const { machine, calls } = machineIn(state);
      if (!machine.fire(eventOf(kind, calls))) continue;
      for (const again of KINDS) machine.fire(eventOf(again, calls));
      t.deepEqual(calls, expected[kind], `${kind} from ${state}`);
    }
  }
  const answered = machineIn('committing');
  answered.machine.fire(eventOf('committed', answered.calls));
  for (const again of KINDS) answered.machine.fire(eventOf(again, answered.calls));
  t.deepEqual(answered.calls, ['answer', 'release'], 'an answered import discards nothing and releases once');
});
