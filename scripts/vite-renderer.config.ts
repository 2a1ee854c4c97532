import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('../renderer', import.meta.url));

// Vite build of renderer/ (kept here because a build config runs in Node, which renderer/ may not use).
// The screens are one page; the host serves it for /table, /station/N and /service and the
// page reads its view from the path. Built into dist/renderer, served by the host as static files.
export default defineConfig({
  root: here,
  base: '/',
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
    // RENDERER_SOURCEMAP=1: source maps beside the scripts, for bench/heap-attribution.ts.
    sourcemap: process.env.RENDERER_SOURCEMAP === '1',
  },
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
});
