import { z } from 'zod';

/**
 * Where a device is reached: `sim` (the byte-level simulator), `usb:VID:PID[:serial]` (hex ids),
 * `tcp:HOST:PORT` (a serial device server on the casino floor) or `serial:PATH` (a port the
 * operating system names: an on-board RS-232 port, `serial:/dev/ttyS0`).
 */
export const DeviceSpec = z.union([
  z.literal('sim'),
  z.string().regex(/^usb:[0-9a-fA-F]{4}:[0-9a-fA-F]{4}(:[\w.-]+)?$/, 'usb:VID:PID[:serial] with hex ids'),
  z.string().regex(/^tcp:[\w.-]+:\d{1,5}$/, 'tcp:HOST:PORT'),
  z.string().regex(/^serial:\/[\w.\-/]+$/, 'serial:PATH with an absolute device path such as serial:/dev/ttyS0'),
]);
export type DeviceSpec = z.infer<typeof DeviceSpec>;
