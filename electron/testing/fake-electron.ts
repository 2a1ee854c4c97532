// A fake of the Electron API the kiosk's main process uses (electron/electron-api.ts), built on
// EventEmitter: tests emit what Electron would (a display plugged in, a renderer gone, a
// permission asked) and read what the kiosk did. No Electron binary runs on the build machines.
import { EventEmitter } from 'node:events';
import type {
  BrowserWindowLike,
  DeviceKind,
  DeviceLike,
  DisplayLike,
  IpcEventLike,
  KeyInput,
  KioskElectron,
  ProcessGoneDetails,
  Rect,
  UtilityProcessLike,
} from '../electron-api.js';

export class FakeEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  url = '';
  reloads = 0;
  crashedByKiosk = 0;
  printed = 0;
  windowOpenHandler: ((d: { url: string }) => { action: string; overrideBrowserWindowOptions?: object }) | null = null;
  posted: { channel: string; message: unknown; transfer?: unknown[] }[] = [];
  setWindowOpenHandler(h: (d: { url: string }) => { action: 'deny' } | { action: 'allow'; overrideBrowserWindowOptions?: object }): void {
    this.windowOpenHandler = h;
  }
  reload(): void {
    this.reloads++;
  }
  forcefullyCrashRenderer(): void {
    this.crashedByKiosk++;
  }
  getURL(): string {
    return this.url;
  }
  async loadURL(url: string): Promise<void> {
    this.url = url;
  }
  print(_o: object, cb: (ok: boolean, why: string) => void): void {
    this.printed++;
    cb(true, '');
  }
  postMessage(channel: string, message: unknown, transfer?: unknown[]): void {
    this.posted.push({ channel, message, ...(transfer ? { transfer } : {}) });
  }
  /** Emits `render-process-gone` as Chromium would. */
  gone(reason: string, exitCode = 1): void {
    this.emit('render-process-gone', new FakeEvent(), { reason, exitCode });
  }
  /** A key pressed in this window; true if the kiosk swallowed it. */
  key(input: Partial<KeyInput> & { key: string }): boolean {
    const e = new FakeEvent();
    this.emit('before-input-event', e, { control: false, meta: false, alt: false, shift: false, type: 'keyDown', ...input });
    return e.defaultPrevented;
  }
  /** A navigation; true if the kiosk refused it. */
  navigate(url: string, event: 'will-navigate' | 'will-redirect' = 'will-navigate'): boolean {
    const e = new FakeEvent();
    this.emit(event, e, url);
    return e.defaultPrevented;
  }
}

export class FakeBrowserWindow extends EventEmitter implements BrowserWindowLike {
  static all: FakeBrowserWindow[] = [];
  readonly webContents: FakeWebContents & BrowserWindowLike['webContents'];
  bounds: Rect;
  destroyed = false;
  closeRefused = 0;
  readonly options: Record<string, unknown>;
  constructor(options: object) {
    super();
    this.options = { ...options };
    this.webContents = new FakeWebContents() as FakeWebContents & BrowserWindowLike['webContents'];
    const n = (k: string, d: number) => (typeof this.options[k] === 'number' ? (this.options[k] as number) : d);
    this.bounds = { x: n('x', 0), y: n('y', 0), width: n('width', 800), height: n('height', 600) };
    FakeBrowserWindow.all.push(this);
    fake.app.emit('web-contents-created', new FakeEvent(), this.webContents);
  }
  setBounds(b: Rect): void {
    this.bounds = b;
  }
  getBounds(): Rect {
    return this.bounds;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  close(): void {
    const e = new FakeEvent();
    this.emit('close', e);
    if (e.defaultPrevented) {
      this.closeRefused++;
      return;
    }
    this.destroy();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('closed');
  }
  focus(): void {}
  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }
  get url(): string {
    return this.webContents.url;
  }
}

export class FakeUtilityProcess extends EventEmitter implements UtilityProcessLike {
  killed = false;
  messages: unknown[] = [];
  constructor(
    readonly modulePath: string,
    readonly args: string[],
  ) {
    super();
  }
  postMessage(message: unknown): void {
    this.messages.push(message);
  }
  kill(): boolean {
    this.killed = true;
    return true;
  }
}

class FakeApp extends EventEmitter {
  isPackaged = false;
  switches: [string, string | undefined][] = [];
  commandLine = { appendSwitch: (name: string, value?: string) => void this.switches.push([name, value]) };
  sandboxed = false;
  singleInstance = true;
  relaunched: { args?: string[] }[] = [];
  exitCodes: number[] = [];
  quitCalls = 0;
  private readyResolve: () => void = () => undefined;
  private readonly readyPromise = new Promise<void>((r) => (this.readyResolve = r));
  enableSandbox(): void {
    this.sandboxed = true;
  }
  requestSingleInstanceLock(): boolean {
    return this.singleInstance;
  }
  whenReady(): Promise<void> {
    return this.readyPromise;
  }
  /** Electron's `ready`. */
  ready(): void {
    this.readyResolve();
  }
  quit(): void {
    this.quitCalls++;
  }
  exit(code = 0): void {
    this.exitCodes.push(code);
  }
  relaunch(options?: { args?: string[] }): void {
    this.relaunched.push(options ?? {});
  }
  /** A Chromium child process gone (GPU, network, utility…). */
  childGone(details: ProcessGoneDetails): void {
    this.emit('child-process-gone', new FakeEvent(), details);
  }
}

class FakeScreen extends EventEmitter {
  displays: DisplayLike[] = [];
  getAllDisplays(): DisplayLike[] {
    return [...this.displays];
  }
  getDisplayMatching(rect: Rect): DisplayLike {
    const d = this.displays.find((x) => x.bounds.x <= rect.x && rect.x < x.bounds.x + x.bounds.width) ?? this.displays[0];
    if (!d) throw new Error('no display');
    return d;
  }
  plug(d: DisplayLike): void {
    this.displays.push(d);
    this.emit('display-added', new FakeEvent(), d);
  }
  unplug(id: number): void {
    const d = this.displays.find((x) => x.id === id);
    this.displays = this.displays.filter((x) => x.id !== id);
    if (d) this.emit('display-removed', new FakeEvent(), d);
  }
}

type PermissionRequest = (wc: unknown, permission: string, callback: (granted: boolean) => void) => void;
type PermissionCheck = (wc: unknown, permission: string, origin: string) => boolean;
type DevicePermission = (details: { deviceType: DeviceKind; origin: string; device: DeviceLike }) => boolean;

class FakeSession extends EventEmitter {
  requestHandler: PermissionRequest | null = null;
  checkHandler: PermissionCheck | null = null;
  deviceHandler: DevicePermission | null = null;
  setPermissionRequestHandler(h: PermissionRequest | null): void {
    this.requestHandler = h;
  }
  setPermissionCheckHandler(h: PermissionCheck | null): void {
    this.checkHandler = h;
  }
  setDevicePermissionHandler(h: DevicePermission | null): void {
    this.deviceHandler = h;
  }
  /** A page asks for a permission: what the kiosk answers. */
  request(permission: string): boolean {
    let granted: boolean | null = null;
    this.requestHandler?.(null, permission, (g) => (granted = g));
    if (granted === null) throw new Error('the permission request was never answered');
    return granted;
  }
  /** Electron's `select-usb-device` / `select-hid-device`: the device id chosen, or null. */
  selectDevice(kind: 'usb' | 'hid', deviceList: DeviceLike[]): { prevented: boolean; chosen: string | null | undefined } {
    const e = new FakeEvent();
    let chosen: string | null | undefined;
    this.emit(`select-${kind}-device`, e, { deviceList }, (id?: string | null) => (chosen = id));
    return { prevented: e.defaultPrevented, chosen };
  }
  selectSerialPort(portList: DeviceLike[]): { prevented: boolean; chosen: string | undefined } {
    const e = new FakeEvent();
    let chosen: string | undefined;
    this.emit('select-serial-port', e, portList, null, (id: string) => (chosen = id));
    return { prevented: e.defaultPrevented, chosen };
  }
}

class FakePowerSaveBlocker {
  private next = 1;
  readonly started = new Map<number, string>();
  start(type: 'prevent-app-suspension' | 'prevent-display-sleep'): number {
    const id = this.next++;
    this.started.set(id, type);
    return id;
  }
  stop(id: number): void {
    this.started.delete(id);
  }
  isStarted(id: number): boolean {
    return this.started.has(id);
  }
}

class FakeIpcMain extends EventEmitter {
  readonly handlers = new Map<string, (event: IpcEventLike) => unknown>();
  handle(channel: string, listener: (event: IpcEventLike) => unknown): void {
    this.handlers.set(channel, listener);
  }
}

class FakeProtocol {
  privileged: { scheme: string; privileges: object }[] = [];
  handlers = new Map<string, (request: { url: string }) => Promise<Response> | Response>();
  registerSchemesAsPrivileged(s: { scheme: string; privileges: object }[]): void {
    this.privileged.push(...s);
  }
  handle(scheme: string, handler: (request: { url: string }) => Promise<Response> | Response): void {
    this.handlers.set(scheme, handler);
  }
  /** A request on a registered scheme, as a window would make it. */
  async fetch(url: string): Promise<Response> {
    const h = this.handlers.get(new URL(url).protocol.replace(/:$/, ''));
    if (!h) throw new Error(`no handler for ${url}`);
    return h({ url });
  }
}

/** One fake Electron per test: `resetFake()` gives a fresh one. */
export interface FakeElectron {
  app: FakeApp;
  screen: FakeScreen;
  session: { defaultSession: FakeSession };
  powerSaveBlocker: FakePowerSaveBlocker;
  ipcMain: FakeIpcMain;
  protocol: FakeProtocol;
  forks: FakeUtilityProcess[];
  menu: (null | 'unset')[];
}

let fake: FakeElectron;

export function resetFake(): { electron: KioskElectron; fake: FakeElectron } {
  FakeBrowserWindow.all = [];
  fake = {
    app: new FakeApp(),
    screen: new FakeScreen(),
    session: { defaultSession: new FakeSession() },
    powerSaveBlocker: new FakePowerSaveBlocker(),
    ipcMain: new FakeIpcMain(),
    protocol: new FakeProtocol(),
    forks: [],
    menu: ['unset'],
  };
  const f = fake;
  const electron: KioskElectron = {
    app: f.app,
    BrowserWindow: FakeBrowserWindow,
    Menu: { setApplicationMenu: (m: null) => void f.menu.push(m) },
    MessageChannelMain: class {
      port1 = { name: 'port1' };
      port2 = { name: 'port2' };
    },
    ipcMain: f.ipcMain,
    powerSaveBlocker: f.powerSaveBlocker,
    protocol: f.protocol,
    screen: f.screen,
    session: f.session,
    utilityProcess: {
      fork(modulePath: string, args: string[]) {
        const p = new FakeUtilityProcess(modulePath, args);
        f.forks.push(p);
        return p;
      },
    },
  };
  return { electron, fake: f };
}
