import path from 'node:path';

/**
 * Service mode's exports inside Electron. The screens are served from app://kiosk (files), while
 * the exports are answered by the table host on its loopback origin with the session's token; so
 * an export asked for on app://kiosk is fetched from the host, and what it downloads is saved in
 * a folder chosen here (removable media first, else `<data-dir>/exports/`). Pure functions: main
 * wires them (electron/main.ts), the Node tests check them (Electron cannot run on CI).
 */

/** The export paths the host serves (host/server/http-server.ts); nothing else is forwarded. */
const EXPORT_PATH = /^\/service\/export\/(meters\.(csv|json|html)|evidence\/[A-Za-z0-9._~%-]+)$/;

/**
 * `app://kiosk/service/export/meters.csv?t=…` → `http://127.0.0.1:PORT/service/export/meters.csv?t=…`;
 * null for any other URL (another host, another path, a path that climbs out with `..`).
 */
export function exportTarget(requestUrl: string, hostOrigin: string, appOrigin = 'app://kiosk'): string | null {
  let u: URL;
  let app: URL;
  let host: URL;
  try {
    u = new URL(requestUrl);
    app = new URL(appOrigin);
    host = new URL(hostOrigin);
  } catch {
    return null;
  }
  if (u.protocol !== app.protocol || u.host !== app.host) return null;
  // The URL parser has already resolved `..` and `.`; test the raw text too, so an encoded climb
  // (`%2e%2e`) is refused rather than forwarded.
  if (!EXPORT_PATH.test(u.pathname) || /%2e%2e|%2f/i.test(u.pathname)) return null;
  if (host.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(host.hostname)) return null;
  return `${host.origin}${u.pathname}${u.search}`;
}

/** The printable meters report opens in a window of its own, to print; no other page may. */
export function isPrintableExport(url: string, appOrigin = 'app://kiosk'): boolean {
  try {
    const u = new URL(url);
    const app = new URL(appOrigin);
    return u.protocol === app.protocol && u.host === app.host && u.pathname === '/service/export/meters.html';
  } catch {
    return false;
  }
}

const REMOVABLE_FS = new Set(['vfat', 'exfat', 'ntfs', 'ntfs3', 'fuseblk', 'ext2', 'ext3', 'ext4']);

/**
 * Mount points of removable media, from the text of `/proc/mounts`: what the desktop's automounter
 * puts under `/media/<user>/` or `/run/media/<user>/`, with a filesystem a USB stick would have.
 * `/proc/mounts` writes a space inside a path as `\040`.
 */
export function removableMounts(procMounts: string): string[] {
  const out: string[] = [];
  for (const line of procMounts.split('\n')) {
    const [, mount, type, options] = line.split(' ');
    if (!mount || !type) continue;
    const dir = mount.replace(/\\040/g, ' ');
    if (!/^\/(run\/)?media\/[^/]+\/[^/]+/.test(dir)) continue;
    if (!REMOVABLE_FS.has(type)) continue;
    if ((options ?? '').split(',').includes('ro')) continue;
    out.push(dir);
  }
  return out;
}

/** Where an export is saved: the first removable medium, else the data folder's `exports/`. */
export function exportFolder(dataDir: string, removable: readonly string[]): string {
  return removable[0] ?? path.join(dataDir, 'exports');
}

/**
 * A file name to save under: the host's name with anything but letters, digits, `.`, `_` and `-`
 * replaced, never a path, never overwriting (`-1`, `-2`… before the extension).
 */
export function savePath(folder: string, suggested: string, exists: (file: string) => boolean): string {
  const base =
    path
      .basename(suggested)
      .replace(/[^\w.-]/g, '_')
      .replace(/^\.+/, '') || 'export';
  const ext = path.extname(base);
  const stem = base.slice(0, base.length - ext.length);
  let file = path.join(folder, base);
  for (let n = 1; exists(file); n++) file = path.join(folder, `${stem}-${n}${ext}`);
  return file;
}
