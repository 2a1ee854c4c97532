import { screenCsp } from '../host/server/security-headers.js';

/** The custom scheme the screens are served from; never file://, never a remote origin. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'kiosk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Header CSP for every screen response (a meta tag cannot carry frame-ancestors). */
export const SCREEN_CSP = screenCsp();

/** Only the kiosk's own pages may be shown: parse the URL, never compare string prefixes. */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * The service key combination (Ctrl+Alt+Shift+S) opens or closes the service-mode window on the
 * display where it was pressed (issue 9). A cabinet's key switch, wired to an I/O board, would send
 * the same request; nothing of service mode is shown before a PIN sign-in either way.
 */
export function isServiceKey(input: { key: string; control: boolean; meta: boolean; alt: boolean; shift: boolean; type?: string }): boolean {
  if (input.type !== undefined && input.type !== 'keyDown') return false;
  return input.control && input.alt && input.shift && input.key.toLowerCase() === 's';
}

/** Keys that would reload, open devtools, zoom, close or full-screen-toggle a kiosk window. */
export function isBlockedKey(input: { key: string; control: boolean; meta: boolean; alt: boolean; shift: boolean }): boolean {
  const mod = input.control || input.meta;
  const key = input.key.toLowerCase();
  if (['f5', 'f11', 'f12'].includes(key)) return true;
  if (input.alt && key === 'f4') return true;
  if (mod && ['r', 'w', 'q', 'n', 't', 'p', 's', 'o', '+', '-', '=', '0'].includes(key)) return true;
  if (mod && input.shift && ['i', 'j', 'c'].includes(key)) return true;
  return false;
}

/** Maps an app:// request path to a file under the renderer folder; null for anything outside it. */
export function screenFileFor(pathname: string): string {
  const clean = decodeURIComponent(pathname).replace(/^\/+/, '');
  if (clean === '' || clean === 'table' || clean === 'service' || /^station\/\d+$/.test(clean)) return 'index.html';
  return clean;
}
