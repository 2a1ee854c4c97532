/// <reference types="w3c-web-usb" />
// The real USB bus, via the `usb` package (3.x, WebUSB-style). Loaded lazily so that machines
// without a USB subsystem (CI) never touch the native module unless a usb: spec is used.
import type { UsbBusLike, UsbDeviceLike } from './usb-types.js';

let cached: Promise<UsbBusLike> | null = null;

export function nodeUsbBus(): Promise<UsbBusLike> {
  cached ??= import('usb').then((m) => {
    const { usb } = m;
    // node-usb's WebUSB object satisfies UsbBusLike once the WebUSB types are in scope (its
    // UsbDevice extends the standard USBDevice); the wrapper only pins the types.
    const bus: UsbBusLike = {
      getDevices: () => usb.getDevices(),
      addEventListener: (t, l) => usb.addEventListener(t, l),
      removeEventListener: (t, l) => usb.removeEventListener(t, l),
    };
    return bus;
  });
  return cached;
}

export async function findUsbDevice(bus: UsbBusLike, vendorId: number, productId: number, serial?: string): Promise<UsbDeviceLike | null> {
  const all = await bus.getDevices();
  return all.find((d) => d.vendorId === vendorId && d.productId === productId && (!serial || d.serialNumber === serial)) ?? null;
}
