import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { HostReady, type ViewName } from '../protocol/index.js';
import type { IpcEventLike } from './electron-api.js';
import { exportFolder, exportTarget, removableMounts, savePath } from './exports.js';
import { IPC } from './ipc-channels.js';
import type { Kiosk } from './kiosk-state.js';
import { relaunch } from './kiosk-windows.js';
import { OUT_OF_SERVICE_CSP, OUT_OF_SERVICE_PATH, outOfServicePage } from './out-of-service.js';
import { APP_HOST, APP_ORIGIN, APP_SCHEME, isAppUrl, SCREEN_CSP, screenFileFor } from './security.js';

// The kiosk's main process and what it serves (electron/kiosk-main.ts): the table host as a
// utility process, the screens' files on app://kiosk, the bridge a screen asks its token and its
// port over, and the service exports saved without a dialog.

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** The kiosk's own options stay here; the host is given the rest (and the data folder). */
function hostArgs(k: Kiosk): string[] {
  const own = new Set(['screens', 'screen-map', 'dev', 'data-dir', 'relaunches']);
  const out = k.o.argv.filter((a) => a.startsWith('--') && !own.has(a.slice(2).split('=')[0] ?? ''));
  if (k.dataDirArg !== undefined) out.push(`--data-dir=${k.dataDirArg}`);
  return out;
}

/** The table host forked; settles when it says it is ready (its origin and the views' tokens). */
export function startHost(k: Kiosk): Promise<void> {
  return new Promise((resolve, reject) => {
    // Host options given to `npm start` (game, seed, upstream, terminal id, timers…) pass through.
    const child = k.e.utilityProcess.fork(path.join(k.o.here, 'host.mjs'), [`--renderer-dir=${k.rendererDir}`, ...hostArgs(k)], {
      serviceName: 'table-host',
      stdio: 'inherit',
    });
    k.host = child;
    let started = false;
    child.once('message', (m: unknown) => {
      const ready = HostReady.safeParse(m);
      if (!ready.success) return reject(new Error(`unexpected first message from the host: ${JSON.stringify(m)}`));
      k.tokens = new Map(ready.data.tokens);
      k.hostOrigin = ready.data.origin;
      started = true;
      resolve();
    });
    // The host owns the ledger: if it dies, the screens have nothing true to show.
    child.once('exit', (code) => {
      if (k.host !== child) return;
      k.host = null;
      k.log.error({ code }, 'table host exited');
      // Before it was ready, the start fails (and relaunches, below); after, the kiosk relaunches.
      if (started) relaunch(k, `table host exited (${code})`);
      else reject(new Error(`table host exited (${code}) before it was ready`));
    });
  });
}

/** The screens' files, the out-of-service page and the host's exports, on app://kiosk only. */
export function serveScreens(k: Kiosk): void {
  const { rendererDir } = k;
  k.e.protocol.handle(APP_SCHEME, async (request) => {
    try {
      const url = new URL(request.url);
      if (url.host !== APP_HOST) return new Response('not found', { status: 404 });
      if (url.pathname === OUT_OF_SERVICE_PATH) {
        return new Response(outOfServicePage(), { headers: { 'content-type': MIME['.html'] ?? 'text/html', 'content-security-policy': OUT_OF_SERVICE_CSP } });
      }
      // Service mode's exports are the host's (they need the session's token): fetched from it.
      const target = k.hostOrigin ? exportTarget(request.url, k.hostOrigin, APP_ORIGIN) : null;
      if (target) return await fetch(target, { redirect: 'error' });
      const file = path.resolve(rendererDir, screenFileFor(url.pathname));
      if (!file.startsWith(rendererDir + path.sep)) return new Response('forbidden', { status: 403 });
      const body = await readFile(file);
      return new Response(body, {
        headers: { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream', 'content-security-policy': SCREEN_CSP },
      });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });
}

/** Only our own top-level frames on app://kiosk may use the bridge (VS Code's validated IPC). */
function senderView(k: Kiosk, event: IpcEventLike): ViewName | null {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null || !isAppUrl(frame.url)) return null;
  return k.byContents.get(event.sender.id) ?? null;
}

/** The bridge: a screen's view and token, and a port of its own to the host. */
export function wireIpc(k: Kiosk): void {
  const { e } = k;
  e.ipcMain.handle(IPC.launch, (event) => {
    const view = senderView(k, event);
    const token = view ? k.tokens.get(view) : undefined;
    if (!view || !token) throw new Error('not a kiosk screen');
    return { view, token };
  });
  e.ipcMain.on(IPC.requestPort, (event) => {
    if (!senderView(k, event) || !k.host) return;
    const { port1, port2 } = new e.MessageChannelMain();
    k.host.postMessage({ type: 'screen-port' }, [port1]);
    event.sender.postMessage(IPC.port, null, [port2]);
  });
}

/** Exports are saved without a dialog: the first removable medium, else `<data-dir>/exports/`. */
export function saveDownloads(k: Kiosk): void {
  k.e.session.defaultSession.on('will-download', (_e, item) => {
    let mounts = '';
    try {
      mounts = (k.o.readMounts ?? (() => readFileSync('/proc/mounts', 'utf8')))();
    } catch {
      // Not Linux, or no /proc: the data folder it is.
    }
    const folder = exportFolder(k.dataDir, removableMounts(mounts));
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const file = savePath(folder, item.getFilename(), existsSync);
    item.setSavePath(file);
    item.once('done', (_d, state) => k.log.info({ state, file }, 'service export'));
  });
}
