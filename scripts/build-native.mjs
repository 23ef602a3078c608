// The package's install script (npm ci / npm install run it): builds native/mmap, svc's Node-API binding, with
// node-gyp. Node-API is ABI-stable, so the headers of any Node version build a binding every line loads; the
// running Node's own headers are used when its installation ships them (official tarballs, the npm `node`
// package, Debian's /usr/include/node), so node-gyp downloads nothing. Without them, node-gyp's own
// configuration applies (npm_config_nodedir, or its header download).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';

const bindingDir = join(import.meta.dirname, '..', 'native', 'mmap');
const nodePrefix = dirname(dirname(process.execPath));
const ownHeaders = existsSync(join(nodePrefix, 'include', 'node', 'node_api.h'));

// Inside npm scripts npm_config_node_gyp names the node-gyp that npm bundles; run by hand, node-gyp on PATH.
const nodeGypScript = process.env['npm_config_node_gyp'];
const [command, prefixArgs] = nodeGypScript !== undefined && nodeGypScript !== ''
  ? [process.execPath, [nodeGypScript]]
  : ['node-gyp', []];
const args = [...prefixArgs, 'rebuild', '--directory', bindingDir, ...(ownHeaders ? [`--nodedir=${nodePrefix}`] : [])];

process.stdout.write(`build-native: node-gyp ${args.slice(prefixArgs.length).join(' ')} (Node ${process.version})\n`);
const result = spawnSync(command, args, { stdio: 'inherit' });
if (result.error !== undefined) {
  process.stderr.write(`build-native: cannot run node-gyp (${result.error.message}); it ships with npm: run npm run build:native\n`);
  process.exit(1);
}
process.exit(result.status ?? 1);
