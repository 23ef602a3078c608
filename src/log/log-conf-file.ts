// Finds the log.conf text to use: the path named by -Dout=<path> / --log-conf <path> if given (it must exist), else
// <root>/conf/log.conf, which is created from the bundled default when absent. If it cannot be created (read-only
// root) the bundled default is used as is. Also locates the bundled alert template.
// Bundled files are found relative to this module, which works from src/log (tsx) and dist/log (tsc) alike for
// conf/log.conf; the JSON template is not copied by tsc, so dist falls back to the copy in src/log.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../core/errors.js';
import { errnoCode } from './log-writer.js';

export type LogConfOrigin = 'explicit' | 'conf' | 'created' | 'bundled';

export interface LogConfSource {
  readonly path: string;
  readonly origin: LogConfOrigin;
  readonly text: string;
  /** Why the bundled default was used instead of conf/log.conf, if it was. */
  readonly note?: string;
}

const BUNDLED_LOG_CONF = fileURLToPath(new URL('../../conf/log.conf', import.meta.url));
const BUNDLED_ALERT_TEMPLATE_CANDIDATES = [
  fileURLToPath(new URL('./default-alert-template.json', import.meta.url)),
  fileURLToPath(new URL('../../src/log/default-alert-template.json', import.meta.url)),
];

export function bundledLogConfPath(): string {
  return BUNDLED_LOG_CONF;
}

export function bundledAlertTemplatePath(): string {
  const found = BUNDLED_ALERT_TEMPLATE_CANDIDATES.find((candidate) => existsSync(candidate));
  if (found === undefined) throw new ConfigError('w.alert.location', `bundled alert template missing (looked in ${BUNDLED_ALERT_TEMPLATE_CANDIDATES.join(', ')})`);
  return found;
}

export function logConfPathFor(rootDir: string): string {
  return join(rootDir, 'conf', 'log.conf');
}

export function readLogConfSource(rootDir: string, explicitPath: string | undefined): LogConfSource {
  if (explicitPath !== undefined) {
    const path = resolve(explicitPath);
    if (!existsSync(path)) throw new ConfigError('log.conf', `log configuration ${path} (given by -Dout / --log-conf) does not exist`);
    return { path, origin: 'explicit', text: readText(path) };
  }
  const path = logConfPathFor(rootDir);
  if (existsSync(path)) return { path, origin: 'conf', text: readText(path) };
  const bundledText = readText(BUNDLED_LOG_CONF);
  try {
    mkdirSync(dirname(path), { recursive: true });
    // Exclusive create: a concurrent starter or an operator's file is never overwritten.
    writeFileSync(path, bundledText, { flag: 'wx' });
    return { path, origin: 'created', text: bundledText };
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return { path, origin: 'conf', text: readText(path) };
    const reason = error instanceof Error ? error.message : String(error);
    return { path: BUNDLED_LOG_CONF, origin: 'bundled', text: bundledText, note: `could not create ${path}: ${reason}` };
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError('log.conf', `could not read log configuration ${path}: ${reason}`);
  }
}
