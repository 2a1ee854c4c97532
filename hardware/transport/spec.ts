// Device spec strings: `sim`, `usb:VID:PID[:serial]` (hex ids), `tcp:HOST:PORT` or `serial:PATH`
// (a port the operating system names, `serial:/dev/ttyS0`).
import { z } from 'zod';

export type DeviceSpec =
  | { kind: 'sim' }
  | { kind: 'usb'; vendorId: number; productId: number; serial?: string }
  | { kind: 'tcp'; host: string; port: number }
  | { kind: 'serial'; path: string };

/** A serial port's path: absolute, a device name of letters, digits and `._-/` (`/dev/ttyS0`, `/dev/serial/by-id/usb-FTDI_…`). */
export const SERIAL_PATH = /^\/[\w.\-/]+$/;
const serialPath = z.string().regex(SERIAL_PATH, 'an absolute device path such as /dev/ttyS0');

const hexId = z.string().regex(/^(0x)?[0-9a-fA-F]{1,4}$/, 'a hex id of 1–4 digits');

/** `listen` allows port 0 (pick a free port) for servers. */
export function parseSpec(spec: string, options: { listen?: boolean } = {}): DeviceSpec {
  if (spec === 'sim') return { kind: 'sim' };
  if (spec.startsWith('usb:')) {
    const [vid, pid, ...rest] = spec.slice(4).split(':');
    const v = hexId.safeParse(vid);
    const p = hexId.safeParse(pid);
    if (!v.success || !p.success) throw new Error(`bad USB spec "${spec}": expected usb:VID:PID[:serial] with hex ids`);
    const serial = rest.join(':');
    return { kind: 'usb', vendorId: parseInt(v.data, 16), productId: parseInt(p.data, 16), ...(serial ? { serial } : {}) };
  }
  if (spec.startsWith('tcp:')) {
    const body = spec.slice(4);
    const i = body.lastIndexOf(':');
    const host = body.slice(0, i).replace(/^\[(.*)\]$/, '$1');
    const port = Number(body.slice(i + 1));
    if (i <= 0 || !host || !Number.isInteger(port) || port < (options.listen ? 0 : 1) || port > 65535 || body.slice(i + 1) === '')
      throw new Error(`bad TCP spec "${spec}": expected tcp:HOST:PORT`);
    return { kind: 'tcp', host, port };
  }
  if (spec.startsWith('serial:')) {
    const path = serialPath.safeParse(spec.slice(7));
    if (!path.success) throw new Error(`bad serial spec "${spec}": expected serial:PATH with an absolute device path such as serial:/dev/ttyS0`);
    return { kind: 'serial', path: path.data };
  }
  throw new Error(`bad device spec "${spec}": expected sim, usb:VID:PID[:serial], tcp:HOST:PORT or serial:PATH`);
}

export function formatSpec(s: DeviceSpec): string {
  if (s.kind === 'sim') return 'sim';
  if (s.kind === 'tcp') return `tcp:${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}`;
  if (s.kind === 'serial') return `serial:${s.path}`;
  const h = (n: number): string => n.toString(16).padStart(4, '0');
  return `usb:${h(s.vendorId)}:${h(s.productId)}${s.serial ? ':' + s.serial : ''}`;
}
