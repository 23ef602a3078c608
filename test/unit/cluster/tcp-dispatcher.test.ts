// The primary's TCP dispatcher over real loopback connections, with stand-in worker slots that record the
// sockets handed to them (forking workers would make the order of readiness and exits a matter of timing):
// connections wait while no worker is ready, go to the ready worker serving the fewest, a closed connection
// or a dead worker lowers a count, a failed hand-over closes the connection, and close() ends the waiting ones.
import test from 'ava';
import { connect, type Socket } from 'node:net';
import { TcpDispatcher, type DispatchSlot } from '../../../src/cluster/tcp-dispatcher.js';
import type { PrimaryToWorker } from '../../../src/cluster/ipc.js';
import { waitUntil } from '../../helpers/ilp-tcp.js';

class StandInWorker {
  readonly received: Socket[] = [];
  connected = true;
  failNext = false;

  send(message: PrimaryToWorker, handle: Socket, callback: (error: Error | null) => void): boolean {
    if (message.type !== 'svc:tcp-connection') throw new Error(`unexpected ${message.type}`);
    if (this.failNext) {
      this.failNext = false;
      setImmediate(() => callback(new Error('channel closed')));
      return false;
    }
    this.received.push(handle);
    setImmediate(() => callback(null));
    return true;
  }

  isConnected(): boolean {
    return this.connected;
  }
}

interface Setup {
  readonly dispatcher: TcpDispatcher;
  readonly slots: { slot: number; worker: StandInWorker | undefined }[];
  readonly clients: Socket[];
  open(): Promise<Socket>;
}

async function setUp(workers: number): Promise<Setup> {
  const slots = Array.from({ length: workers }, (_, k) => ({ slot: k + 1, worker: new StandInWorker() as StandInWorker | undefined }));
  const dispatcher = await TcpDispatcher.start('ilp', '127.0.0.1', 0, { slots: slots as readonly DispatchSlot[] });
  const clients: Socket[] = [];
  const open = (): Promise<Socket> => new Promise((resolve, reject) => {
    const client = connect(dispatcher.port, '127.0.0.1', () => resolve(client));
    client.on('error', () => undefined);
    client.once('error', reject);
    clients.push(client);
  });
  return { dispatcher, slots, clients, open };
}

async function tearDown(setup: Setup): Promise<void> {
  for (const client of setup.clients) client.destroy();
  for (const slot of setup.slots) for (const socket of slot.worker?.received ?? []) socket.destroy();
  await setup.dispatcher.close();
}

/** Hand-overs take a turn of the event loop or two: polled every 5 ms, for up to 5 s. */
function until(check: () => boolean): Promise<boolean> {
  return waitUntil(check, 5000, 5);
}

function receivedCounts(setup: Setup): number[] {
  return setup.slots.map((slot) => slot.worker?.received.length ?? 0);
}

function closedByServer(client: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    if (client.destroyed) resolve(true);
    client.once('close', () => resolve(true));
    setTimeout(() => resolve(false), 5000).unref();
  });
}

test('connections wait until a worker is ready, then go to it; ready workers take turns by load', async (t) => {
  const setup = await setUp(2);
  try {
    await setup.open();
    await setup.open();
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.deepEqual(receivedCounts(setup), [0, 0], 'nothing is handed before a worker is ready');
    setup.dispatcher.onReady(setup.slots[1] as DispatchSlot);
    t.true(await until(() => receivedCounts(setup).join() === '0,2'), 'the waiting connections go to the ready worker');
    setup.dispatcher.onReady(setup.slots[0] as DispatchSlot);
    for (let k = 0; k < 4; k++) await setup.open();
    t.true(await until(() => receivedCounts(setup).join() === '3,3'), `the fewest first: ${receivedCounts(setup).join()}`);
  } finally {
    await tearDown(setup);
  }
});

test('a closed connection lowers its worker\'s count; a dead worker takes nothing until ready again, and starts from zero', async (t) => {
  const setup = await setUp(2);
  try {
    for (const slot of setup.slots) setup.dispatcher.onReady(slot as DispatchSlot);
    for (let k = 0; k < 4; k++) await setup.open();
    t.true(await until(() => receivedCounts(setup).join() === '2,2'));
    setup.dispatcher.onClosed(setup.slots[0] as DispatchSlot);
    setup.dispatcher.onClosed(setup.slots[0] as DispatchSlot);
    await setup.open();
    await setup.open();
    t.true(await until(() => receivedCounts(setup).join() === '4,2'), `after two closes worker 1 serves the fewest: ${receivedCounts(setup).join()}`);
    setup.dispatcher.onExit(setup.slots[1] as DispatchSlot);
    await setup.open();
    t.true(await until(() => receivedCounts(setup).join() === '5,2'), 'an exited worker is not chosen');
    setup.dispatcher.onReady(setup.slots[1] as DispatchSlot);
    for (let k = 0; k < 3; k++) await setup.open();
    t.true(await until(() => receivedCounts(setup).join() === '5,5'), `its successor counts from zero: ${receivedCounts(setup).join()}`);
  } finally {
    await tearDown(setup);
  }
});

test('a worker whose IPC channel is gone is skipped; a hand-over that fails closes the connection', async (t) => {
  const setup = await setUp(2);
  try {
    for (const slot of setup.slots) setup.dispatcher.onReady(slot as DispatchSlot);
    const first = setup.slots[0]?.worker as StandInWorker;
    first.connected = false;
    await setup.open();
    t.true(await until(() => receivedCounts(setup).join() === '0,1'));
    first.connected = true;
    first.failNext = true;
    const failed = await setup.open();
    t.true(await closedByServer(failed), 'the client sees its connection closed and can reconnect');
    await setup.open();
    t.true(await until(() => receivedCounts(setup).join() === '1,1'), `the failed hand-over was not counted: ${receivedCounts(setup).join()}`);
  } finally {
    await tearDown(setup);
  }
});

test('close() stops accepting and closes the connections still waiting for a worker', async (t) => {
  const setup = await setUp(1);
  const waiting = await setup.open();
  const closed = closedByServer(waiting);
  await setup.dispatcher.close();
  t.true(await closed);
  await t.throwsAsync(setup.open(), undefined, 'nothing listens any more');
  for (const client of setup.clients) client.destroy();
});
