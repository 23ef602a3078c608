// Entry of an ILP parse thread: parses request bodies sent by the worker process's request threads into
// column builders, with the same IlpRequest the request thread uses for small bodies, and stages their rows
// in db/.staging. Each session is one body, parsed in arrival order; the first error ends the session (its
// staged file is deleted) and is reported once. A finished session's staged file belongs to the request thread.
import { parentPort, type MessagePort } from 'node:worker_threads';
import { assert, assertNever } from '../core/assert.js';
import { asStorageError } from '../core/errors.js';
import { Catalog } from '../storage/catalog.js';
import { IlpRequest } from './ilp-request.js';
import { ilpErrorToPayload, type FromIlpThread, type IlpSessionSetup, type ToIlpThread } from './ilp-thread-messages.js';

const port = parentPort;
assert(port !== null, 'ilp-parse-thread runs as a worker thread');
const thread: MessagePort = port;

/** One catalog per db directory (a process serves one), read from disk as the request thread's is. */
const catalogs = new Map<string, Catalog>();
const sessions = new Map<number, IlpRequest>();

function catalogOf(dbDir: string): Catalog {
  let catalog = catalogs.get(dbDir);
  if (catalog === undefined) {
    catalog = new Catalog(dbDir);
    catalogs.set(dbDir, catalog);
  }
  return catalog;
}

function begin(session: number, setup: IlpSessionSetup): void {
  const options = {
    dbDir: setup.dbDir, catalog: catalogOf(setup.dbDir), lineBytesMax: setup.lineBytesMax, autoCreateTables: setup.autoCreateTables,
    autoCreateColumns: setup.autoCreateColumns, partitionBy: setup.partitionBy, nanosTimestamps: setup.nanosTimestamps, spillBytes: setup.spillBytes,
  };
  sessions.set(session, new IlpRequest(options, setup.precision, setup.expectedBytes));
}

/** Ends a session with its first error: what it staged is deleted, and later messages of it are ignored. */
function fail(session: number, request: IlpRequest, error: unknown): FromIlpThread {
  sessions.delete(session);
  request.discard();
  return { kind: 'failed', session, error: ilpErrorToPayload(error) };
}

function parsePiece(session: number, bytes: Uint8Array): FromIlpThread | undefined {
  const request = sessions.get(session);
  if (request === undefined) return undefined;
  try {
    request.feed(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    return fail(session, request, error);
  }
  // The parser copied what it keeps (the unfinished last line), so the buffer can be filled again.
  return { kind: 'parsed', session, buffer: bytes.buffer as ArrayBuffer };
}

function finish(session: number): FromIlpThread | undefined {
  const request = sessions.get(session);
  if (request === undefined) return undefined;
  try {
    request.finish();
  } catch (error) {
    return fail(session, request, error);
  }
  try {
    const staged = request.commitRequest();
    sessions.delete(session);
    return { kind: 'staged', session, request: staged };
  } catch (error) {
    return fail(session, request, asStorageError(error));
  }
}

function post(message: FromIlpThread | undefined): void {
  if (message === undefined) return;
  thread.postMessage(message, message.kind === 'parsed' ? [message.buffer] : []);
}

thread.on('message', (message: ToIlpThread) => {
  switch (message.kind) {
    case 'begin':
      begin(message.session, message.setup);
      return;
    case 'piece':
      post(parsePiece(message.session, message.bytes));
      return;
    case 'finish':
      post(finish(message.session));
      return;
    case 'discard':
      sessions.get(message.session)?.discard();
      sessions.delete(message.session);
      return;
    default:
      assertNever(message, 'message to an ILP parse thread');
  }
});
