import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Vite build of backoffice/ (the back office's page, plain DOM): built into dist/backoffice, served
// by the upstream at /backoffice/ (docs/backoffice.md says why Vite rather than bare modules).
export default defineConfig({
  root: fileURLToPath(new URL('../backoffice', import.meta.url)),
  base: '/backoffice/',
  build: {
    outDir: fileURLToPath(new URL('../dist/backoffice', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
  },
});
