// The life of one POST /imp request as an explicit state machine: every state change goes through `fire`, which
// checks the event against the one transition table below and runs the side effects of the state entered.
// Invariants: a terminal state (answered, failed, cancelled) is entered at most once, so the client gets at most
// one answer, the staging segment is discarded at most once (never after a successful commit) and the upload
// is released from the shutdown list exactly once; an event the current state does not accept changes nothing.

/**
 * receiving: multipart parts before the data part (a schema may arrive as a field or a file part).
 * awaiting-schema: the data part is held until a schema sent as a file part has been read.
 * streaming: the data part streams through the import session into the staging segment.
 * committing: the segment is staged; the primary is committing it into the table.
 * answered / failed / cancelled: terminal (200 sent; error answered; client gone before an answer).
 */
export type ImportState = 'receiving' | 'awaiting-schema' | 'streaming' | 'committing' | 'answered' | 'failed' | 'cancelled';

export type ImportEvent =
  | { readonly kind: 'hold-data' }
  | { readonly kind: 'start-data' }
  | { readonly kind: 'staged' }
  | { readonly kind: 'committed'; readonly answer: () => void }
  | { readonly kind: 'fail'; readonly error: unknown }
  /** Server shutdown rolls back an upload still streaming; once its commit is sent, the primary finishes it. */
  | { readonly kind: 'shutdown'; readonly reason: string }
  | { readonly kind: 'client-gone' };

export type ImportEventKind = ImportEvent['kind'];

const BEFORE_COMMIT: readonly ImportState[] = ['receiving', 'awaiting-schema', 'streaming'];
const LIVE: readonly ImportState[] = [...BEFORE_COMMIT, 'committing'];

/** Every transition: the states an event is accepted in, and the state it leads to. */
export const IMPORT_TRANSITIONS: { readonly [K in ImportEventKind]: { readonly from: readonly ImportState[]; readonly to: ImportState } } = {
  'hold-data': { from: ['receiving'], to: 'awaiting-schema' },
  'start-data': { from: ['receiving', 'awaiting-schema'], to: 'streaming' },
  staged: { from: ['streaming'], to: 'committing' },
  committed: { from: ['committing'], to: 'answered' },
  fail: { from: LIVE, to: 'failed' },
  shutdown: { from: BEFORE_COMMIT, to: 'failed' },
  'client-gone': { from: LIVE, to: 'cancelled' },
};

const TERMINAL: ReadonlySet<ImportState> = new Set(['answered', 'failed', 'cancelled']);

/** What entering a state does; the machine calls each at most once per request. */
export interface ImportEffects {
  /** Entering failed or cancelled: abort the import session and delete the staging segment. */
  discard(): void;
  /** Entering failed: answer the error (a shutdown also closes the connection). */
  answerFailure(event: Extract<ImportEvent, { kind: 'fail' | 'shutdown' }>): void;
  /** Entering cancelled: record the request as cancelled (nobody is left to answer). */
  recordCancelled(): void;
  /** Entering any terminal state, after the other effects: leave the list shutdown rolls back. */
  release(): void;
}

export class ImportStateMachine {
  private current: ImportState = 'receiving';

  constructor(private readonly effects: ImportEffects) {}

  get state(): ImportState {
    return this.current;
  }

  /** True once the request has been answered, failed or cancelled. */
  get over(): boolean {
    return TERMINAL.has(this.current);
  }

  accepts(kind: ImportEventKind): boolean {
    return IMPORT_TRANSITIONS[kind].from.includes(this.current);
  }

  /** Applies `event`; false (and nothing done) when the current state does not accept it. */
  fire(event: ImportEvent): boolean {
    if (!this.accepts(event.kind)) return false;
    this.current = IMPORT_TRANSITIONS[event.kind].to;
    switch (event.kind) {
      case 'committed':
        event.answer();
        break;
      case 'fail':
      case 'shutdown':
        this.effects.discard();
        this.effects.answerFailure(event);
        break;
      case 'client-gone':
        this.effects.discard();
        this.effects.recordCancelled();
        break;
      case 'hold-data':
      case 'start-data':
      case 'staged':
        break;
    }
    if (this.over) this.effects.release();
    return true;
  }
}
