// The writer service's two ILP groups: TCP units of a commit tick wait until every worker's units of that tick
// are in (tick-gather.ts), and TCP units arriving meanwhile join them; HTTP requests commit without waiting for
// a tick. The tick's bound is a minute here, so only arrivals decide what commits when.
import test from 'ava';
import { WriterService } from '../../../src/cluster/writer-service.js';
import type { IlpCommitRequest } from '../../../src/engine/writer-client.js';
import type { Engine } from '../../../src/engine/engine.js';
import { stageIlp, withIlpEngineAsync } from '../../helpers/ilp-stage.js';
import { isSettled } from '../../helpers/promise-state.js';

const bothWorkers: ReadonlySet<string> = new Set(['worker-1', 'worker-2']);

function service(engine: Engine): WriterService {
  return new WriterService(engine, { snapshotTimeoutMs: 60_000, ilpTcpOwners: () => bothWorkers, ilpTcpTickGatherMs: 60_000 });
}

function tcpUnit(engine: Engine, lines: string, tick?: number): IlpCommitRequest {
  return { ...stageIlp(engine, lines), tcp: true, ...(tick === undefined ? {} : { tick }) };
}

function rowCount(engine: Engine, table: string): number {
  return engine.writer(table)?.txn.rowCount ?? 0;
}

test('an HTTP request commits while a tick group waits for the other worker, which TCP units join', async (t) => {
  await withIlpEngineAsync(async (engine) => {
    const writer = service(engine);
    const tick = Date.now();
    const first = writer.ilpCommit(tcpUnit(engine, 'tcp_t,sym=a v=1i 1000\n', tick), 'worker-1');
    const http = await writer.ilpCommit(stageIlp(engine, 'http_t,sym=b v=2i 2000\n'), 'local');
    t.is(http.rowsCommitted, 1, 'the HTTP request committed on its own');
    t.is(rowCount(engine, 'http_t'), 1);
    const sizeSent = writer.ilpCommit(tcpUnit(engine, 'tcp_t,sym=a v=3i 3000\n'), 'worker-1');
    await writer.ilpCommit(stageIlp(engine, 'http_t,sym=b v=4i 4000\n'), 'local');
    t.false(await isSettled(first), 'the tick group still waits for worker-2');
    t.false(await isSettled(sizeSent), 'a TCP unit sent meanwhile waits with the tick group');
    t.is(rowCount(engine, 'tcp_t'), 0);
    const second = writer.ilpCommit(tcpUnit(engine, 'tcp_t,sym=c v=5i 5000\n', tick), 'worker-2');
    const results = await Promise.all([first, sizeSent, second]);
    t.deepEqual(results.map((result) => result.rowsCommitted), [1, 1, 1]);
    t.is(rowCount(engine, 'tcp_t'), 3);
    t.is(rowCount(engine, 'http_t'), 2);
    await writer.idle();
  });
});

test('without a tick group waiting, a TCP unit sent by its size commits at once', async (t) => {
  await withIlpEngineAsync(async (engine) => {
    const writer = service(engine);
    const result = await writer.ilpCommit(tcpUnit(engine, 'tcp_t,sym=a v=1i 1000\n'), 'worker-1');
    t.is(result.rowsCommitted, 1);
    t.is(rowCount(engine, 'tcp_t'), 1);
    await writer.idle();
  });
});
