// IPC batching between a worker and the primary: requests made in one event-loop turn leave as one message,
// replies settled together come back as one message per worker, both split past ipcBatchEntriesMax, and the
// parsers refuse batches with a malformed entry.
import test from 'ava';
import { IpcWriterClient } from '../../../src/cluster/ipc-writer-client.js';
import { ReplyBatcher } from '../../../src/cluster/reply-batcher.js';
import { parsePrimaryMessage, parseWorkerMessage, type PrimaryToWorker, type WorkerToPrimary } from '../../../src/cluster/ipc.js';
import type { WorkerSlot } from '../../../src/cluster/worker-pool.js';
import { ipcBatchEntriesMax } from '../../../src/core/limits.js';
import type { ImportCommitRequest } from '../../../src/engine/writer-client.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const slotOf = (slot: number): WorkerSlot => ({ slot, worker: undefined, startedAt: 0, backoffMs: 0 });
const importRequest = (k: number): ImportCommitRequest => ({ segmentDir: `/tmp/segment-${k}`, table: 't', create: false, overwrite: false, partitionBy: 'DAY' });

test('requests made in one turn go to the primary as one message, in order', async (t) => {
  const sent: WorkerToPrimary[] = [];
  const client = new IpcWriterClient((message) => sent.push(message), 60_000);
  const answers = [0, 1, 2].map((k) => client.importCommit(importRequest(k)));
  t.is(sent.length, 0, 'nothing leaves before the turn ends');
  await nextTurn();
  t.is(sent.length, 1);
  const message = sent[0];
  if (message?.type !== 'svc:requests') return t.fail('a batch of requests');
  t.deepEqual(message.requests.map((request) => request.id), [1, 2, 3]);
  t.deepEqual(parseWorkerMessage(JSON.parse(JSON.stringify(message))), message);
  client.onReply({ id: 2, ok: false, error: { name: 'ImportError', code: 'SVC_IMPORT_FAILED', message: 'bad segment', httpStatus: 400 } });
  client.onReply({ id: 1, ok: true, result: null });
  client.onReply({ id: 3, ok: true, result: null });
  const outcomes = await Promise.allSettled(answers);
  t.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'rejected', 'fulfilled'], 'each request gets its own outcome');
  return undefined;
});

test('a turn with more requests than one message carries is split', async (t) => {
  const sent: WorkerToPrimary[] = [];
  const client = new IpcWriterClient((message) => sent.push(message), 60_000);
  const count = ipcBatchEntriesMax * 2 + 1;
  const answers = Array.from({ length: count }, (_, k) => client.importCommit(importRequest(k)));
  await nextTurn();
  t.deepEqual(sent.map((message) => (message.type === 'svc:requests' ? message.requests.length : -1)), [ipcBatchEntriesMax, ipcBatchEntriesMax, 1]);
  client.failAll('test over');
  await Promise.allSettled(answers);
});

test('replies settled together leave as one message per worker', async (t) => {
  const sent: { slot: number; message: PrimaryToWorker }[] = [];
  const batcher = new ReplyBatcher((slot, message) => sent.push({ slot: slot.slot, message }));
  const [one, two] = [slotOf(1), slotOf(2)];
  // Promises settled in one microtask run, as a group commit settles its statements.
  const settled = [1, 2, 3, 4].map((id) => Promise.resolve(id).then((value) => batcher.reply(value % 2 === 0 ? two : one, { id: value, ok: true, result: null })));
  await Promise.all(settled);
  t.is(sent.length, 0, 'the flush waits for the microtasks of the group');
  await nextTurn();
  t.deepEqual(sent.map(({ slot, message }) => [slot, message.type === 'svc:replies' ? message.replies.map((reply) => reply.id) : []]), [[1, [1, 3]], [2, [2, 4]]]);
  for (const { message } of sent) t.deepEqual(parsePrimaryMessage(JSON.parse(JSON.stringify(message))), message);
  batcher.reply(one, { id: 9, ok: true, result: null });
  await nextTurn();
  t.is(sent.length, 3, 'a later reply goes in a message of its own');
});

test('a batch with a malformed entry is refused whole', (t) => {
  t.is(parseWorkerMessage({ type: 'svc:requests', requests: [{ type: 'svc:write', id: 1, statement: { tree: {}, tagged: false }, timeoutMs: 1 }, { type: 'svc:write', id: 2 }] }), undefined);
  t.truthy(parseWorkerMessage({ type: 'svc:requests', requests: [{ type: 'svc:write', id: 1, statement: { tree: {}, tagged: false }, timeoutMs: 1 }] }), 'the first entry alone is a good batch');
  t.is(parseWorkerMessage({ type: 'svc:requests', requests: [{ type: 'svc:write', id: 1, statement: '{}', timeoutMs: 1 }] }), undefined, 'a statement is an encoded tree, not a text');
  t.is(parseWorkerMessage({ type: 'svc:requests', requests: [{ type: 'svc:log', id: 1 }] }), undefined);
  t.is(parseWorkerMessage({ type: 'svc:requests', requests: 'none' }), undefined);
  t.is(parsePrimaryMessage({ type: 'svc:replies', replies: [{ id: 1, ok: true, result: null }, { id: 'x', ok: true }] }), undefined);
  t.is(parsePrimaryMessage({ type: 'svc:reply', id: 1, ok: true, result: null }), undefined, 'single replies are no longer sent');
});
