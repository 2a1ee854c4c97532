import { z } from 'zod';

/**
 * Where a device is reached: `sim` (the byte-level simulator), `usb:VID:PID[:serial]` (hex ids)
 * or `tcp:HOST:PORT` (a serial device server on the casino floor).
 */
export const DeviceSpec = z.union([
  z.literal('sim'),
  z.string().regex(/^usb:[0-9a-fA-F]{4}:[0-9a-fA-F]{4}(:[\w.-]+)?$/, 'usb:VID:PID[:serial] with hex ids'),
  z.string().regex(/^tcp:[\w.-]+:\d{1,5}$/, 'tcp:HOST:PORT'),
]);
export type DeviceSpec = z.infer<typeof DeviceSpec>;
