// The kiosk's Electron main process against a fake Electron (electron/testing/fake-electron.ts):
// every handler it installs is driven the way Electron would drive it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createLogger } from '../host/logger.js';
import type { DisplayLike } from './electron-api.js';
import { startKiosk, type RunningKiosk } from './kiosk-main.js';
import { FakeBrowserWindow, FakeEvent, resetFake } from './testing/fake-electron.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const display = (id: number, x = (id - 1) * 1920): DisplayLike => ({ id, bounds: { x, y: 0, width: 1920, height: 1080 } });
const SETTLE = 900; // the display watcher waits 750 ms for hot-plug events to settle

async function boot(o: { argv?: string[]; displays?: DisplayLike[]; hostReady?: boolean } = {}) {
  const { electron, fake } = resetFake();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kiosk-main-'));
  dirs.push(dir);
  for (const d of o.displays ?? [display(1), display(2)]) fake.screen.displays.push(d);
  const log = createLogger(path.join(dir, 'logs'), { app: 'kiosk-main', console: null });
  const kiosk = startKiosk(electron, {
    argv: [`--data-dir=${dir}`, '--screens=table,station/1', '--game=baccarat', ...(o.argv ?? [])],
    here: path.join(dir, 'dist/electron'),
    log,
    readMounts: () => '',
    relaunchArgv: ['/app', '--screens=table,station/1'],
  });
  assert.ok(kiosk);
  fake.app.ready();
  await new Promise((r) => setImmediate(r));
  const host = fake.forks[0];
  assert.ok(host, 'the table host is forked once Electron is ready');
  if (o.hostReady !== false) {
    host.emit('message', {
      type: 'host-ready',
      origin: 'http://127.0.0.1:40000',
      tokens: [
        ['table', 'tok-table'],
        ['station/1', 'tok-s1'],
        ['service', 'tok-service'],
      ],
    });
    await kiosk.ready;
  }
  const logText = () => {
    log.flush();
    return readFileSync(path.join(dir, 'logs', 'host.log'), 'utf8');
  };
  return { kiosk, fake, host, dir, logText, win: (view: string) => windowOf(kiosk, view) };
}

function windowOf(kiosk: RunningKiosk, view: string): FakeBrowserWindow {
  const w = kiosk.windows().get(view as never);
  assert.ok(w instanceof FakeBrowserWindow, `a window for ${view}`);
  return w;
}

describe('kiosk main process: start', () => {
  it("sandboxes, prefers X11, sets the pages' V8 flags, registers app://, forks the host with the host options, opens a window per display", async () => {
    const { kiosk, fake, host, win } = await boot();
    assert.equal(fake.app.sandboxed, true);
    assert.deepEqual(fake.app.switches, [
      ['ozone-platform', 'x11'],
      ['js-flags', '--no-sparkplug --no-maglev'],
    ]);
    assert.equal(fake.protocol.privileged[0]?.scheme, 'app');
    assert.ok(host.args.includes('--game=baccarat') && !host.args.some((a) => a.startsWith('--screens')));
    assert.deepEqual([...kiosk.windows().keys()].sort(), ['station/1', 'table']);
    assert.deepEqual(win('station/1').bounds, display(2).bounds);
    assert.equal(win('table').url, 'app://kiosk/table');
    assert.equal(win('table').options.kiosk, true);
    assert.deepEqual(fake.menu.at(-1), null);
  });

  it('keeps the display awake, and starts the blocker again if it was lost', async () => {
    const { fake } = await boot();
    const started = [...fake.powerSaveBlocker.started.entries()];
    assert.deepEqual(
      started.map(([, t]) => t),
      ['prevent-display-sleep'],
    );
    fake.powerSaveBlocker.stop(started[0]?.[0] ?? 0);
    fake.screen.plug(display(3));
    await new Promise((r) => setTimeout(r, SETTLE));
    assert.deepEqual([...fake.powerSaveBlocker.started.values()], ['prevent-display-sleep']);
  });

  it('quits at once when another kiosk holds the single-instance lock', () => {
    const { electron, fake } = resetFake();
    fake.app.singleInstance = false;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kiosk-main-'));
    dirs.push(dir);
    const log = createLogger(path.join(dir, 'logs'), { console: null });
    assert.equal(startKiosk(electron, { argv: [`--data-dir=${dir}`], here: dir, log }), null);
    assert.equal(fake.app.quitCalls, 1);
    assert.equal(fake.forks.length, 0);
  });
});

describe('kiosk main process: guards on every web contents and the session', () => {
  it('refuses navigation and redirects off app://kiosk, webviews, and windows but the printable report', async () => {
    const { win } = await boot();
    const c = win('table').webContents;
    assert.equal(c.navigate('https://evil.example/'), true);
    assert.equal(c.navigate('file:///etc/passwd', 'will-redirect'), true);
    assert.equal(c.navigate('app://kiosk/station/1'), false);
    const webview = new FakeEvent();
    c.emit('will-attach-webview', webview);
    assert.equal(webview.defaultPrevented, true);
    assert.deepEqual(c.windowOpenHandler?.({ url: 'https://evil.example/' }), { action: 'deny' });
    const report = c.windowOpenHandler?.({ url: 'app://kiosk/service/export/meters.html?t=x' });
    assert.equal(report?.action, 'allow');
    assert.deepEqual((report?.overrideBrowserWindowOptions as { webPreferences: { javascript: boolean } }).webPreferences.javascript, false);
  });

  it('guards web contents the kiosk did not create too (web-contents-created)', async () => {
    const { fake } = await boot();
    const { FakeWebContents } = await import('./testing/fake-electron.js');
    const stray = new FakeWebContents();
    fake.app.emit('web-contents-created', new FakeEvent(), stray);
    assert.equal(stray.navigate('https://evil.example/'), true);
    assert.deepEqual(stray.windowOpenHandler?.({ url: 'https://x/' }), { action: 'deny' });
  });

  it('refuses every permission request; a check says yes only to device access asked by our own pages', async () => {
    const { fake } = await boot();
    const s = fake.session.defaultSession;
    for (const p of ['media', 'geolocation', 'notifications', 'fullscreen', 'usb', 'clipboard-read']) assert.equal(s.request(p), false, p);
    assert.equal(s.checkHandler?.(null, 'usb', 'app://kiosk'), true);
    assert.equal(s.checkHandler?.(null, 'serial', 'app://kiosk/'), true);
    assert.equal(s.checkHandler?.(null, 'usb', 'https://evil.example'), false);
    assert.equal(s.checkHandler?.(null, 'geolocation', 'app://kiosk'), false);
  });

  it('grants and chooses only our own devices (the bill acceptors and shoe bridges), for our own pages', async () => {
    const { fake } = await boot();
    const s = fake.session.defaultSession;
    const ftdi = { vendorId: 0x0403, productId: 0x6001, deviceId: 'ftdi-1' };
    const itl = { vendorId: 0x191c, productId: 0x4104, deviceId: 'itl-1' };
    const keyboard = { vendorId: 0x046d, productId: 0xc31c, deviceId: 'kbd' };
    assert.equal(s.deviceHandler?.({ deviceType: 'usb', origin: 'app://kiosk', device: ftdi }), true);
    assert.equal(s.deviceHandler?.({ deviceType: 'hid', origin: 'app://kiosk', device: keyboard }), false);
    assert.equal(s.deviceHandler?.({ deviceType: 'usb', origin: 'https://evil.example', device: ftdi }), false);
    assert.deepEqual(s.selectDevice('usb', [keyboard, itl]), { prevented: true, chosen: 'itl-1' });
    assert.deepEqual(s.selectDevice('hid', [keyboard]), { prevented: true, chosen: null });
    // Serial ports give their USB ids as decimal strings: 1027:24577 is FTDI 0403:6001.
    assert.deepEqual(
      s.selectSerialPort([
        { portId: 'p0', vendorId: '1133' },
        { portId: 'p1', vendorId: '1027', productId: '24577' },
      ]),
      { prevented: true, chosen: 'p1' },
    );
    assert.deepEqual(s.selectSerialPort([{ portId: 'p0' }]), { prevented: true, chosen: '' });
  });

  it('answers the bridge only to our own top-level frames, with their own launch token', async () => {
    const { fake, win } = await boot();
    const launch = fake.ipcMain.handlers.get('kiosk:launch');
    const table = win('table').webContents;
    assert.deepEqual(launch?.({ sender: table, senderFrame: { url: 'app://kiosk/table', parent: null } }), { view: 'table', token: 'tok-table' });
    assert.throws(() => launch?.({ sender: table, senderFrame: { url: 'https://evil.example/', parent: null } }));
    assert.throws(() => launch?.({ sender: table, senderFrame: { url: 'app://kiosk/table', parent: {} } }), 'not a sub-frame');
    assert.throws(() => launch?.({ sender: { id: 9999, postMessage: () => undefined }, senderFrame: { url: 'app://kiosk/table', parent: null } }));
  });

  it('blocks reload, devtools and close keys; the service key opens and closes service mode; screens do not close', async () => {
    const { kiosk, win } = await boot();
    const table = win('table');
    assert.equal(table.webContents.key({ key: 'r', control: true }), true);
    assert.equal(table.webContents.key({ key: 'a' }), false);
    assert.equal(table.webContents.key({ key: 'S', control: true, alt: true, shift: true }), true);
    const service = win('service');
    assert.equal(service.url, 'app://kiosk/service');
    table.webContents.key({ key: 'S', control: true, alt: true, shift: true });
    assert.equal(service.destroyed, true);
    assert.equal(kiosk.windows().has('service'), false);
    table.close();
    assert.equal(table.destroyed, false, 'a table window refuses to close in kiosk mode');
    assert.equal(table.closeRefused, 1);
  });
});

describe('kiosk main process: recovery', () => {
  it('reloads a screen whose renderer died, ignores a clean exit, crashes a hung renderer to reload it', async () => {
    const { fake, win, logText } = await boot();
    const c = win('station/1').webContents;
    c.gone('crashed');
    c.gone('clean-exit', 0);
    assert.equal(c.reloads, 1);
    c.emit('unresponsive');
    assert.equal(c.crashedByKiosk, 1);
    assert.equal(fake.app.relaunched.length, 0);
    assert.match(logText(), /"app":"kiosk-main".*"view":"station\/1".*"msg":"screen renderer gone"/);
  });

  it('relaunches when a screen keeps crashing, counting the relaunch on the command line', async () => {
    const { fake, win } = await boot();
    const c = win('table').webContents;
    for (let i = 0; i < 4; i++) c.gone('oom');
    assert.equal(c.reloads, 3);
    assert.deepEqual(fake.app.relaunched, [{ args: ['/app', '--screens=table,station/1', '--relaunches=1'] }]);
    assert.deepEqual(fake.app.exitCodes, [1]);
  });

  it('relaunches when the GPU process keeps crashing; other child processes are only logged', async () => {
    const { fake, logText } = await boot();
    fake.app.childGone({ type: 'Utility', reason: 'crashed', exitCode: 9, serviceName: 'network.mojom.NetworkService' });
    fake.app.childGone({ type: 'GPU', reason: 'clean-exit', exitCode: 0 });
    for (let i = 0; i < 3; i++) fake.app.childGone({ type: 'GPU', reason: 'crashed', exitCode: 139 });
    assert.equal(fake.app.relaunched.length, 0, 'three GPU crashes: Chromium restarts it');
    fake.app.childGone({ type: 'GPU', reason: 'crashed', exitCode: 139 });
    assert.equal(fake.app.relaunched.length, 1);
    assert.match(logText(), /"type":"Utility".*"msg":"child process gone"/);
    assert.match(logText(), /"why":"the GPU process keeps crashing".*"msg":"relaunching the kiosk"/);
  });

  it('relaunches when the table host exits after the start', async () => {
    const { fake, host } = await boot();
    host.emit('exit', 3);
    assert.deepEqual(fake.app.relaunched[0]?.args?.at(-1), '--relaunches=1');
  });

  it('after three relaunches in a row shows the out-of-service page on every screen instead of exiting', async () => {
    const { kiosk, fake, host, win, logText } = await boot({ argv: ['--relaunches=3'] });
    host.emit('exit', 1);
    assert.equal(fake.app.relaunched.length, 0);
    assert.deepEqual(fake.app.exitCodes, []);
    assert.equal(kiosk.outOfService(), true);
    assert.equal(win('table').url, 'app://kiosk/out-of-service');
    assert.equal(win('station/1').url, 'app://kiosk/out-of-service');
    const page = await fake.protocol.fetch('app://kiosk/out-of-service');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const html = await page.text();
    for (const words of ['暫停服務', 'Fora de serviço', 'Out of service']) assert.ok(html.includes(words), words);
    assert.doesNotMatch(html, /<script/i);
    assert.match(logText(), /"level":60.*"app":"kiosk-main".*"relaunches":3.*out of service/);
    // The service key does nothing now; a display plugged in shows the page too.
    win('table').webContents.key({ key: 'S', control: true, alt: true, shift: true });
    assert.equal(kiosk.windows().has('service'), false);
    fake.screen.plug(display(3));
    await new Promise((r) => setTimeout(r, SETTLE));
    assert.equal(win('out-of-service/3').url, 'app://kiosk/out-of-service');
  });

  it('a start that keeps failing (the host dies before it is ready) ends on the out-of-service page on every display', async () => {
    const { kiosk, host, fake } = await boot({ argv: ['--relaunches=3'], hostReady: false });
    host.emit('exit', 1);
    await kiosk.ready;
    assert.equal(fake.app.exitCodes.length, 0);
    assert.deepEqual(
      [...kiosk.windows().entries()].map(([v, w]) => [v, (w as FakeBrowserWindow).url]),
      [
        ['out-of-service/1', 'app://kiosk/out-of-service'],
        ['out-of-service/2', 'app://kiosk/out-of-service'],
      ],
    );
  });
});

describe('kiosk main process: displays hot-plugged', () => {
  it('closes the window of a display unplugged (never moves it onto another screen) and opens it again on replug', async () => {
    const { kiosk, fake, win, logText } = await boot();
    const station = win('station/1');
    fake.screen.unplug(2);
    await new Promise((r) => setTimeout(r, SETTLE));
    assert.equal(station.destroyed, true);
    assert.deepEqual([...kiosk.windows().keys()], ['table']);
    fake.screen.plug(display(2));
    await new Promise((r) => setTimeout(r, SETTLE));
    assert.deepEqual(win('station/1').bounds, display(2).bounds);
    assert.equal(win('station/1').url, 'app://kiosk/station/1');
    assert.match(logText(), /"why":"display-added".*"opened":\["station\/1"\].*screen map applied/);
  });

  it('moves windows with their display when it changes, once the events settle', async () => {
    const { fake, win } = await boot({ argv: ['--screen-map=2:table'] });
    assert.deepEqual(win('table').bounds, display(2).bounds, 'pinned by the screen map');
    const moved = { id: 2, bounds: { x: 3840, y: 0, width: 1280, height: 1024 } };
    fake.screen.displays = [display(1), moved];
    fake.screen.emit('display-metrics-changed', new FakeEvent(), moved, ['bounds']);
    fake.screen.emit('display-metrics-changed', new FakeEvent(), moved, ['workArea']);
    await new Promise((r) => setTimeout(r, SETTLE));
    assert.deepEqual(win('table').bounds, moved.bounds);
  });
});
