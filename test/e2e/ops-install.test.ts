// Packaging: the systemd unit passes `systemd-analyze verify` without a warning and keeps the lifecycle
// settings the service depends on; deploy/install.sh builds a release tree into a temporary prefix that
// starts and answers health on its own (modules and the native addon loaded from the tree, none from the
// checkout); deploy/uninstall.sh removes it and refuses a directory that is not a release.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, startServer } from '../helpers/server.js';
import { execOk, rows } from '../helpers/http.js';
import { requirePrometheusTool } from '../helpers/prometheus.js';

const unitPath = join(repoRoot, 'systemd', 'svc.service');

function verifyUnit(text: string): { status: number | null; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-unit-'));
  try {
    // verify checks that ExecStart's binary exists: point it at the node running this test.
    writeFileSync(join(dir, 'svc.service'), text.replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath}`));
    const result = spawnSync('systemd-analyze', ['verify', '--man=no', join(dir, 'svc.service')], { encoding: 'utf8' });
    if (result.error !== undefined) throw new Error(`systemd-analyze is required (Debian package systemd, installed by .ci/run): ${result.error.message}`);
    return { status: result.status, stderr: result.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function directive(text: string, name: string): string | undefined {
  return new RegExp(`^${name}=(.*)$`, 'm').exec(text)?.[1];
}

test('systemd-analyze verify accepts the unit without a warning, and rejects a broken one', (t) => {
  const text = readFileSync(unitPath, 'utf8');
  const result = verifyUnit(text);
  t.is(result.status, 0, result.stderr);
  t.is(result.stderr.trim(), '', 'no warnings');
  const broken = verifyUnit(text.replace(/^KillMode=mixed$/m, 'KillMode=mixd'));
  t.regex(broken.stderr, /kill mode/i, 'a bad value is reported, so the clean run above means something');
});

test('the unit keeps the settings the lifecycle depends on', (t) => {
  const text = readFileSync(unitPath, 'utf8');
  t.is(directive(text, 'Type'), 'exec');
  t.is(directive(text, 'KillMode'), 'mixed', 'only the primary gets SIGTERM; it drains the workers');
  t.is(directive(text, 'KillSignal'), 'SIGTERM');
  t.is(directive(text, 'Restart'), 'on-failure');
  t.is(directive(text, 'User'), 'svc');
  t.is(directive(text, 'StateDirectory'), 'svc');
  t.is(directive(text, 'LogsDirectory'), 'svc');
  t.regex(directive(text, 'LimitNOFILE') ?? '', /^\d+$/);
  t.regex(directive(text, 'ExecReload') ?? '', /kill -HUP \$MAINPID/);
  // shutdown.drain.timeout defaults to 10 s, plus 1 s before stragglers are killed, plus queued writes.
  t.true(Number(directive(text, 'TimeoutStopSec')) >= 30, 'TimeoutStopSec leaves room beyond the drain bound');
  t.is(directive(text, 'MemoryDenyWriteExecute'), undefined, "V8's JIT needs writable+executable memory");
  t.is(directive(text, 'NoNewPrivileges'), 'yes');
  t.is(directive(text, 'ProtectSystem'), 'strict');
});

function run(command: string, args: readonly string[]): { status: number | null; output: string } {
  const result = spawnSync(command, args, { encoding: 'utf8', cwd: tmpdir() });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Paths of the files mapped into a process (its loaded native addons among them). */
function mappedPaths(pid: number): string[] {
  const maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
  return [...new Set(maps.split('\n').map((line) => line.split(/\s+/).slice(5).join(' ')).filter((path) => path.startsWith('/')))];
}

test('install.sh builds a release tree that starts and serves without the checkout; uninstall.sh removes it', async (t) => {
  t.true(existsSync(join(repoRoot, 'dist', 'main.js')), 'the checkout is built (npm test builds first)');
  const base = mkdtempSync(join(tmpdir(), 'svc-install-'));
  const prefix = join(base, 'opt', 'svc');
  try {
    const installed = run('bash', [join(repoRoot, 'deploy', 'install.sh'), '--prefix', prefix, '--no-root', '--skip-build', '--node-modules-from', join(repoRoot, 'node_modules')]);
    t.is(installed.status, 0, installed.output);
    for (const path of ['dist/main.js', 'node_modules/express', 'native/mmap/build/Release/svc_mmap.node', 'conf/server.conf', 'conf/log.conf', 'bin/svc', 'systemd/svc.service', 'systemd/svc.env', '.svc-release']) {
      t.true(existsSync(join(prefix, path)), `${path} is in the release`);
    }
    t.false(existsSync(join(prefix, 'node_modules', 'typescript')), 'development packages are left out');
    t.false(existsSync(join(prefix, 'node_modules', 'ava')));
    const rendered = readFileSync(join(prefix, 'systemd', 'svc.service'), 'utf8');
    t.regex(rendered, new RegExp(`^ExecStart=\\S+ ${prefix}/dist/main\\.js -d /var/lib/svc$`, 'm'));
    const verified = verifyUnit(rendered);
    t.is(verified.status, 0, verified.stderr);
    t.is(verified.stderr.trim(), '');

    const rootDir = join(base, 'root');
    mkdirSync(rootDir);
    const server = await startServer({ workers: 1, rootDir, entryScript: join(prefix, 'dist', 'main.js'), cwd: base });
    try {
      const health = await fetch(`${server.adminUrl}/any/path`);
      t.is(health.status, 200);
      t.regex(await health.text(), /Status: Healthy/);
      await execOk(server.baseUrl, 'create table installed (x long)');
      await execOk(server.baseUrl, 'insert into installed values (42)');
      t.deepEqual(await rows(server.baseUrl, 'select x from installed'), [[42]]);
      const paths = mappedPaths(server.process.pid as number);
      t.true(paths.includes(join(prefix, 'native', 'mmap', 'build', 'Release', 'svc_mmap.node')), 'the memory-mapping binding is loaded from the release');
      t.deepEqual(paths.filter((path) => path.startsWith(repoRoot) || path.startsWith('/work/main')), [], 'nothing is loaded from the checkout');
    } finally {
      t.is(await server.stop(), 0);
    }

    const notRelease = join(base, 'other');
    mkdirSync(notRelease);
    writeFileSync(join(notRelease, 'keep.txt'), 'x');
    const refused = run('bash', [join(repoRoot, 'deploy', 'uninstall.sh'), '--prefix', notRelease, '--no-root']);
    t.not(refused.status, 0);
    t.true(existsSync(join(notRelease, 'keep.txt')), 'a directory without the release marker is never deleted');
    const removed = run('bash', [join(repoRoot, 'deploy', 'uninstall.sh'), '--prefix', prefix, '--no-root']);
    t.is(removed.status, 0, removed.output);
    t.false(existsSync(prefix));
    t.true(existsSync(join(rootDir, 'db', 'installed')), 'data is kept without --purge');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('the Prometheus and Alertmanager examples pass promtool and amtool', (t) => {
  const promtool = requirePrometheusTool('promtool');
  const deployDir = join(repoRoot, 'deploy');
  const config = spawnSync(promtool, ['check', 'config', 'prometheus.yml'], { encoding: 'utf8', cwd: deployDir });
  t.is(config.status, 0, `${config.stdout}${config.stderr}`);
  t.regex(config.stdout, /SUCCESS: 6 rules found/, 'the scrape config loads the alerting rules');
  const amtool = spawnSync('amtool', ['check-config', 'alertmanager.yml'], { encoding: 'utf8', cwd: deployDir });
  if (amtool.error !== undefined) throw new Error(`amtool is required (Debian package prometheus-alertmanager, installed by .ci/run): ${amtool.error.message}`);
  t.is(amtool.status, 0, `${amtool.stdout}${amtool.stderr}`);
});
