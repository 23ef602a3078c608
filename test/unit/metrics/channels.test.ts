// Publishing svc:* events through core/diagnostics.ts updates this process's metrics; malformed
// payloads never throw (a throwing subscriber would crash the publisher). Serial: channels are global.
import test from 'ava';
import {
  catalogChannel, commitChannel, httpRequestChannel, importRowsChannel, queryChannel, readerChannel,
  unhandledErrorChannel, walChannel, workerRestartChannel, type HttpEndpoint,
} from '../../../src/core/diagnostics.js';
import { subscribeMetricsChannels } from '../../../src/metrics/channels.js';
import { createMetricsRegistry } from '../../../src/metrics/registry.js';
import { seriesValue } from '../../helpers/metrics-snapshots.js';

function subscribed() {
  const { registry, metrics } = createMetricsRegistry();
  const subscription = subscribeMetricsChannels(metrics);
  return { subscription, text: () => registry.metrics() };
}

test.serial('http requests count by endpoint and status, durations in seconds', async (t) => {
  const { subscription, text } = subscribed();
  httpRequestChannel.publish({ endpoint: 'execute', status: 200, durationMs: 3 });
  httpRequestChannel.publish({ endpoint: 'execute', status: 200, durationMs: 7 });
  httpRequestChannel.publish({ endpoint: 'export', status: 400, durationMs: 1 });
  subscription.unsubscribe();
  httpRequestChannel.publish({ endpoint: 'execute', status: 200, durationMs: 1 });
  const body = await text();
  t.is(seriesValue(body, 'svc_http_requests_total', { endpoint: 'execute', status: '200' }), 2);
  t.is(seriesValue(body, 'svc_http_requests_total', { endpoint: 'export', status: '400' }), 1);
  t.is(seriesValue(body, 'svc_http_request_duration_seconds_count', { endpoint: 'execute' }), 2);
  t.is(seriesValue(body, 'svc_http_request_duration_seconds_sum', { endpoint: 'execute' }), 0.01);
  t.is(seriesValue(body, 'svc_http_request_duration_seconds_bucket', { endpoint: 'execute', le: '0.005' }), 1);
});

test.serial('queries, imports, commits, WAL, readers and restarts', async (t) => {
  const { subscription, text } = subscribed();
  queryChannel.publish({ endpoint: 'import', outcome: 'error', durationMs: 20 });
  importRowsChannel.publish({ table: 't', rowsImported: 10, rowsRejected: 2 });
  commitChannel.publish({ table: 't', rowsCommitted: 10, outOfOrder: false, rowsPhysical: 10, tableRows: 10 });
  commitChannel.publish({ table: 't', rowsCommitted: 5, outOfOrder: true, rowsPhysical: 12, tableRows: 15 });
  walChannel.publish({ kind: 'append', bytes: 4096 });
  walChannel.publish({ kind: 'replay', records: 3 });
  readerChannel.publish({ kind: 'open' });
  readerChannel.publish({ kind: 'open' });
  readerChannel.publish({ kind: 'close' });
  readerChannel.publish({ kind: 'pins', partitionVersionsPinned: 4 });
  workerRestartChannel.publish({ workerId: 2, exitCode: 1, signal: null });
  subscription.unsubscribe();
  const body = await text();
  t.is(seriesValue(body, 'svc_queries_total', { endpoint: 'import', outcome: 'error' }), 1);
  t.is(seriesValue(body, 'svc_import_rows_imported_total'), 10);
  t.is(seriesValue(body, 'svc_import_rows_rejected_total'), 2);
  t.is(seriesValue(body, 'svc_commits_total'), 2);
  t.is(seriesValue(body, 'svc_o3_commits_total'), 1);
  t.is(seriesValue(body, 'svc_committed_rows_total'), 15);
  t.is(seriesValue(body, 'svc_physically_written_rows_total'), 22);
  t.is(seriesValue(body, 'svc_table_rows', { table: 't' }), 15);
  t.is(seriesValue(body, 'svc_wal_bytes_total'), 4096);
  t.is(seriesValue(body, 'svc_wal_replayed_records_total'), 3);
  t.is(seriesValue(body, 'svc_readers_open'), 1);
  t.is(seriesValue(body, 'svc_partition_versions_pinned'), 4);
  t.is(seriesValue(body, 'svc_worker_restarts_total'), 1);
});

test.serial('a catalog event replaces the table set: dropped tables lose their series', async (t) => {
  const { subscription, text } = subscribed();
  catalogChannel.publish({ tables: [{ name: 'a', rows: 1 }, { name: 'b', rows: 2 }] });
  catalogChannel.publish({ tables: [{ name: 'b', rows: 3 }] });
  subscription.unsubscribe();
  const body = await text();
  t.is(seriesValue(body, 'svc_tables'), 1);
  t.is(seriesValue(body, 'svc_table_rows', { table: 'a' }), undefined);
  t.is(seriesValue(body, 'svc_table_rows', { table: 'b' }), 3);
});

test.serial('unhandled errors: local ones counted here, worker ones only seen (counted in the worker)', async (t) => {
  const { subscription, text } = subscribed();
  unhandledErrorChannel.publish({ source: 'test', origin: 'local', error: new Error('bug') });
  unhandledErrorChannel.publish({ source: 'worker-1', origin: 'worker', error: undefined });
  t.is(subscription.unhandledErrorsSeen(), 2);
  subscription.unsubscribe();
  t.is(seriesValue(await text(), 'svc_unhandled_errors_total'), 1);
});

test.serial('malformed payloads are clamped or relabelled, never thrown', async (t) => {
  const { subscription, text } = subscribed();
  t.notThrows(() => {
    httpRequestChannel.publish({ endpoint: 'nonsense' as HttpEndpoint, status: 7, durationMs: Number.NaN });
    importRowsChannel.publish({ table: 't', rowsImported: -5, rowsRejected: Number.POSITIVE_INFINITY });
    walChannel.publish({ kind: 'append', bytes: Number.NaN });
  });
  subscription.unsubscribe();
  const body = await text();
  t.is(seriesValue(body, 'svc_http_requests_total', { endpoint: 'other', status: 'other' }), 1);
  t.is(seriesValue(body, 'svc_http_request_duration_seconds_count', { endpoint: 'other' }), undefined);
  t.is(seriesValue(body, 'svc_import_rows_imported_total'), 0);
  t.is(seriesValue(body, 'svc_wal_bytes_total'), 0);
});

test.serial('publishing with no subscriber is a no-op', (t) => {
  t.false(httpRequestChannel.hasSubscribers);
  t.notThrows(() => httpRequestChannel.publish({ endpoint: 'execute', status: 200, durationMs: 1 }));
});
