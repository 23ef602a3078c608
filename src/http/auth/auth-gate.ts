// The first step of every :9000 request: authenticate, or answer 401 with a `WWW-Authenticate: Basic` challenge
// (so browsers prompt for credentials) and a JSON error body. Failed attempts are logged at E with the remote
// address and the user name tried; the password and token are never logged. A request without any
// Authorization header is not an attempt (a browser's first request looks like that) and is logged at I.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getLogger } from '../../log/logger.js';
import type { Authenticator, Principal } from './authenticator.js';

const log = getLogger('http-auth');

/** The realm sent in the challenge; browsers show it in their login prompt. */
export const AUTH_REALM = 'svc';
/** Longest user name echoed into a log record. */
const LOGGED_USER_LENGTH_MAX = 64;

export function sendUnauthorized(res: ServerResponse): void {
  const body = '{"error":"Unauthorized","code":"SVC_AUTH_REQUIRED"}';
  res.writeHead(401, {
    'Content-Type': 'application/json; charset=utf-8',
    'WWW-Authenticate': `Basic realm="${AUTH_REALM}", charset="UTF-8"`,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** The principal of the request, or undefined after a 401 has been sent. */
export function authenticateRequest(req: IncomingMessage, res: ServerResponse, authenticate: Authenticator): Principal | undefined {
  const outcome = authenticate(req);
  if (outcome.ok) return outcome.principal;
  const remote = req.socket.remoteAddress ?? 'unknown';
  const path = (req.url ?? '').split('?', 1)[0] ?? '';
  if (outcome.reason === 'missing credentials') {
    log.info(() => `authentication required [remote=${remote}, path=${JSON.stringify(path.slice(0, 256))}]`);
  } else {
    const user = outcome.user === undefined ? '' : `, user=${JSON.stringify(outcome.user.slice(0, LOGGED_USER_LENGTH_MAX))}`;
    log.error(() => `authentication failed [remote=${remote}, reason=${outcome.reason}${user}, path=${JSON.stringify(path.slice(0, 256))}]`);
  }
  sendUnauthorized(res);
  return undefined;
}
