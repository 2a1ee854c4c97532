import type { Logger } from 'pino';
import type { AppLike, DeviceKind, DeviceLike, SessionLike } from './electron-api.js';

export interface UsbId {
  vid: number;
  pid: number;
}

export interface GuardOptions {
  app: AppLike;
  session: SessionLike;
  log: Logger;
  /** Our own pages (app://kiosk). */
  isAppUrl: (url: string) => boolean;
  /** The one page that may open a window of its own (the printable meters report). */
  isPrintable: (url: string) => boolean;
  /** Our devices (the bill acceptors' and the shoe's USB bridges, hardware/transport/usb-serial.ts). */
  devices: readonly UsbId[];
}

const DEVICE_PERMISSIONS = new Set<string>(['usb', 'hid', 'serial']);

/** A USB id as a number: serial ports give it as a decimal string (or `0x…`); anything else is no id. */
function asNumber(v: number | string | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^0x[0-9a-f]{1,4}$/i.test(v)) return parseInt(v.slice(2), 16);
  if (typeof v === 'string' && /^\d{1,5}$/.test(v)) return Number(v);
  return undefined;
}

/** Whether a device a page asks for is one of ours, by its USB vendor and product ids. */
export function isOurDevice(device: DeviceLike, devices: readonly UsbId[]): boolean {
  const vid = asNumber(device.vendorId);
  const pid = asNumber(device.productId);
  return vid !== undefined && pid !== undefined && devices.some((d) => d.vid === vid && d.pid === pid);
}

/**
 * Every web contents, ours or any other (a devtools page, a page a bug opened): no navigation or
 * redirect off app://kiosk, no <webview>, no new window but the printable report (script off).
 * Permissions: every request refused; a check answers yes only for device access asked by our own
 * pages, and a device is granted or chosen only if it is one of ours. The screens need no device
 * today (the host drives them over libusb): this keeps it so if a page ever asks.
 */
export function installGuards(o: GuardOptions): void {
  const { app, session, log } = o;
  app.on('web-contents-created', (_e, contents) => {
    for (const event of ['will-navigate', 'will-redirect'] as const) {
      contents.on(event, (e, url) => {
        if (o.isAppUrl(url)) return;
        e.preventDefault();
        log.warn({ event, url }, 'navigation off the kiosk refused');
      });
    }
    contents.on('will-attach-webview', (e) => {
      e.preventDefault();
      log.warn('webview refused');
    });
    contents.setWindowOpenHandler(({ url }) =>
      o.isPrintable(url)
        ? {
            action: 'allow',
            overrideBrowserWindowOptions: {
              autoHideMenuBar: true,
              webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false },
            },
          }
        : { action: 'deny' },
    );
  });
  session.setPermissionRequestHandler((_wc, permission, callback) => {
    log.warn({ permission }, 'permission request refused');
    callback(false);
  });
  session.setPermissionCheckHandler((_wc, permission, origin) => DEVICE_PERMISSIONS.has(permission) && o.isAppUrl(origin));
  session.setDevicePermissionHandler((details: { deviceType: DeviceKind; origin: string; device: DeviceLike }) => {
    const ok = o.isAppUrl(details.origin) && isOurDevice(details.device, o.devices);
    if (!ok) log.warn({ deviceType: details.deviceType, origin: details.origin }, 'device permission refused');
    return ok;
  });
  for (const event of ['select-usb-device', 'select-hid-device'] as const) {
    session.on(event, (e, details, callback) => {
      e.preventDefault();
      callback(details.deviceList.find((d) => isOurDevice(d, o.devices))?.deviceId ?? null);
    });
  }
  session.on('select-serial-port', (e, portList, _wc, callback) => {
    e.preventDefault();
    callback(portList.find((p) => isOurDevice(p, o.devices))?.portId ?? '');
  });
}
