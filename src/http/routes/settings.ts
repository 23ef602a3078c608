// GET /settings and GET|HEAD /ping: what QuestDB's ILP clients and web console ask before anything else. Both
// answer without credentials, as QuestDB's do, so they say nothing secret: the release, whether the server is
// read-only, which transports take writes and which line protocol versions svc parses.
import type { ServerResponse } from 'node:http';
import { releaseVersion } from '../../core/release-version.js';
import { tableNameLengthMax } from '../../core/table-names.js';

export interface SettingsDeps {
  readonly readOnly: boolean;
  readonly ilpHttpEnabled: boolean;
  readonly ilpTcpEnabled: boolean;
}

/**
 * Protocol versions whose every field type svc stores: 1 (text), 2 (binary doubles and double arrays, into
 * DOUBLE[] columns) and 3 (DECIMAL, text `...d` and binary), so a client on `protocol_version=auto` speaks 3.
 */
export const ILP_PROTOCOL_VERSIONS: readonly number[] = [1, 2, 3];

/** What InfluxDB clients read from /ping's header. */
const INFLUX_VERSION = 'v2.2.2';

export function settingsBody(deps: SettingsDeps): string {
  const writes = deps.readOnly ? [] : [...(deps.ilpHttpEnabled ? ['http'] : []), ...(deps.ilpTcpEnabled ? ['tcp'] : [])];
  const transports = [...(deps.ilpHttpEnabled ? ['http'] : []), ...(deps.ilpTcpEnabled ? ['tcp'] : [])];
  return JSON.stringify({
    config: {
      'release.type': 'OSS',
      'release.version': releaseVersion(),
      'http.settings.readonly': deps.readOnly,
      'accepting.writes': writes,
      'line.proto.support.versions': ILP_PROTOCOL_VERSIONS,
      'ilp.proto.transports': transports,
      'cairo.max.file.name.length': tableNameLengthMax,
    },
    'preferences.version': 0,
    preferences: {},
  });
}

export function handleSettings(method: string, res: ServerResponse, deps: SettingsDeps): void {
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET', 'Content-Type': 'text/plain; charset=utf-8' }).end(`Method (${method}) not supported\r\n`);
    return;
  }
  const body = settingsBody(deps);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(method === 'HEAD' ? undefined : body);
}

export function handlePing(method: string, res: ServerResponse): void {
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end(`Method (${method}) not supported\r\n`);
    return;
  }
  res.writeHead(204, { 'X-Influxdb-Version': INFLUX_VERSION }).end();
}
