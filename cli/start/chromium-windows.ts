import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * Opens each screen URL as a Chromium app window (no tabs, no address bar); with `kiosk`
 * each is full screen. One profile folder in the data dir keeps the kiosk's browser state
 * apart from any user's, and the flags keep Chromium from calling home.
 */
export function openChromiumWindows(chromium: string, urls: string[], options: { profileDir: string; kiosk: boolean }): ChildProcess[] {
  return urls.map((url, i) => {
    const args = [
      `--app=${url}`,
      `--user-data-dir=${path.join(options.profileDir, `screen-${i + 1}`)}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-translate',
      '--disable-features=Translate',
      '--autoplay-policy=no-user-gesture-required',
      // Chromium refuses to start as root without this; a production kiosk runs as its own user.
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      options.kiosk ? '--kiosk' : `--window-position=${40 + i * 60},${40 + i * 60}`,
      ...(options.kiosk ? [] : ['--window-size=1280,720']),
    ];
    return spawn(chromium, args, { stdio: 'ignore' });
  });
}
