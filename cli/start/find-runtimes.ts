import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The Electron binary if it is installed, found the way the `electron` package finds it but
 * without requiring that package: from Node its index.js downloads the binary when missing,
 * which these machines cannot do.
 */
export function findElectron(root: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const pkg = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  const candidate = env.ELECTRON_OVERRIDE_DIST_PATH ? path.join(env.ELECTRON_OVERRIDE_DIST_PATH, relative) : path.join(pkg, 'dist', relative);
  return existsSync(candidate) ? candidate : null;
}

const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** The system Chromium: `$CHROMIUM_PATH`, else the first of the usual names on `$PATH`. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of CHROMIUM_NAMES) {
      const candidate = path.join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

export function hasDisplay(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}
