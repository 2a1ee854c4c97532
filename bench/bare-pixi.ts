import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
let bundled: Promise<string> | null = null;

/**
 * pixi.js bundled for a bare page (the baselines of the screens benches), as one script that sets
 * `globalThis.PIXI`: the same library the screens use, with nothing of the kiosk's. Built once a process.
 */
export function barePixiScript(): Promise<string> {
  bundled ??= build({
    stdin: { contents: "import * as PIXI from 'pixi.js'; globalThis.PIXI = PIXI;", resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'iife',
    minify: true,
    write: false,
    logLevel: 'error',
  }).then((r) => r.outputFiles[0]!.text);
  return bundled;
}
