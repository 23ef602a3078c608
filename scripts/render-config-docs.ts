// Prints or writes the documents generated from src/config/keys.ts, so they never drift from the key table.
// Usage (from the repository root):
//   npx tsx scripts/render-config-docs.ts                 print the README configuration table (Markdown)
//   npx tsx scripts/render-config-docs.ts --write-conf    rewrite conf/server.conf with every key's default
//   npx tsx scripts/render-config-docs.ts --readme README.md   replace the table between the README markers
//   npx tsx scripts/render-config-docs.ts --check         exit 1 if conf/server.conf (or --readme file) is stale
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  README_TABLE_END,
  README_TABLE_START,
  renderConfigTable,
  renderDefaultServerConf,
  spliceConfigTable,
} from '../src/config/config-docs.js';

const SHIPPED_CONF_PATH = join('conf', 'server.conf');

function main(args: readonly string[]): number {
  const check = args.includes('--check');
  const writeConf = args.includes('--write-conf');
  const readmeIndex = args.indexOf('--readme');
  const readmePath = readmeIndex >= 0 ? args[readmeIndex + 1] : undefined;
  if (readmeIndex >= 0 && readmePath === undefined) return fail('--readme needs a file path');

  if (!check && !writeConf && readmePath === undefined) {
    process.stdout.write(renderConfigTable());
    return 0;
  }
  let stale = false;
  if (check || writeConf) stale = syncFile(SHIPPED_CONF_PATH, renderDefaultServerConf(), check) || stale;
  if (readmePath !== undefined) {
    const readme = existsSync(readmePath) ? readFileSync(readmePath, 'utf8') : '';
    const updated = spliceConfigTable(readme);
    if (updated === null) return fail(`${readmePath} lacks the markers; add these two lines where the table goes:\n${README_TABLE_START}\n${README_TABLE_END}`);
    stale = syncFile(readmePath, updated, check) || stale;
  }
  return check && stale ? 1 : 0;
}

/** Writes `content` to `path` (or, in check mode, only reports); returns whether the file differed. */
function syncFile(path: string, content: string, checkOnly: boolean): boolean {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
  if (current === content) return false;
  if (checkOnly) {
    process.stderr.write(`${path} is out of date; run npx tsx scripts/render-config-docs.ts --write-conf / --readme\n`);
  } else {
    writeFileSync(path, content);
    process.stdout.write(`wrote ${path}\n`);
  }
  return true;
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
