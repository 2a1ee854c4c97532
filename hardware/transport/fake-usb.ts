// An in-process USB device that speaks the bytes of a USB-serial bridge (CDC-ACM, FTDI FT232 or
// CP210x) in front of a byte-level device simulator. It implements UsbDeviceLike with node-usb's
// behaviour where that differs from browsers: transferIn takes an optional timeout and throws
// when it expires. The bridge chip's registers and requests are in fake-bridge.ts. Bridge facts:
// docs/protocols/transport.md.
import type { DeviceSide } from '../sim/device-side.js';
import { sameLine } from './byte-port.js';
import { BridgeChip, type BridgeKind } from './fake-bridge.js';
import type { UsbBusLike, UsbConfigurationLike, UsbConnectionEventLike, UsbControlSetup, UsbDeviceLike, UsbInResult, UsbOutResult } from './usb-types.js';

export type { BridgeFaults, BridgeKind } from './fake-bridge.js';

export interface FakeUsbOptions {
  kind: BridgeKind;
  vendorId?: number;
  productId?: number;
  serialNumber?: string;
  productName?: string;
  manufacturerName?: string;
}

const DEFAULT_IDS: Record<BridgeKind, [number, number, string, string]> = {
  'cdc-acm': [0x191c, 0x4104, 'Innovative Technology LTD', 'NV9USB (simulated)'],
  ftdi: [0x0403, 0x6001, 'FTDI', 'FT232R USB UART (simulated)'],
  cp210x: [0x10c4, 0xea60, 'Silicon Labs', 'CP2102 USB to UART (simulated)'],
  pl2303: [0x067b, 0x2303, 'Prolific Technology Inc.', 'USB-Serial Controller (simulated)'],
};

const PACKET = 64;

function configurationFor(kind: BridgeKind, claimed: Set<number>): UsbConfigurationLike {
  const iface = (n: number, cls: number, eps: UsbConfigurationLike['interfaces'][number]['alternate']['endpoints']) => ({
    interfaceNumber: n,
    get claimed() {
      return claimed.has(n);
    },
    alternate: { interfaceClass: cls, interfaceSubclass: cls === 2 ? 2 : 0, interfaceProtocol: 0, endpoints: eps },
  });
  if (kind === 'cdc-acm') {
    return {
      configurationValue: 1,
      interfaces: [
        iface(0, 0x02, [{ endpointNumber: 1, direction: 'in', type: 'interrupt', packetSize: 8 }]),
        iface(1, 0x0a, [
          { endpointNumber: 2, direction: 'in', type: 'bulk', packetSize: PACKET },
          { endpointNumber: 2, direction: 'out', type: 'bulk', packetSize: PACKET },
        ]),
      ],
    };
  }
  if (kind === 'pl2303') {
    // HX layout: interrupt IN 0x81 (status), bulk OUT 0x02, bulk IN 0x83.
    return {
      configurationValue: 1,
      interfaces: [
        iface(0, 0xff, [
          { endpointNumber: 1, direction: 'in', type: 'interrupt', packetSize: 10 },
          { endpointNumber: 2, direction: 'out', type: 'bulk', packetSize: PACKET },
          { endpointNumber: 3, direction: 'in', type: 'bulk', packetSize: PACKET },
        ]),
      ],
    };
  }
  return {
    configurationValue: 1,
    interfaces: [
      iface(0, 0xff, [
        { endpointNumber: 1, direction: 'in', type: 'bulk', packetSize: PACKET },
        { endpointNumber: 2, direction: 'out', type: 'bulk', packetSize: PACKET },
      ]),
    ],
  };
}

export class UsbError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsbError';
  }
}

export class FakeUsbDevice implements UsbDeviceLike {
  readonly vendorId: number;
  readonly productId: number;
  readonly serialNumber: string | null;
  readonly manufacturerName: string | null;
  readonly productName: string | null;
  /** The bridge chip: its kind, what the host programmed into it, the faults a test gives it. */
  readonly bridge: BridgeChip;

  private isOpen = false;
  private selected: number | null = null;
  private claimed = new Set<number>();
  private connected = true;
  private rx: number[] = []; // device → host bytes waiting in the bridge
  private waiters: (() => void)[] = [];
  private readonly config: UsbConfigurationLike;

  constructor(
    private readonly side: DeviceSide,
    options: FakeUsbOptions,
  ) {
    this.bridge = new BridgeChip(options.kind, () => (this.rx = []));
    const d = DEFAULT_IDS[options.kind];
    this.vendorId = options.vendorId ?? d[0];
    this.productId = options.productId ?? d[1];
    this.manufacturerName = options.manufacturerName ?? d[2];
    this.productName = options.productName ?? d[3];
    this.serialNumber = options.serialNumber ?? 'SIM0001';
    this.config = configurationFor(options.kind, this.claimed);
    side.attach((bytes) => this.fromDevice(bytes));
  }

  get opened(): boolean {
    return this.isOpen;
  }

  get configuration(): UsbConfigurationLike | null {
    return this.selected === null ? null : this.config;
  }

  get configurations(): readonly UsbConfigurationLike[] {
    return [this.config];
  }

  /** Pulls the plug (FakeUsbBus.unplug): pending and later transfers fail, the simulator keeps running unattached. */
  unplug(): void {
    if (!this.connected) return;
    this.connected = false;
    this.isOpen = false;
    this.side.attach(null);
    this.rx = [];
    this.wake();
  }

  private fromDevice(bytes: Uint8Array): void {
    if (!this.connected) return;
    // A bridge programmed with other line settings than the device's UART sees garbage.
    const line = this.bridge.line;
    const garbled = line !== null && !sameLine(line, this.side.line);
    for (const b of bytes) this.rx.push(garbled ? b ^ 0x5a : b);
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const fn of w) fn();
  }

  private check(needOpen = true): void {
    if (!this.connected) throw new UsbError('LIBUSB_ERROR_NO_DEVICE: device disconnected');
    if (needOpen && !this.isOpen) throw new UsbError('InvalidStateError: device not opened');
  }

  async open(): Promise<void> {
    this.check(false);
    this.isOpen = true;
  }

  async close(): Promise<void> {
    this.isOpen = false;
    this.claimed.clear();
    this.wake();
  }

  async selectConfiguration(value: number): Promise<void> {
    this.check();
    if (value !== 1) throw new UsbError(`NotFoundError: configuration ${value}`);
    this.selected = value;
  }

  async claimInterface(n: number): Promise<void> {
    this.check();
    if (this.selected === null) throw new UsbError('InvalidStateError: no configuration selected');
    if (!this.config.interfaces.some((i) => i.interfaceNumber === n)) throw new UsbError(`NotFoundError: interface ${n}`);
    this.claimed.add(n);
  }

  async releaseInterface(n: number): Promise<void> {
    this.claimed.delete(n);
  }

  async detachKernelDriver(): Promise<void> {
    this.check();
  }

  async controlTransferOut(setup: UsbControlSetup, data?: Uint8Array<ArrayBuffer>): Promise<UsbOutResult> {
    this.check();
    return this.bridge.controlOut(setup, data);
  }

  async controlTransferIn(setup: UsbControlSetup, length: number): Promise<UsbInResult> {
    this.check();
    return this.bridge.controlIn(setup, length);
  }

  private endpoint(n: number, dir: 'in' | 'out'): void {
    for (const i of this.config.interfaces) {
      if (i.alternate.endpoints.some((e) => e.endpointNumber === n && e.direction === dir && e.type === 'bulk')) {
        if (!this.claimed.has(i.interfaceNumber)) throw new UsbError(`InvalidStateError: interface ${i.interfaceNumber} not claimed`);
        return;
      }
    }
    throw new UsbError(`NotFoundError: endpoint ${n} ${dir}`);
  }

  async transferOut(endpointNumber: number, data: Uint8Array<ArrayBuffer>): Promise<UsbOutResult> {
    this.check();
    this.endpoint(endpointNumber, 'out');
    const { faults } = this.bridge;
    if (faults.stallNextOut) {
      faults.stallNextOut = false;
      return { bytesWritten: 0, status: 'stall' };
    }
    const bytes = Uint8Array.from(data);
    const line = this.bridge.line;
    const garbled = line === null || !sameLine(line, this.side.line);
    if (!this.bridge.passesBytes) return { bytesWritten: bytes.length, status: 'ok' };
    this.side.receive(garbled ? bytes.map((b) => b ^ 0xa5) : bytes);
    return { bytesWritten: bytes.length, status: 'ok' };
  }

  /** node-usb semantics: a timeout (default 1000 ms) throws; the caller treats it as "no data". */
  async transferIn(endpointNumber: number, length: number, timeout = 1000): Promise<UsbInResult> {
    this.check();
    this.endpoint(endpointNumber, 'in');
    if (this.bridge.faults.stallIn) {
      await new Promise((r) => setTimeout(r, 1));
      return { status: 'stall' };
    }
    const wantsFtdiIdle = this.bridge.kind === 'ftdi';
    if (this.rx.length === 0) {
      const waitMs = wantsFtdiIdle ? Math.min(timeout, Math.max(1, this.bridge.latencyMs)) : timeout;
      const got = await new Promise<boolean>((resolve) => {
        const t = setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== fn);
          resolve(false);
        }, waitMs);
        const fn = (): void => {
          clearTimeout(t);
          resolve(true);
        };
        this.waiters.push(fn);
      });
      this.check();
      if (!got && !wantsFtdiIdle) throw new UsbError('transferIn error: Timeout');
    }
    const max = Math.ceil(Math.max(length, 1) / PACKET) * PACKET;
    if (this.bridge.kind !== 'ftdi') {
      const out = Uint8Array.from(this.rx.splice(0, max));
      return { data: new DataView(out.buffer), status: 'ok' };
    }
    // FTDI: every max-packet chunk starts with modem status and line status bytes; with no data the
    // chip still answers with the two status bytes once per latency period.
    const chunks: number[] = [];
    let room = max;
    do {
      const take = this.rx.splice(0, Math.min(PACKET - 2, room - 2));
      let lineStatus = 0x60; // THRE | TEMT
      if (take.length > 0 && this.bridge.faults.parityErrorNext) {
        this.bridge.faults.parityErrorNext = false;
        lineStatus |= 0x04;
      }
      chunks.push(0x01 | 0x10 | 0x20, lineStatus, ...take);
      room -= PACKET;
    } while (this.rx.length > 0 && room >= PACKET);
    const out = Uint8Array.from(chunks);
    return { data: new DataView(out.buffer), status: 'ok' };
  }
}

/** A fake `navigator.usb`: plug, unplug and replug devices with connect/disconnect events. */
export class FakeUsbBus implements UsbBusLike {
  private devices: FakeUsbDevice[] = [];
  /** Each device's simulator side, for `replug` (the device keeps its own private). */
  private readonly sides = new WeakMap<FakeUsbDevice, DeviceSide>();
  private listeners = { connect: new Set<(ev: UsbConnectionEventLike) => void>(), disconnect: new Set<(ev: UsbConnectionEventLike) => void>() };

  async getDevices(): Promise<UsbDeviceLike[]> {
    return [...this.devices];
  }

  addEventListener(type: 'connect' | 'disconnect', listener: (ev: UsbConnectionEventLike) => void): void {
    this.listeners[type].add(listener);
  }

  removeEventListener(type: 'connect' | 'disconnect', listener: (ev: UsbConnectionEventLike) => void): void {
    this.listeners[type].delete(listener);
  }

  plug(side: DeviceSide, options: FakeUsbOptions): FakeUsbDevice {
    const dev = new FakeUsbDevice(side, options);
    this.sides.set(dev, side);
    this.devices.push(dev);
    for (const l of [...this.listeners.connect]) l({ device: dev });
    return dev;
  }

  unplug(dev: FakeUsbDevice): void {
    if (!this.devices.includes(dev)) return;
    dev.unplug();
    this.devices = this.devices.filter((d) => d !== dev);
    for (const l of [...this.listeners.disconnect]) l({ device: dev });
  }

  /** Unplug then plug the same simulator back: the host sees a new USBDevice, as on real hardware. */
  replug(dev: FakeUsbDevice): FakeUsbDevice {
    this.unplug(dev);
    const side = this.sides.get(dev);
    if (!side) throw new Error('not a device of this bus');
    return this.plug(side, {
      kind: dev.bridge.kind,
      vendorId: dev.vendorId,
      productId: dev.productId,
      serialNumber: dev.serialNumber ?? undefined,
    });
  }
}
