// Bundles the console into dist/console, which the server serves at `/` when the root's public/ has no
// index.html (src/http/static-files.ts). Relative asset URLs keep the bundle working under any mount path.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // CodeMirror and uPlot together are ~600 kB unminified; one chunk is simpler to serve and cache.
    chunkSizeWarningLimit: 1024,
  },
});
