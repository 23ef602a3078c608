// The table of log.conf keys: the one source for parsing, defaults, SVC_LOG_<KEY> environment names, the shipped
// conf/log.conf and the README table. Global keys stand alone; writer keys are written `w.<writer>.<field>` and a
// writer accepts only the fields its class lists (anything else is a start-up error naming the key).
// Env rule: SVC_LOG_ + the key upper-cased with '.' → '_' (w.http.min.level → SVC_LOG_W_HTTP_MIN_LEVEL); it applies
// whether or not the key is in the file, for every key of this table and every writer named by `writers`.

export const LOG_WRITER_CLASSES = {
  rolling: 'io.svc.log.LogRollingFileWriter',
  file: 'io.svc.log.LogFileWriter',
  console: 'io.svc.log.LogConsoleWriter',
  alert: 'io.svc.log.LogAlertSocketWriter',
} as const;

export type LogWriterKind = keyof typeof LOG_WRITER_CLASSES;

/** How a key's text is read; the parsers live in log/log-conf.ts, keyed by this type so none can be forgotten. */
export type LogKeyType =
  | 'string'
  | 'names'
  | 'class'
  | 'levels'
  | 'bytes'
  | 'duration'
  | 'count'
  | 'millis'
  | 'boolean'
  | 'rollEvery'
  | 'targets'
  | 'host'
  | 'port';

export interface LogGlobalKey {
  readonly name: string;
  readonly type: LogKeyType;
  readonly defaultValue: string;
  readonly description: string;
}

export interface LogWriterField {
  readonly field: string;
  readonly type: LogKeyType;
  /** Default per writer class; a class missing here does not accept the field. */
  readonly defaults: Readonly<Partial<Record<LogWriterKind, string>>>;
  readonly description: string;
}

export const LOG_ENV_PREFIX = 'SVC_LOG_';
/** `SVC_DEBUG=true` (or the -Debug flag) adds DEBUG to every writer except the alert writer. */
export const LOG_DEBUG_ENV = 'SVC_DEBUG';
/** Most alert targets a writer may list (the spec's limit); one more is a start-up error. */
export const ALERT_TARGETS_MAX = 12;

const ALL_KINDS = (value: string): Record<LogWriterKind, string> => ({ rolling: value, file: value, console: value, alert: value });

export const LOG_GLOBAL_KEYS: readonly LogGlobalKey[] = [
  {
    name: 'writers',
    type: 'names',
    defaultValue: 'file,stdout,http.min',
    description: 'Comma-separated writer names; each needs w.<name>.class. Add alert to forward critical records.',
  },
  {
    name: 'log.dir',
    type: 'string',
    defaultValue: 'log',
    description: 'Directory that ${log.dir} stands for in locations; relative to the server root; created when missing.',
  },
  {
    name: 'recordLength',
    type: 'count',
    defaultValue: '16384',
    description: 'Longest message in characters (stack traces included); longer messages are cut and marked.',
  },
];

export const LOG_WRITER_FIELDS: readonly LogWriterField[] = [
  {
    field: 'class',
    type: 'class',
    defaults: {},
    description: `Writer implementation: ${Object.values(LOG_WRITER_CLASSES).join(', ')}. Required.`,
  },
  {
    field: 'level',
    type: 'levels',
    defaults: { rolling: 'INFO', file: 'INFO', console: 'INFO', alert: 'CRITICAL' },
    description:
      'Levels written: DEBUG, INFO, ERROR, CRITICAL, ADVISORY. Every level above the highest listed one is added ' +
      '(INFO means INFO,ERROR,CRITICAL,ADVISORY; DEBUG means all). The alert writer never takes ADVISORY.',
  },
  {
    field: 'scope',
    type: 'string',
    defaults: ALL_KINDS(''),
    description:
      'Logger-name prefix. A logger goes only to the writers of the longest scope that prefixes its name ' +
      '(empty scope = every logger); http.min uses it to keep health-check noise out of the other writers.',
  },
  {
    field: 'location',
    type: 'string',
    defaults: { rolling: '${log.dir}/stdout-${date:yyyy-MM-ddTHH-mm-ss}.txt', file: '${log.dir}/svc.log', alert: '' },
    description:
      'File path with ${log.dir}, ${date:<pattern>} (yyyy MM dd HH mm ss SSS; other characters literal) and ' +
      '${ENV_VAR}; relative paths start at the server root. For the alert writer: the template file (empty = bundled).',
  },
  {
    field: 'rollEvery',
    type: 'rollEvery',
    defaults: { rolling: 'day' },
    description: 'Start a new file at each UTC minute, hour, day, month or year boundary; none = never by time.',
  },
  {
    field: 'rollSize',
    type: 'bytes',
    defaults: { rolling: '128m' },
    description: 'Start a new file once the current one would pass this size (k, m, g suffixes); 0 = no size roll.',
  },
  {
    field: 'lifeDuration',
    type: 'duration',
    defaults: { rolling: '7d' },
    description: 'At each roll, delete this writer\'s files older than this (s, m, h, d, w, M = 30d, y = 365d); 0 = keep.',
  },
  {
    field: 'sizeLimit',
    type: 'bytes',
    defaults: { rolling: '1g' },
    description: 'At each roll, delete this writer\'s oldest files until all of them fit in this size; 0 = no limit.',
  },
  {
    field: 'bufferSize',
    type: 'bytes',
    defaults: { rolling: '64k', file: '64k', console: '64k' },
    description: 'Bytes buffered before a write; buffers are also written at the end of every event-loop turn.',
  },
  {
    field: 'truncate',
    type: 'boolean',
    defaults: { file: 'false' },
    description: 'true = empty the file at start-up instead of appending to it.',
  },
  {
    field: 'alertTargets',
    type: 'targets',
    defaults: { alert: '' },
    description:
      `Up to ${ALERT_TARGETS_MAX} comma-separated host[:port] Alertmanager addresses ([v6]:port for IPv6); empty = ` +
      'defaultAlertHost:defaultAlertPort. The first target is picked at random; a failing one fails over to the next.',
  },
  { field: 'defaultAlertHost', type: 'host', defaults: { alert: '127.0.0.1' }, description: 'Host for a target written as :port, and for an empty list.' },
  { field: 'defaultAlertPort', type: 'port', defaults: { alert: '9093' }, description: 'Port for a target written without one.' },
  {
    field: 'inBufferSize',
    type: 'bytes',
    defaults: { alert: '2m' },
    description: 'Most bytes read from an Alertmanager response, and the largest template file accepted.',
  },
  {
    field: 'outBufferSize',
    type: 'bytes',
    defaults: { alert: '4m' },
    description: 'Largest alert request body; a longer message is cut so the alert still fits.',
  },
  {
    field: 'reconnectDelay',
    type: 'millis',
    defaults: { alert: '250' },
    description: 'Milliseconds between send attempts to the same target (single target), and after giving up on an alert.',
  },
  {
    field: 'sendTimeoutMs',
    type: 'millis',
    defaults: { alert: '5000' },
    description: 'Milliseconds one send attempt (connect, request, response) may take before it counts as failed.',
  },
  {
    field: 'queueAlertsMax',
    type: 'count',
    defaults: { alert: '1000' },
    description: 'Alerts waiting to be sent; when full the oldest is dropped (and counted), so logging never waits.',
  },
];

/** `SVC_LOG_` + the key upper-cased with '.' → '_'. */
export function logEnvName(key: string): string {
  return LOG_ENV_PREFIX + key.toUpperCase().replace(/\./g, '_');
}

export function writerKey(writerName: string, field: string): string {
  return `w.${writerName}.${field}`;
}

export function findWriterField(field: string): LogWriterField | undefined {
  return LOG_WRITER_FIELDS.find((candidate) => candidate.field === field);
}

/** The kind named by a class value, or undefined for an unknown class. */
export function writerKindOfClass(className: string): LogWriterKind | undefined {
  for (const kind of Object.keys(LOG_WRITER_CLASSES) as LogWriterKind[]) {
    if (LOG_WRITER_CLASSES[kind] === className) return kind;
  }
  return undefined;
}
