// Alert delivery against stand-in Alertmanagers on loopback: failover to the next target, the delay between attempts
// on a single target, giving up after 2 × targets attempts, no failover for a rejected alert, and enqueueing that
// stays fast with a bounded queue when every target is dead or hung. The writer's own records are captured through
// the worker bridge (a sink that collects them), which also shows they are I/E, never C.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { AlertWriter } from '../../../src/log/alert-writer.js';
import { parseAlertTemplate } from '../../../src/log/alert-template.js';
import { parseAlertTargets } from '../../../src/log/alert-targets.js';
import { bundledAlertTemplatePath } from '../../../src/log/log-conf-file.js';
import { formatRecordLine } from '../../../src/log/layout.js';
import { configureWorkerLogging, type LogRecordPayload } from '../../../src/log/worker-bridge.js';
import { findDeadPort, makeRecord, startFakeAlertmanager, waitFor } from './log-test-helpers.js';

const ownRecords: LogRecordPayload[] = [];
test.before(() => {
  configureWorkerLogging((record) => ownRecords.push(record));
});

function makeWriter(ports: readonly number[], options: { reconnectDelayMs?: number; sendTimeoutMs?: number; queueAlertsMax?: number } = {}): AlertWriter {
  const template = parseAlertTemplate(readFileSync(bundledAlertTemplatePath(), 'utf8'), 'bundled', { env: {}, version: '0.0.1', key: 'w.alert.location' });
  return new AlertWriter({
    name: 'alert',
    template,
    targets: parseAlertTargets(ports.map((port) => `127.0.0.1:${port}`).join(','), '127.0.0.1', 9093, 'w.alert.alertTargets'),
    reconnectDelayMs: options.reconnectDelayMs ?? 250,
    sendTimeoutMs: options.sendTimeoutMs ?? 2000,
    inBufferBytes: 2 * 1024 * 1024,
    outBufferBytes: 4 * 1024 * 1024,
    queueAlertsMax: options.queueAlertsMax ?? 1000,
    closeDrainMs: 100,
    random: () => 0,
  });
}

function critical(writer: AlertWriter, message: string, logger = 'engine'): void {
  const record = makeRecord('C', logger, message, Date.now() * 1000);
  writer.write(formatRecordLine(record), record);
}

function ownLines(since: number): string[] {
  return ownRecords.slice(since).map((record) => `${record.level} ${record.message}`);
}

test.serial('a dead first target fails over to the next, which gets the alert', async (t) => {
  const since = ownRecords.length;
  const dead = await findDeadPort();
  const live = await startFakeAlertmanager('accept');
  const writer = makeWriter([dead, live.port]);
  critical(writer, 'disk is on fire');
  await waitFor(() => writer.stats().sent === 1, 'delivery');
  await writer.close();
  await live.close();
  t.is(live.bodies.length, 1);
  t.regex(live.bodies[0] ?? '', /C engine disk is on fire/);
  t.is(writer.stats().failedAttempts, 1);
  const lines = ownLines(since);
  t.true(lines.some((line) => new RegExp(`^I Failing over from \\[0\\] 127\\.0\\.0\\.1:${dead} to \\[1\\] 127\\.0\\.0\\.1:${live.port}`).test(line)));
  t.true(lines.some((line) => new RegExp(`^I Received \\[1\\] 127\\.0\\.0\\.1:${live.port}: 200 \\{"status":"success"\\}`).test(line)));
  t.true(ownRecords.every((record) => record.level !== 'C'), 'the writer never logs at C');
});

test.serial('a single target is retried after reconnectDelay, then the alert is given up after 2 attempts', async (t) => {
  const since = ownRecords.length;
  const flaky = await startFakeAlertmanager('reset');
  const writer = makeWriter([flaky.port], { reconnectDelayMs: 300 });
  critical(writer, 'nobody listens');
  await waitFor(() => writer.stats().givenUp === 1, 'giving up');
  await writer.close();
  await flaky.close();
  t.is(flaky.requestTimes.length, 2, 'attempt budget = 2 × targets');
  const gap = (flaky.requestTimes[1] ?? 0) - (flaky.requestTimes[0] ?? 0);
  t.true(gap >= 280, `attempts ${gap} ms apart`);
  const lines = ownLines(since);
  t.true(lines.some((line) => line.includes('with a delay of 300 millis (as it is the same alert manager)')));
  t.true(lines.some((line) => /^I None of the configured alert managers are accepting alerts\. Giving up sending after 2 attempts: .*nobody listens/.test(line)));
});

test.serial('an alert the Alertmanager rejects (HTTP 400) is logged at E and not sent elsewhere', async (t) => {
  const since = ownRecords.length;
  const strict = await startFakeAlertmanager('reject');
  const spare = await startFakeAlertmanager('accept');
  const writer = makeWriter([strict.port, spare.port]);
  critical(writer, 'bad alert');
  await waitFor(() => writer.stats().rejected === 1, 'rejection');
  await writer.close();
  await Promise.all([strict.close(), spare.close()]);
  t.is(spare.bodies.length, 0);
  t.true(ownLines(since).some((line) => /^E Alertmanager \[0\] .* rejected the alert with HTTP 400/.test(line)));
});

test.serial('with every target dead or hung, logging stays fast and the queue stays bounded', async (t) => {
  const dead = await findDeadPort();
  const hung = await startFakeAlertmanager('hang');
  const writer = makeWriter([dead, hung.port], { sendTimeoutMs: 300, queueAlertsMax: 50 });
  const heapBefore = process.memoryUsage().heapUsed;
  const callNs = new Float64Array(20_000);
  for (let index = 0; index < callNs.length; index++) {
    const before = process.hrtime.bigint();
    critical(writer, `critical number ${index} ${'x'.repeat(200)}`);
    callNs[index] = Number(process.hrtime.bigint() - before);
  }
  const totalMs = callNs.reduce((sum, ns) => sum + ns, 0) / 1e6;
  // The 99th percentile, not the maximum: a garbage-collection pause can land on any single call.
  const p99Ms = (callNs.sort()[Math.floor(callNs.length * 0.99)] ?? 0) / 1e6;
  const stats = writer.stats();
  t.true(totalMs < 2000, `20000 critical records enqueued in ${totalMs.toFixed(1)} ms`);
  t.true(p99Ms < 5, `99% of enqueues took under ${p99Ms.toFixed(3)} ms`);
  t.true(stats.queued <= 50);
  t.true(stats.droppedQueueFull >= 20_000 - 51);
  t.true(process.memoryUsage().heapUsed - heapBefore < 64 * 1024 * 1024);
  // The sender is still working through attempts in the background; closing cuts it short.
  await writer.close();
  await hung.close();
});

test.serial('records of the alert writer itself are never turned into alerts', async (t) => {
  const live = await startFakeAlertmanager('accept');
  const writer = makeWriter([live.port]);
  critical(writer, 'loop?', 'alert-writer');
  critical(writer, 'real one');
  await waitFor(() => writer.stats().sent === 1, 'delivery');
  await writer.close();
  await live.close();
  t.is(live.bodies.length, 1);
  t.regex(live.bodies[0] ?? '', /real one/);
});
