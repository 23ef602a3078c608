// The record line every writer prints: `<ISO 8601 UTC with microseconds>Z <A|C|E|I|D> <logger> <message>`.
// Multi-line messages (stack traces) keep their following lines as they are; the writer adds the final newline.
// Also the text form of errors attached to records, with their `cause` chain, as QuestDB prints `Caused by:`.
import type { LogRecordPayload } from './log-record.js';

/** Deepest `cause` chain printed under an error; deeper causes are summarised. */
const ERROR_CAUSE_DEPTH_MAX = 8;
const TRUNCATION_MARK = '…[truncated]';

/** 1736071872123456 → `2025-01-05T10:11:12.123456Z`. */
export function formatIsoMicros(epochMicros: number): string {
  const millis = Math.floor(epochMicros / 1000);
  const iso = new Date(millis).toISOString();
  return `${iso.slice(0, -1)}${String(epochMicros - millis * 1000).padStart(3, '0')}Z`;
}

/** The record's line, without the trailing newline. */
export function formatRecordLine(record: LogRecordPayload): string {
  return `${formatIsoMicros(record.timestampMicros)} ${record.level} ${record.logger} ${record.message}`;
}

/** Cuts `message` to `lengthMax` characters, marking the cut so a reader knows text is missing. */
export function truncateMessage(message: string, lengthMax: number): string {
  if (message.length <= lengthMax) return message;
  const keep = Math.max(0, lengthMax - TRUNCATION_MARK.length);
  return message.slice(0, keep) + TRUNCATION_MARK;
}

/** `message` followed by the error's stack and its causes on the next lines. */
export function appendErrorText(message: string, error: unknown): string {
  const text = formatErrorText(error);
  return message.length === 0 ? text : `${message}\n${text}`;
}

export function formatErrorText(error: unknown): string {
  let out = describeOne(error);
  let cause = causeOf(error);
  for (let depth = 0; cause !== undefined; depth++) {
    if (depth === ERROR_CAUSE_DEPTH_MAX) {
      out += '\nCaused by: … (deeper causes omitted)';
      break;
    }
    out += `\nCaused by: ${describeOne(cause)}`;
    cause = causeOf(cause);
  }
  return out;
}

function describeOne(error: unknown): string {
  if (error instanceof Error) {
    const stack = error.stack ?? `${error.name}: ${error.message}`;
    const code: unknown = Reflect.get(error, 'code');
    if (typeof code !== 'string') return stack;
    // The code goes on the first line, where people and grep look for it.
    const firstBreak = stack.indexOf('\n');
    if (firstBreak < 0) return `${stack} [code=${code}]`;
    return `${stack.slice(0, firstBreak)} [code=${code}]${stack.slice(firstBreak)}`;
  }
  if (typeof error === 'string') return error;
  try {
    return `non-error value thrown: ${JSON.stringify(error) ?? String(error)}`;
  } catch {
    return `non-error value thrown: ${String(error)}`;
  }
}

function causeOf(error: unknown): unknown {
  if (!(error instanceof Error)) return undefined;
  const cause: unknown = error.cause;
  return cause === error ? undefined : cause;
}
