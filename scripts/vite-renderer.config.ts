import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig, parseAst, type Plugin } from 'vite';
import { flushableChunks } from './vite-flushable-chunks.js';

const here = fileURLToPath(new URL('../renderer', import.meta.url));

/**
 * `<catalogue>.json?language`: that catalogue's `language` section alone (its own name, its Intl
 * locale, what a screen that failed to start says), so the page can label every language's button,
 * and say a failed start in every language, while holding only the catalogues shown
 * (locales/catalogue-files.screens.ts). Vite's JSON plugin takes no query.
 */
const languageSection: Plugin = {
  name: 'etg-language-section',
  enforce: 'pre',
  load(id) {
    const m = /^(.+\.json)\?language$/.exec(id);
    if (!m?.[1]) return null;
    const catalogue = JSON.parse(readFileSync(m[1], 'utf8')) as { language?: unknown };
    return `export default ${JSON.stringify(catalogue.language ?? null)};\n`;
  },
};

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
  // Each chunk's top level run in a function called once, which V8 may drop (vite-flushable-chunks.ts).
  plugins: [languageSection, flushableChunks(parseAst)],
  // `screens`: the catalogues a page holds only when it shows them (locales/package.json `imports`);
  // the back office's page, without it, holds every catalogue from the start.
  resolve: { conditions: ['screens', ...defaultClientConditions] },
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
});
