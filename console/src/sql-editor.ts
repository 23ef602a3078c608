// The SQL editor: CodeMirror 6 with SQL highlighting and completion of table and column names, Ctrl/Cmd+Enter
// to run the statement under the cursor (or the selection), and server errors shown as a diagnostic at the
// character the server's `position` points to.
import { EditorView, basicSetup } from 'codemirror';
import { keymap } from '@codemirror/view';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { sql, SQLDialect } from '@codemirror/lang-sql';
import type { SQLNamespace } from '@codemirror/lang-sql';
import { setDiagnostics } from '@codemirror/lint';
import { statementAtCursor } from './statement-at-cursor.js';
import type { StatementRange } from './statement-at-cursor.js';

const STORAGE_KEY = 'svc.console.editor';
const INITIAL_TEXT = 'select * from tables();\n';

export interface SqlEditor {
  /** The selection if there is one, else the statement under the cursor. */
  currentStatement(): StatementRange | undefined;
  /** Marks `message` at the statement's offset + `position` (0-based, as the server reports it). */
  markError(statement: StatementRange, position: number, message: string): void;
  clearErrors(): void;
  setSchema(schema: SQLNamespace): void;
  focus(): void;
}

/** The statement words of svc's SQL (QuestDB's dialect): highlighted as keywords and offered by completion. */
const KEYWORDS = [
  'select from where group by order asc desc limit offset distinct as and or not in between is null like ilike',
  'case when then else end cast join inner left outer cross on union all except intersect with having exists',
  'insert into values update set create table drop alter add column rename to truncate if',
  'sample align calendar fill prev linear none latest partition asof lt splice timestamp wal bypass dedup upsert',
  'keys capacity cache nocache index ttl explain show tables columns partitions over rows range preceding following',
  'current row unbounded true false hour day week month year',
].join(' ');
const TYPES = 'boolean byte short char int integer long float double date timestamp symbol string varchar uuid ipv4 binary long256 geohash interval';

const SVC_DIALECT = SQLDialect.define({ keywords: KEYWORDS, types: TYPES });

function sqlLanguage(schema: SQLNamespace) {
  return sql({ dialect: SVC_DIALECT, upperCaseKeywords: false, schema });
}

/** End of the token starting at `from`: a word (name, number, dotted name), else the single character there. */
function tokenEnd(doc: string, from: number): number {
  const word = /^[\w$.]+/.exec(doc.slice(from, from + 256));
  if (word !== null) return from + word[0].length;
  return Math.min(doc.length, from + 1);
}

export function createSqlEditor(parent: HTMLElement, onRun: () => void): SqlEditor {
  const language = new Compartment();
  let saveTimer: number | undefined;
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: localStorage.getItem(STORAGE_KEY) ?? INITIAL_TEXT,
      extensions: [
        // Highest precedence so Mod-Enter runs the query instead of inserting a line break.
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => { onRun(); return true; } }])),
        basicSetup,
        language.of(sqlLanguage({})),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          window.clearTimeout(saveTimer);
          saveTimer = window.setTimeout(() => localStorage.setItem(STORAGE_KEY, view.state.doc.toString()), 300);
        }),
      ],
    }),
  });

  return {
    currentStatement() {
      const selection = view.state.selection.main;
      const doc = view.state.doc.toString();
      if (!selection.empty) {
        const text = doc.slice(selection.from, selection.to);
        const lead = text.length - text.trimStart().length;
        const trimmed = text.trim();
        return trimmed === '' ? undefined : { from: selection.from + lead, to: selection.from + lead + trimmed.length, text: trimmed };
      }
      return statementAtCursor(doc, selection.head);
    },
    markError(statement, position, message) {
      const doc = view.state.doc.toString();
      const from = Math.min(Math.max(statement.from + position, statement.from), statement.to);
      const to = Math.max(tokenEnd(doc, from), from + 1);
      view.dispatch(setDiagnostics(view.state, [{ from, to: Math.min(to, doc.length), severity: 'error', message }]));
      view.dispatch({ selection: { anchor: from }, scrollIntoView: true });
    },
    clearErrors() {
      view.dispatch(setDiagnostics(view.state, []));
    },
    setSchema(schema) {
      view.dispatch({ effects: language.reconfigure(sqlLanguage(schema)) });
    },
    focus() {
      view.focus();
    },
  };
}
