// cold.storage.object.store is checked when svc starts: a malformed connection string stops the start with
// a message naming the bad key and its position, and never prints the secret it contains.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mainScript } from '../helpers/server.js';

function startExpectingFailure(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const rootDir = mkdtempSync(join(tmpdir(), 'svc-objstore-config-'));
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [mainScript, '-d', rootDir], {
      env: { ...process.env, SVC_HTTP_NET_BIND_TO: '127.0.0.1:0', SVC_HTTP_MIN_NET_BIND_TO: '127.0.0.1:0', SVC_LINE_TCP_NET_BIND_TO: '127.0.0.1:0', SVC_HTTP_WORKER_COUNT: '0', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const timer = setTimeout(() => { child.kill('SIGKILL'); fail(new Error(`svc did not exit on a bad connection string; stderr: ${stderr}`)); }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      rmSync(rootDir, { recursive: true, force: true });
      done({ code, stderr });
    });
  });
}

test('a malformed cold.storage.object.store stops the start, naming the key, without the secret', async (t) => {
  const { code, stderr } = await startExpectingFailure({ SVC_COLD_STORAGE_OBJECT_STORE: 's3::bucket=cold;secret_access_key=TOPSECRET-1;regoin=us-east-1;' });
  t.is(code, 1);
  t.regex(stderr, /start-up failed: object store connection string: unknown key 'regoin' at position 46 for s3::.*\[key=cold\.storage\.object\.store\]/);
  t.false(stderr.includes('TOPSECRET-1'));
});
