// Every IPC message between the primary and its workers, as a discriminated union, with narrowing parsers:
// messages enter as unknown and are checked before use. Only cluster/ sends or receives them.
import type { ErrorPayload } from '../core/errors.js';
import type { EncodedStatement } from '../sql/compiler.js';
import type { IlpAnnouncement, IlpCommitRequest, IlpCommitResult, ImportCommitRequest, ImportCommitResult, WriteResult } from '../engine/writer-client.js';

/** The long-lived TCP protocols the primary accepts and hands to workers. */
export type TcpProtocol = 'ilp' | 'pg';

/** A request the primary answers with a WriteReply of the same id. */
export type WorkerRequest =
  /** `statement`: the parsed statement (parameters filled in) as encodeStatement made it for the channel. */
  | { readonly type: 'svc:write'; readonly id: number; readonly statement: EncodedStatement; readonly timeoutMs: number }
  | { readonly type: 'svc:import-commit'; readonly id: number; readonly request: ImportCommitRequest }
  | { readonly type: 'svc:ilp-commit'; readonly id: number; readonly request: IlpCommitRequest };

export type WorkerToPrimary =
  /** The requests a worker made in one turn of its event loop, in order (ipc-writer-client.ts). */
  | { readonly type: 'svc:requests'; readonly requests: readonly WorkerRequest[] }
  | { readonly type: 'svc:log'; readonly record: unknown }
  | { readonly type: 'svc:metrics-reply'; readonly requestId: number; readonly snapshot: unknown }
  | { readonly type: 'svc:unhandled-error'; readonly message: string }
  | { readonly type: 'svc:tokens-ack'; readonly version: number }
  /** A PostgreSQL CancelRequest this worker holds no connection for; the primary passes it to every worker. */
  | { readonly type: 'svc:pg-cancel'; readonly processId: number; readonly secretKey: number }
  /**
   * This worker's busy kept-alive connections on :9000 (`leaving`: those answered or to be answered with
   * Connection: close, lately closed included, not counted in `busy`), sent when a count changes or an order
   * was settled (`settledOrder`: the id of the last order carried out or dropped, 0 before any).
   */
  | { readonly type: 'svc:connections'; readonly busy: number; readonly leaving: number; readonly settledOrder: number }
  /** An ILP request began (ilp-order-gate.ts); sent at once, not batched, so it precedes the request's commit. */
  | { readonly type: 'svc:ilp-announce'; readonly announcement: IlpAnnouncement }
  | { readonly type: 'svc:ilp-withdraw'; readonly id: number }
  /** A connection the primary handed to this worker closed (tcp-dispatcher.ts counts them). */
  | { readonly type: 'svc:tcp-closed'; readonly protocol: TcpProtocol }
  | { readonly type: 'svc:ready' };

/** The answer to one request (`id`) of a worker. */
export type WriteReply =
  | { readonly id: number; readonly ok: true; readonly result: WriteResult | ImportCommitResult | IlpCommitResult | null }
  | { readonly id: number; readonly ok: false; readonly error: ErrorPayload };

export type PrimaryToWorker =
  /** Replies the primary settled together (a group commit's), in one message per worker (reply-batcher.ts). */
  | { readonly type: 'svc:replies'; readonly replies: readonly WriteReply[] }
  | { readonly type: 'svc:metrics-request'; readonly requestId: number }
  /** The whole token list after a service-account change; `tokens` is narrowed by the worker (parseTokenEntries). */
  | { readonly type: 'svc:tokens'; readonly version: number; readonly tokens: unknown }
  | { readonly type: 'svc:pg-cancel'; readonly processId: number; readonly secretKey: number }
  /**
   * Answer `count` busy kept-alive connections with `Connection: close`, each after its current or next complete
   * request (connection-shedder.ts); `order` is echoed as settledOrder.
   */
  | { readonly type: 'svc:shed-connections'; readonly order: number; readonly count: number }
  /** Sent with an accepted socket of `protocol` as its handle, unread: serve it (tcp-dispatcher.ts). */
  | { readonly type: 'svc:tcp-connection'; readonly protocol: TcpProtocol }
  | { readonly type: 'svc:shutdown' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const REQUEST_TYPES = new Set(['svc:write', 'svc:import-commit', 'svc:ilp-commit']);
const WORKER_TYPES = new Set(['svc:requests', 'svc:log', 'svc:metrics-reply', 'svc:unhandled-error', 'svc:tokens-ack', 'svc:pg-cancel', 'svc:connections', 'svc:ilp-announce', 'svc:ilp-withdraw', 'svc:tcp-closed', 'svc:ready']);
const PRIMARY_TYPES = new Set(['svc:replies', 'svc:metrics-request', 'svc:tokens', 'svc:pg-cancel', 'svc:shed-connections', 'svc:tcp-connection', 'svc:shutdown']);

/** Narrows a message received from a worker; undefined for anything that is not ours. */
export function parseWorkerMessage(value: unknown): WorkerToPrimary | undefined {
  if (!isRecord(value) || typeof value['type'] !== 'string' || !WORKER_TYPES.has(value['type'])) return undefined;
  if (value['type'] === 'svc:requests' && !(Array.isArray(value['requests']) && value['requests'].every(isWorkerRequest))) return undefined;
  if (value['type'] === 'svc:tokens-ack' && typeof value['version'] !== 'number') return undefined;
  if (value['type'] === 'svc:pg-cancel' && !isPgCancel(value)) return undefined;
  if (value['type'] === 'svc:connections' && !(isCount(value['busy']) && isCount(value['leaving']) && isCount(value['settledOrder']))) return undefined;
  if (value['type'] === 'svc:ilp-announce' && !isAnnouncement(value['announcement'])) return undefined;
  if (value['type'] === 'svc:ilp-withdraw' && !Number.isInteger(value['id'])) return undefined;
  if (value['type'] === 'svc:tcp-closed' && !isTcpProtocol(value['protocol'])) return undefined;
  return value as unknown as WorkerToPrimary;
}

export function parsePrimaryMessage(value: unknown): PrimaryToWorker | undefined {
  if (!isRecord(value) || typeof value['type'] !== 'string' || !PRIMARY_TYPES.has(value['type'])) return undefined;
  if (value['type'] === 'svc:replies' && !(Array.isArray(value['replies']) && value['replies'].every(isReply))) return undefined;
  if (value['type'] === 'svc:tokens' && typeof value['version'] !== 'number') return undefined;
  if (value['type'] === 'svc:pg-cancel' && !isPgCancel(value)) return undefined;
  if (value['type'] === 'svc:shed-connections' && !(isCount(value['order']) && isCount(value['count']))) return undefined;
  if (value['type'] === 'svc:tcp-connection' && !isTcpProtocol(value['protocol'])) return undefined;
  return value as unknown as PrimaryToWorker;
}

function isWorkerRequest(value: unknown): boolean {
  if (!isRecord(value) || typeof value['type'] !== 'string' || !REQUEST_TYPES.has(value['type']) || typeof value['id'] !== 'number') return false;
  return value['type'] !== 'svc:write' || isEncodedStatement(value['statement']);
}

function isEncodedStatement(value: unknown): boolean {
  return isRecord(value) && isRecord(value['tree']) && typeof value['tagged'] === 'boolean';
}

function isReply(value: unknown): boolean {
  return isRecord(value) && typeof value['id'] === 'number' && typeof value['ok'] === 'boolean';
}

function isAnnouncement(value: unknown): boolean {
  return isRecord(value) && Number.isInteger(value['id']) && Array.isArray(value['starts'])
    && value['starts'].every((start: unknown) => isRecord(start) && typeof start['table'] === 'string' && typeof start['firstMicros'] === 'number');
}

function isPgCancel(value: Record<string, unknown>): boolean {
  return Number.isInteger(value['processId']) && Number.isInteger(value['secretKey']);
}

function isTcpProtocol(value: unknown): boolean {
  return value === 'ilp' || value === 'pg';
}

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && typeof value === 'number' && value >= 0;
}
