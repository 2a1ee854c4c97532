// The real USB bus, via the `usb` package (3.x, WebUSB-style). Loaded lazily so that machines
// without a USB subsystem (CI) never touch the native module unless a usb: spec is used.
import type { UsbBusLike, UsbConnectionEventLike, UsbDeviceLike } from './usb-types.js';

let cached: Promise<UsbBusLike> | null = null;

export function nodeUsbBus(): Promise<UsbBusLike> {
  cached ??= import('usb').then((m) => {
    const usb = m.usb as unknown as {
      getDevices(): Promise<UsbDeviceLike[]>;
      addEventListener(t: string, l: (ev: UsbConnectionEventLike) => void): void;
      removeEventListener(t: string, l: (ev: UsbConnectionEventLike) => void): void;
    };
    // The WebUSB class of node-usb satisfies UsbBusLike; this wrapper only pins the types.
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
