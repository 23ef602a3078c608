// Static files on :9000: the root's public/ directory first (operators may drop their own console or files
// there, as with QuestDB), then the console bundled with the package (dist/console, built by `npm run build`).
// A public/index.html therefore replaces the bundled console at `/`; with an empty public/ the bundled one
// is served. Only GET and HEAD reach these handlers; paths outside the two directories are refused by
// serve-static, and dotfiles are never served.
import express from 'express';
import type { Handler } from 'express';
import { fileURLToPath } from 'node:url';

/** dist/http/static-files.js → dist/console; the directory Vite writes the console bundle into. */
export const bundledConsoleDir = fileURLToPath(new URL('../console/', import.meta.url));

/** Vite names bundle assets by content hash, so they never change under a name and may be cached for a year. */
const HASHED_ASSET = /\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;

export function staticFileHandlers(publicDir: string): Handler[] {
  const common = { dotfiles: 'ignore', fallthrough: true, index: 'index.html', redirect: false } as const;
  return [
    express.static(publicDir, common),
    express.static(bundledConsoleDir, {
      ...common,
      setHeaders(res, path) {
        res.setHeader('Cache-Control', HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    }),
  ];
}
