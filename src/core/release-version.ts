// The release version: package.json's `version`, read once. Shown in the start-up log and in GET /settings
// (`release.version`), which QuestDB's clients and web console read.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function releaseVersion(): string {
  cached ??= readPackageVersion();
  return cached;
}

function readPackageVersion(): string {
  try {
    // src/core/ under tsx and dist/core/ after the build are both two folders below package.json.
    const packagePath = fileURLToPath(new URL('../../package.json', import.meta.url));
    const parsed: unknown = JSON.parse(readFileSync(packagePath, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && typeof (parsed as Record<string, unknown>)['version'] === 'string' ? String((parsed as Record<string, unknown>)['version']) : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
