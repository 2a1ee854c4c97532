// The parts of Electron the kiosk's main process uses, as narrow structural types. The real
// modules satisfy them (electron/main.ts hands them in, and the compiler checks it); the tests hand
// in fakes built on EventEmitter (electron/testing/fake-electron.ts), since no Electron binary can
// run on the build machines. Nothing here imports Electron at run time.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DisplayLike {
  id: number;
  bounds: Rect;
}

/** `child-process-gone` and `render-process-gone` details (Electron's Details, RenderProcessGoneDetails). */
export interface ProcessGoneDetails {
  type?: string;
  reason: string;
  exitCode: number;
  name?: string;
  serviceName?: string;
}

export interface WebContentsLike {
  readonly id: number;
  on(event: 'render-process-gone', listener: (event: unknown, details: ProcessGoneDetails) => void): unknown;
  on(event: 'unresponsive', listener: () => void): unknown;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow'; overrideBrowserWindowOptions?: object }): void;
  reload(): void;
  forcefullyCrashRenderer(): void;
  getURL(): string;
  loadURL(url: string): Promise<void>;
}

export interface AppLike {
  on(event: 'child-process-gone', listener: (event: unknown, details: ProcessGoneDetails) => void): unknown;
  on(event: 'web-contents-created', listener: (event: unknown, contents: WebContentsLike) => void): unknown;
}

export interface ScreenLike {
  getAllDisplays(): DisplayLike[];
  on(event: 'display-added' | 'display-removed', listener: (event: unknown, display: DisplayLike) => void): unknown;
  on(event: 'display-metrics-changed', listener: (event: unknown, display: DisplayLike, changedMetrics: string[]) => void): unknown;
}

export interface PowerSaveBlockerLike {
  start(type: 'prevent-app-suspension' | 'prevent-display-sleep'): number;
  stop(id: number): void;
  isStarted(id: number): boolean;
}

/** What a device-permission or device-selection request says of a device (USB, HID, serial). */
export interface DeviceLike {
  /** A number for USB and HID devices; a serial port's is a string (decimal, as Chromium writes it). */
  vendorId?: number | string;
  productId?: number | string;
  deviceId?: string;
  portId?: string;
}

export type DeviceKind = 'usb' | 'hid' | 'serial';

export interface SessionLike {
  setPermissionRequestHandler(handler: ((webContents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null): void;
  setPermissionCheckHandler(handler: ((webContents: unknown, permission: string, requestingOrigin: string) => boolean) | null): void;
  setDevicePermissionHandler(handler: ((details: { deviceType: DeviceKind; origin: string; device: DeviceLike }) => boolean) | null): void;
  on(
    event: 'select-usb-device' | 'select-hid-device',
    listener: (event: { preventDefault(): void }, details: { deviceList: DeviceLike[] }, callback: (deviceId?: string | null) => void) => void,
  ): unknown;
  on(
    event: 'select-serial-port',
    listener: (event: { preventDefault(): void }, portList: DeviceLike[], webContents: unknown, callback: (portId: string) => void) => void,
  ): unknown;
}

/** The few window operations the display watcher needs. */
export interface KioskWindowLike {
  setBounds(bounds: Rect): void;
  isDestroyed(): boolean;
}

export interface BrowserWindowLike extends KioskWindowLike {
  readonly webContents: WebContentsLike & {
    on(event: 'before-input-event', listener: (event: { preventDefault(): void }, input: KeyInput) => void): unknown;
    on(event: 'did-create-window', listener: (window: BrowserWindowLike) => void): unknown;
    once(event: 'did-finish-load', listener: () => void): unknown;
    print(options: object, callback: (success: boolean, failureReason: string) => void): void;
    postMessage(channel: string, message: unknown, transfer?: unknown[]): void;
  };
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  close(): void;
  destroy(): void;
  focus(): void;
  getBounds(): Rect;
  loadURL(url: string): Promise<void>;
}

export interface KeyInput {
  key: string;
  control: boolean;
  meta: boolean;
  alt: boolean;
  shift: boolean;
  type?: string;
}

export interface UtilityProcessLike {
  once(event: 'message', listener: (message: unknown) => void): unknown;
  once(event: 'exit', listener: (code: number) => void): unknown;
  postMessage(message: unknown, transfer?: unknown[]): void;
  kill(): boolean;
}

export interface IpcEventLike {
  readonly sender: { readonly id: number; postMessage(channel: string, message: unknown, transfer?: unknown[]): void };
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null;
}

/** Everything of Electron the main process touches: the real module satisfies it (main.ts). */
export interface KioskElectron {
  app: AppLike & {
    readonly isPackaged: boolean;
    readonly commandLine: { appendSwitch(name: string, value?: string): void };
    enableSandbox(): void;
    requestSingleInstanceLock(): boolean;
    whenReady(): Promise<void>;
    quit(): void;
    exit(code?: number): void;
    relaunch(options?: { args?: string[] }): void;
    on(event: 'before-quit', listener: () => void): unknown;
  };
  BrowserWindow: new (options: object) => BrowserWindowLike;
  Menu: { setApplicationMenu(menu: null): void };
  MessageChannelMain: new () => { port1: unknown; port2: unknown };
  ipcMain: {
    handle(channel: string, listener: (event: IpcEventLike) => unknown): void;
    on(channel: string, listener: (event: IpcEventLike) => void): unknown;
  };
  powerSaveBlocker: PowerSaveBlockerLike;
  protocol: {
    registerSchemesAsPrivileged(schemes: { scheme: string; privileges: object }[]): void;
    handle(scheme: string, handler: (request: { url: string }) => Promise<Response> | Response): void;
  };
  screen: ScreenLike & { getDisplayMatching(rect: Rect): DisplayLike };
  session: {
    defaultSession: SessionLike & {
      on(
        event: 'will-download',
        listener: (
          event: unknown,
          item: { getFilename(): string; setSavePath(path: string): void; once(event: 'done', listener: (e: unknown, state: string) => void): unknown },
        ) => void,
      ): unknown;
    };
  };
  utilityProcess: { fork(modulePath: string, args: string[], options: { serviceName: string; stdio: 'inherit' }): UtilityProcessLike };
}
