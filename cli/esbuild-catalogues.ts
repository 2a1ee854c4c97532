// The catalogues in an esbuild bundle (the cabinet's etg and host, Electron's main, the kill-trial
// target). locales/index.ts takes them from `#catalogue-files`, which Node reads from the disk
// beside the source; a bundle has no such folder beside it, so this plugin resolves that import to
// a module importing every locales/catalogues/*.json found when the bundle is built: the JSON is
// in the bundle, and a catalogue added is bundled with no code change (docs/architecture.md).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const folder = fileURLToPath(new URL('../locales/catalogues/', import.meta.url));

export const cataloguesPlugin: Plugin = {
  name: 'etg-catalogues',
  setup(build) {
    build.onResolve({ filter: /^#catalogue-files$/ }, () => ({ path: 'catalogue-files', namespace: 'etg-catalogues' }));
    build.onLoad({ filter: /.*/, namespace: 'etg-catalogues' }, () => {
      const files = readdirSync(folder)
        .filter((n) => n.endsWith('.json'))
        .sort();
      const imports = files.map((n, i) => `import c${i} from ${JSON.stringify(path.join(folder, n))};`);
      const entries = files.map((n, i) => `${JSON.stringify(n.slice(0, -'.json'.length))}: c${i}`);
      return {
        contents: `${imports.join('\n')}\nexport const catalogueFiles = { ${entries.join(', ')} };\nexport const catalogueLoaders = {};\nexport const languageSections = Object.fromEntries(Object.entries(catalogueFiles).map(([t, c]) => [t, c.language]));\n`,
        resolveDir: folder,
        loader: 'js',
        watchFiles: files.map((n) => path.join(folder, n)),
      };
    });
  },
};
