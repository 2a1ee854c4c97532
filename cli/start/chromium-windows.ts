import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A screen's URL carries its launch token; a process's command line is readable by every user of
 * the machine (`ps`, /proc). So Chromium is given a page in the profile folder, readable by the
 * kiosk's user alone (0600 in a 0700 folder), that sends the window on to the screen's URL: the
 * token never appears on any command line.
 */
export function launchPage(dir: string, name: string, url: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${name}.html`);
  // JSON.stringify quotes the URL as a script string; `<` is escaped so it cannot end the script.
  const target = JSON.stringify(url).replace(/</g, '\\u003c');
  writeFileSync(file, `<!doctype html><meta charset="utf-8"><script>location.replace(${target})</script>\n`, { mode: 0o600 });
  return pathToFileURL(file).href;
}

/**
 * Opens each screen URL as a Chromium app window (no tabs, no address bar); with `kiosk`
 * each is full screen. One profile folder in the data dir keeps the kiosk's browser state
 * apart from any user's, and the flags keep Chromium from calling home.
 */
export function openChromiumWindows(chromium: string, urls: string[], options: { profileDir: string; kiosk: boolean }): ChildProcess[] {
  return urls.map((url, i) => {
    const args = [
      `--app=${launchPage(path.join(options.profileDir, 'launch'), `screen-${i + 1}`, url)}`,
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
