// The :9003 server over real HTTP on a free port: health on any path (chunked, text/plain), /metrics
// only when enabled, pessimistic health, 405 for other methods, health not held up by a slow scrape.
import http from 'node:http';
import test from 'ava';
import { startAdminServer, type AdminServerOptions } from '../../../src/admin/admin-server.js';
import { ConfigError } from '../../../src/core/errors.js';

interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** One request with Node's client, so headers such as transfer-encoding are seen as sent. */
function request(port: number, path: string, method = 'GET', agent?: http.Agent): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, path, method, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function options(overrides: Partial<AdminServerOptions> = {}): AdminServerOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    metricsEnabled: false,
    pessimisticHealth: false,
    collect: async () => '# TYPE svc_tables gauge\nsvc_tables 1\n',
    unhandledErrors: () => 0,
    ...overrides,
  };
}

test('any GET path answers healthy, chunked, text/plain', async (t) => {
  const server = await startAdminServer(options());
  try {
    for (const path of ['/', '/status', '/a/b/c?x=1', '/metrics', '/health%20check']) {
      const response = await request(server.port, path);
      t.is(response.status, 200, path);
      t.is(response.body, 'Status: Healthy', path);
      t.is(response.headers['content-type'], 'text/plain', path);
      t.is(response.headers['transfer-encoding'], 'chunked', path);
      t.is(response.headers['content-length'], undefined, path);
    }
  } finally {
    await server.close();
  }
});

test('HEAD answers like GET without a body; other methods get 405 with Allow', async (t) => {
  const server = await startAdminServer(options());
  try {
    const head = await request(server.port, '/', 'HEAD');
    t.is(head.status, 200);
    t.is(head.body, '');
    const post = await request(server.port, '/', 'POST');
    t.is(post.status, 405);
    t.is(post.headers.allow, 'GET, HEAD');
  } finally {
    await server.close();
  }
});

test('with metrics enabled, /metrics serves the collector output as Prometheus text', async (t) => {
  let scrapes = 0;
  const server = await startAdminServer(options({ metricsEnabled: true, collect: async () => `svc_tables ${++scrapes}\n` }));
  try {
    const response = await request(server.port, '/metrics?name[]=x');
    t.is(response.status, 200);
    t.is(response.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    t.is(response.headers['transfer-encoding'], 'chunked');
    t.is(response.body, 'svc_tables 1\n');
    t.is((await request(server.port, '/metrics/extra')).body, 'Status: Healthy', 'only /metrics itself is bound');
  } finally {
    await server.close();
  }
});

test('pessimistic health flips to 500 after an unhandled error, only with metrics enabled', async (t) => {
  let errors = 0;
  const pessimistic = await startAdminServer(options({ metricsEnabled: true, pessimisticHealth: true, unhandledErrors: () => errors }));
  const disabled = await startAdminServer(options({ metricsEnabled: false, pessimisticHealth: true, unhandledErrors: () => errors }));
  try {
    t.is((await request(pessimistic.port, '/')).status, 200);
    errors = 2;
    const unhealthy = await request(pessimistic.port, '/anything');
    t.is(unhealthy.status, 500);
    t.is(unhealthy.body, 'Status: Unhealthy\nUnhandled errors: 2');
    t.is(unhealthy.headers['content-type'], 'text/plain');
    t.is((await request(pessimistic.port, '/metrics')).status, 200, '/metrics still answers');
    const stillHealthy = await request(disabled.port, '/');
    t.is(stillHealthy.status, 200, 'metrics disabled: always healthy');
    t.is(stillHealthy.body, 'Status: Healthy');
  } finally {
    await Promise.all([pessimistic.close(), disabled.close()]);
  }
});

test('health answers while a scrape is still waiting for workers', async (t) => {
  let release: (text: string) => void = () => {};
  const slowScrape = new Promise<string>((resolve) => { release = resolve; });
  const server = await startAdminServer(options({ metricsEnabled: true, collect: () => slowScrape }));
  try {
    const pendingMetrics = request(server.port, '/metrics');
    const health = await request(server.port, '/');
    t.is(health.body, 'Status: Healthy');
    release('svc_tables 1\n');
    t.is((await pendingMetrics).body, 'svc_tables 1\n');
  } finally {
    await server.close();
  }
});

test('a rejecting collector gives a 500, and the server keeps serving', async (t) => {
  const logs: string[] = [];
  const server = await startAdminServer(options({ metricsEnabled: true, collect: () => Promise.reject(new Error('bug')), log: (m) => logs.push(m) }));
  try {
    t.is((await request(server.port, '/metrics')).status, 500);
    t.is((await request(server.port, '/')).status, 200);
    t.true(logs.some((line) => line.includes('bug')));
  } finally {
    await server.close();
  }
});

test('close() ends keep-alive connections and an occupied port is a ConfigError', async (t) => {
  const agent = new http.Agent({ keepAlive: true });
  const server = await startAdminServer(options());
  try {
    t.is((await request(server.port, '/', 'GET', agent)).status, 200);
    const error = await t.throwsAsync(startAdminServer(options({ port: server.port })));
    t.true(error instanceof ConfigError);
    t.regex(error?.message ?? '', /http\.min\.net\.bind\.to/);
  } finally {
    await server.close();
    agent.destroy();
  }
  await t.throwsAsync(request(server.port, '/'));
});
