// The alert template: a JSON array of alerts whose string values hold `${NAME}` placeholders. Parsed as JSON once at
// start-up and rendered per alert by substituting into the parsed values, then JSON.stringify — so a message with
// quotes, `$`, backslashes or newlines always yields valid JSON (QuestDB splices text and writes `\$`, which strict
// parsers reject). Alerts may be written in the spec's form (`Status`, `Labels`, `Annotations`, as QuestDB templates
// are) or in Alertmanager v2's form; either way the body sent is v2's: `{labels, annotations, startsAt[, endsAt,
// generatorURL]}`, with startsAt = send time unless the template sets it, and `Status: resolved` → endsAt = send time.
// Placeholders: ${ALERT_MESSAGE} (required at least once; the whole record line), ${date:<pattern>} (send time, UTC),
// ${SVC_VERSION}, and any environment variable; ORGID, NAMESPACE, CLUSTER_NAME, INSTANCE_NAME default to GLOBAL.
// Undefined names are start-up errors. A `$` not followed by `{` is literal text.
import { ConfigError } from '../core/errors.js';
import { compileDatePattern, type DateFormatter } from './date-pattern.js';
import { truncateMessage } from './layout.js';

export interface AlertTemplate {
  readonly source: string;
  /** The request body for one alert carrying `message`, sent at `nowMillis`. */
  render(message: string, nowMillis: number): string;
  /** As render(), with the message cut so the body fits `bytesMax`; undefined when even an empty message does not fit. */
  renderWithin(message: string, nowMillis: number, bytesMax: number): string | undefined;
}

export interface AlertTemplateContext {
  readonly env: NodeJS.ProcessEnv;
  readonly version: string;
  /** The key to name in errors (w.<writer>.location). */
  readonly key: string;
}

export const ALERT_VARIABLE_DEFAULTS: Readonly<Record<string, string>> = {
  ORGID: 'GLOBAL',
  NAMESPACE: 'GLOBAL',
  CLUSTER_NAME: 'GLOBAL',
  INSTANCE_NAME: 'GLOBAL',
};

type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'date'; readonly format: DateFormatter }
  | { readonly kind: 'message' };

type TemplateString = readonly TemplatePart[];
type TemplateMap = ReadonlyArray<readonly [string, TemplateString]>;

interface CompiledAlert {
  readonly labels: TemplateMap;
  readonly annotations: TemplateMap;
  readonly optional: TemplateMap;
  readonly resolved: boolean;
}

/** Alert fields accepted, by lower-cased name → the v2 spelling. */
const ALERT_FIELDS: Readonly<Record<string, string>> = {
  labels: 'labels',
  annotations: 'annotations',
  status: 'status',
  startsat: 'startsAt',
  endsat: 'endsAt',
  generatorurl: 'generatorURL',
};
/** Cutting attempts before renderWithin gives up; one is nearly always enough. */
const FIT_ATTEMPTS_MAX = 8;
/** Characters of slack taken off per cut so uneven escaping and the cut mark still fit. */
const FIT_SLACK_CHARS = 32;
/** A message cut shorter than this would say nothing beyond the cut mark; the alert is dropped instead. */
const TRUNCATION_ROOM_CHARS = 16;

export function parseAlertTemplate(text: string, source: string, context: AlertTemplateContext): AlertTemplate {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(context.key, `Bad template ${source}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!Array.isArray(json) || json.length === 0) throw new ConfigError(context.key, `Bad template ${source}: expected a non-empty JSON array of alerts`);
  const counter = { messages: 0 };
  const alerts = json.map((alert: unknown, index) => compileAlert(alert, `${source} alert ${index}`, context, counter));
  if (counter.messages === 0) throw new ConfigError(context.key, `Bad template, no \${ALERT_MESSAGE} declaration found ${source}`);
  const render = (message: string, nowMillis: number): string => JSON.stringify(alerts.map((alert) => renderAlert(alert, message, nowMillis)));
  return {
    source,
    render,
    renderWithin(message, nowMillis, bytesMax) {
      let body = render(message, nowMillis);
      let bytes = Buffer.byteLength(body, 'utf8');
      if (bytes <= bytesMax) return body;
      // Bytes the message takes per occurrence, escaped, against what the limit leaves for it.
      const frameBytes = Buffer.byteLength(render('', nowMillis), 'utf8');
      const allowedBytes = (bytesMax - frameBytes) / counter.messages;
      let keep = message.length;
      for (let attempt = 0; attempt < FIT_ATTEMPTS_MAX && bytes > bytesMax; attempt++) {
        const usedBytes = (bytes - frameBytes) / counter.messages;
        keep = Math.floor((keep * allowedBytes) / usedBytes) - FIT_SLACK_CHARS;
        if (keep <= TRUNCATION_ROOM_CHARS) return undefined;
        body = render(truncateMessage(message, keep), nowMillis);
        bytes = Buffer.byteLength(body, 'utf8');
      }
      return bytes <= bytesMax ? body : undefined;
    },
  };
}

function compileAlert(value: unknown, where: string, context: AlertTemplateContext, counter: { messages: number }): CompiledAlert {
  if (!isPlainObject(value)) throw new ConfigError(context.key, `Bad template ${where}: expected an object`);
  let labels: TemplateMap = [];
  let annotations: TemplateMap = [];
  const optional: Array<readonly [string, TemplateString]> = [];
  let resolved = false;
  for (const [rawName, fieldValue] of Object.entries(value)) {
    const name = ALERT_FIELDS[rawName.toLowerCase()];
    if (name === undefined) throw new ConfigError(context.key, `Bad template ${where}: unknown field ${rawName}`);
    if (name === 'labels' || name === 'annotations') {
      const compiled = compileStringMap(fieldValue, `${where} ${rawName}`, context, counter);
      if (name === 'labels') labels = compiled;
      else annotations = compiled;
    } else if (name === 'status') {
      if (fieldValue !== 'firing' && fieldValue !== 'resolved') throw new ConfigError(context.key, `Bad template ${where}: Status must be firing or resolved`);
      resolved = fieldValue === 'resolved';
    } else {
      if (typeof fieldValue !== 'string') throw new ConfigError(context.key, `Bad template ${where}: ${rawName} must be a string`);
      optional.push([name, compileString(fieldValue, context, counter)]);
    }
  }
  if (!labels.some(([name]) => name === 'alertname')) throw new ConfigError(context.key, `Bad template ${where}: labels need an alertname`);
  return { labels, annotations, optional, resolved };
}

function compileStringMap(value: unknown, where: string, context: AlertTemplateContext, counter: { messages: number }): TemplateMap {
  if (!isPlainObject(value)) throw new ConfigError(context.key, `Bad template ${where}: expected an object of strings`);
  return Object.entries(value).map(([name, text]) => {
    if (typeof text !== 'string') throw new ConfigError(context.key, `Bad template ${where}.${name}: values must be strings`);
    return [name, compileString(text, context, counter)] as const;
  });
}

function compileString(text: string, context: AlertTemplateContext, counter: { messages: number }): TemplateString {
  const parts: TemplatePart[] = [];
  let index = 0;
  while (index < text.length) {
    const open = text.indexOf('${', index);
    if (open < 0) {
      parts.push({ kind: 'text', text: text.slice(index) });
      break;
    }
    if (open > index) parts.push({ kind: 'text', text: text.slice(index, open) });
    const close = text.indexOf('}', open + 2);
    if (close < 0) throw new ConfigError(context.key, `Bad template: missing '}' in "${text}"`);
    parts.push(compilePlaceholder(text.slice(open + 2, close).trim(), context, counter));
    index = close + 1;
  }
  return parts;
}

function compilePlaceholder(name: string, context: AlertTemplateContext, counter: { messages: number }): TemplatePart {
  if (name === 'ALERT_MESSAGE') {
    counter.messages++;
    return { kind: 'message' };
  }
  if (name.startsWith('date:')) {
    const format = compileDatePattern(name.slice('date:'.length).trim());
    if (format === undefined) throw new ConfigError(context.key, 'Bad template: missing pattern in ${date:}');
    return { kind: 'date', format };
  }
  const value = name === 'SVC_VERSION' ? context.version : context.env[name] ?? ALERT_VARIABLE_DEFAULTS[name];
  if (value === undefined) throw new ConfigError(context.key, `Undefined property: ${name}`);
  return { kind: 'text', text: value };
}

function renderAlert(alert: CompiledAlert, message: string, nowMillis: number): Record<string, unknown> {
  const nowIso = new Date(nowMillis).toISOString();
  const out: Record<string, unknown> = {
    labels: renderMap(alert.labels, message, nowMillis),
    annotations: renderMap(alert.annotations, message, nowMillis),
    startsAt: nowIso,
  };
  if (alert.resolved) out['endsAt'] = nowIso;
  for (const [name, parts] of alert.optional) out[name] = renderString(parts, message, nowMillis);
  return out;
}

function renderMap(map: TemplateMap, message: string, nowMillis: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, parts] of map) out[name] = renderString(parts, message, nowMillis);
  return out;
}

function renderString(parts: TemplateString, message: string, nowMillis: number): string {
  let out = '';
  for (const part of parts) {
    if (part.kind === 'text') out += part.text;
    else if (part.kind === 'message') out += message;
    else out += part.format(nowMillis * 1000);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
