// The /exec answer to CREATE TOKEN: a one-row result set (name, access_token, expires_at), the only place
// the token text ever appears. Timestamps are ISO-8601 with microseconds, as every TIMESTAMP in JSON results.
import { jsonString } from '../../types/value-format.js';

export function tokenResultBody(query: string, account: string, token: string, expiresAtMs: number): string {
  const expiresAt = new Date(expiresAtMs).toISOString().replace('Z', '000Z');
  const columns = '[{"name":"name","type":"STRING"},{"name":"access_token","type":"STRING"},{"name":"expires_at","type":"TIMESTAMP"}]';
  return `{"query":${jsonString(query)},"columns":${columns},"timestamp":-1,"dataset":[[${jsonString(account)},${jsonString(token)},${jsonString(expiresAt)}]],"count":1}`;
}
