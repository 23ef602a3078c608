// Parses `w.alert.alertTargets`: up to ALERT_TARGETS_MAX comma-separated `host[:port]` entries, optionally quoted,
// spaces trimmed; `[v6]:port` for IPv6. An empty host takes defaultAlertHost and a missing port defaultAlertPort
// (the spec leaves open which default supplies a port; the port setting is the one that makes sense). An empty list
// means the single default target. Host names are resolved per request, not once at start-up as QuestDB does, so a
// target that moves (a Kubernetes service) is followed.
import { ConfigError } from '../core/errors.js';
import { ALERT_TARGETS_MAX } from '../config/log-keys.js';
import { parseHost, parsePort } from './conf-values.js';

export interface AlertTarget {
  /** Host name or address, without IPv6 brackets. */
  readonly host: string;
  readonly port: number;
  /** `host:port` (`[v6]:port`) for log lines. */
  readonly label: string;
}

const BRACKETED_ENTRY = /^\[([0-9A-Fa-f:.]+)\](?::(.*))?$/;

export function parseAlertTargets(text: string, defaultHost: string, defaultPort: number, key: string): AlertTarget[] {
  const entries = text
    .split(',')
    .map((entry) => stripQuotes(entry.trim()).trim())
    .filter((entry) => entry.length > 0);
  if (entries.length > ALERT_TARGETS_MAX) {
    throw new ConfigError(key, `${entries.length} alert targets configured; at most ${ALERT_TARGETS_MAX} are allowed`);
  }
  if (entries.length === 0) return [makeTarget(defaultHost, defaultPort)];
  return entries.map((entry, index) => parseEntry(entry, index, defaultHost, defaultPort, key));
}

function parseEntry(entry: string, index: number, defaultHost: string, defaultPort: number, key: string): AlertTarget {
  const bracketed = BRACKETED_ENTRY.exec(entry);
  if (bracketed !== null) {
    const portText = bracketed[2];
    const port = portText === undefined || portText.length === 0 ? defaultPort : parsePort(portText, key);
    return makeTarget(bracketed[1] ?? '', port);
  }
  const colon = entry.indexOf(':');
  if (colon >= 0 && entry.indexOf(':', colon + 1) >= 0) {
    throw new ConfigError(key, `Unexpected ':' in alert target ${index} (${entry}); write IPv6 addresses as [addr]:port`);
  }
  const hostText = colon < 0 ? entry : entry.slice(0, colon);
  const portText = colon < 0 ? '' : entry.slice(colon + 1);
  const host = hostText.length === 0 ? defaultHost : parseHost(hostText, key);
  const port = portText.length === 0 ? defaultPort : parsePort(portText, key);
  return makeTarget(host, port);
}

function makeTarget(host: string, port: number): AlertTarget {
  const shown = host.includes(':') ? `[${host}]` : host;
  return { host, port, label: `${shown}:${port}` };
}

function stripQuotes(entry: string): string {
  if (entry.length >= 2 && (entry.startsWith('"') || entry.startsWith("'")) && entry.endsWith(entry.charAt(0))) {
    return entry.slice(1, -1);
  }
  return entry;
}
