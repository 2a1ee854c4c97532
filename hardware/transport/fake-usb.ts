// An in-process USB device that speaks the bytes of a USB-serial bridge (CDC-ACM, FTDI FT232 or
// CP210x) in front of a byte-level device simulator. It implements UsbDeviceLike with node-usb's
// behaviour where that differs from browsers: transferIn takes an optional timeout and throws
// when it expires. Bridge facts: docs/protocols/transport.md.
import type { DeviceSide } from '../sim/device-side.js';
import { sameLine, type LineSettings } from './byte-port.js';
import type { UsbBusLike, UsbConfigurationLike, UsbConnectionEventLike, UsbControlSetup, UsbDeviceLike, UsbInResult, UsbOutResult } from './usb-types.js';

export type BridgeKind = 'cdc-acm' | 'ftdi' | 'cp210x' | 'pl2303';

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

/** Bridge-side faults the tests can inject. */
export interface BridgeFaults {
  /** Flag the next IN packet carrying data with a parity error (FTDI line status 0x04). */
  parityErrorNext: boolean;
  /** Make the next transferOut stall. */
  stallNextOut: boolean;
  /** Make every transferIn stall from now on (a wedged endpoint). */
  stallIn: boolean;
}

export class FakeUsbDevice implements UsbDeviceLike {
  readonly vendorId: number;
  readonly productId: number;
  readonly serialNumber: string | null;
  readonly manufacturerName: string | null;
  readonly productName: string | null;
  readonly kind: BridgeKind;
  readonly faults: BridgeFaults = { parityErrorNext: false, stallNextOut: false, stallIn: false };
  /** What the host programmed into the bridge (null until it did). */
  line: LineSettings | null = null;
  dtr = false;
  rts = false;
  latencyMs = 16;
  enabled = false; // CP210x IFC_ENABLE, PL2303 initialisation
  /** PL2303 vendor writes [value, index], in order. */
  readonly vendorWrites: [number, number][] = [];
  readonly controlLog: UsbControlSetup[] = [];

  private isOpen = false;
  private selected: number | null = null;
  private claimed = new Set<number>();
  private connected = true;
  private rx: number[] = []; // device → host bytes waiting in the bridge
  private waiters: (() => void)[] = [];
  private readonly config: UsbConfigurationLike;
  private cdcLineCoding = new Uint8Array([0x80, 0x25, 0, 0, 0, 0, 8]);
  private pendingFtdi: { baud?: number; data?: number } = {};

  constructor(
    readonly side: DeviceSide,
    options: FakeUsbOptions,
  ) {
    this.kind = options.kind;
    const d = DEFAULT_IDS[options.kind];
    this.vendorId = options.vendorId ?? d[0];
    this.productId = options.productId ?? d[1];
    this.manufacturerName = options.manufacturerName ?? d[2];
    this.productName = options.productName ?? d[3];
    this.serialNumber = options.serialNumber ?? 'SIM0001';
    this.config = configurationFor(this.kind, this.claimed);
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

  get isConnected(): boolean {
    return this.connected;
  }

  /** Pulls the plug: pending and later transfers fail, the simulator keeps running unattached. */
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
    const garbled = this.line !== null && !sameLine(this.line, this.side.line);
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
    this.controlLog.push({ ...setup });
    const ok = (n = data?.length ?? 0): UsbOutResult => ({ bytesWritten: n, status: 'ok' });
    const stall: UsbOutResult = { bytesWritten: 0, status: 'stall' };
    if (this.kind === 'pl2303' && setup.requestType === 'vendor') {
      if (setup.recipient !== 'device' || setup.request !== 0x01) return stall;
      this.vendorWrites.push([setup.value, setup.index]);
      if (setup.value === 0 && setup.index === 1) this.enabled = true; // part of the init sequence
      return ok(0);
    }
    if (this.kind === 'cdc-acm' || this.kind === 'pl2303') {
      if (setup.requestType !== 'class' || setup.recipient !== 'interface' || setup.index !== 0) return stall;
      if (setup.request === 0x20 && data && data.length === 7) {
        this.cdcLineCoding = data.slice();
        const baud = (data[0] ?? 0) | ((data[1] ?? 0) << 8) | ((data[2] ?? 0) << 16) | ((data[3] ?? 0) << 24);
        const stop = data[4] === 2 ? 2 : 1;
        const parity = data[5] === 2 ? 'even' : data[5] === 1 ? 'odd' : 'none';
        const bits = data[6] === 7 ? 7 : 8;
        this.line = { baudRate: baud >>> 0, dataBits: bits, parity, stopBits: stop };
        return ok();
      }
      if (setup.request === 0x22) {
        this.dtr = (setup.value & 1) !== 0;
        this.rts = (setup.value & 2) !== 0;
        return ok(0);
      }
      if (setup.request === 0x23) return ok(0);
      return stall;
    }
    if (this.kind === 'ftdi') {
      if (setup.requestType !== 'vendor' || setup.recipient !== 'device') return stall;
      switch (setup.request) {
        case 0:
          if (setup.value === 1) this.rx = [];
          return ok(0);
        case 1:
          if (setup.value & 0x0100) this.dtr = (setup.value & 0x01) !== 0;
          if (setup.value & 0x0200) this.rts = (setup.value & 0x02) !== 0;
          return ok(0);
        case 2:
          return ok(0);
        case 3:
          this.pendingFtdi.baud = ftdiBaudFromDivisor(setup.value);
          this.applyFtdi();
          return ok(0);
        case 4:
          this.pendingFtdi.data = setup.value;
          this.applyFtdi();
          return ok(0);
        case 9:
          this.latencyMs = setup.value & 0xff;
          return ok(0);
        default:
          return stall;
      }
    }
    // CP210x: vendor requests to the interface.
    if (setup.requestType !== 'vendor' || setup.recipient !== 'interface') return stall;
    switch (setup.request) {
      case 0x00:
        this.enabled = setup.value === 1;
        return ok(0);
      case 0x03: {
        const stop = setup.value & 0x0f;
        const par = (setup.value >> 4) & 0x0f;
        const bits = (setup.value >> 8) & 0xff;
        this.line = {
          baudRate: this.line?.baudRate ?? 9600,
          dataBits: bits === 7 ? 7 : 8,
          parity: par === 2 ? 'even' : par === 1 ? 'odd' : 'none',
          stopBits: stop === 2 ? 2 : 1,
        };
        return ok(0);
      }
      case 0x07:
        if (setup.value & 0x0100) this.dtr = (setup.value & 1) !== 0;
        if (setup.value & 0x0200) this.rts = (setup.value & 2) !== 0;
        return ok(0);
      case 0x1e:
        if (!data || data.length !== 4) return stall;
        this.line = {
          ...(this.line ?? { dataBits: 8, parity: 'none', stopBits: 1 }),
          baudRate: ((data[0] ?? 0) | ((data[1] ?? 0) << 8) | ((data[2] ?? 0) << 16) | ((data[3] ?? 0) << 24)) >>> 0,
        };
        return ok();
      default:
        return stall;
    }
  }

  private applyFtdi(): void {
    const v = this.pendingFtdi.data ?? 0x0008;
    const par = (v >> 8) & 7;
    const stop = (v >> 11) & 3;
    this.line = {
      baudRate: this.pendingFtdi.baud ?? 9600,
      dataBits: (v & 0xff) === 7 ? 7 : 8,
      parity: par === 2 ? 'even' : par === 1 ? 'odd' : 'none',
      stopBits: stop === 2 ? 2 : 1,
    };
  }

  async controlTransferIn(setup: UsbControlSetup, length: number): Promise<UsbInResult> {
    this.check();
    this.controlLog.push({ ...setup });
    if (this.kind === 'cdc-acm' && setup.request === 0x21) return { data: new DataView(this.cdcLineCoding.slice(0, length).buffer), status: 'ok' };
    if (this.kind === 'ftdi' && setup.request === 10) return { data: new DataView(new Uint8Array([this.latencyMs]).buffer), status: 'ok' };
    if (this.kind === 'ftdi' && setup.request === 5) return { data: new DataView(new Uint8Array([0x01, 0x60]).buffer), status: 'ok' };
    if (this.kind === 'pl2303' && setup.requestType === 'vendor' && setup.request === 0x01)
      return { data: new DataView(new Uint8Array([0x00]).buffer), status: 'ok' };
    return { status: 'stall' };
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
    if (this.faults.stallNextOut) {
      this.faults.stallNextOut = false;
      return { bytesWritten: 0, status: 'stall' };
    }
    const bytes = Uint8Array.from(data);
    const garbled = this.line === null || !sameLine(this.line, this.side.line);
    if ((this.kind === 'cp210x' || this.kind === 'pl2303') && !this.enabled) return { bytesWritten: bytes.length, status: 'ok' }; // a UART not enabled/initialised drops it
    this.side.receive(garbled ? bytes.map((b) => b ^ 0xa5) : bytes);
    return { bytesWritten: bytes.length, status: 'ok' };
  }

  /** node-usb semantics: a timeout (default 1000 ms) throws; the caller treats it as "no data". */
  async transferIn(endpointNumber: number, length: number, timeout = 1000): Promise<UsbInResult> {
    this.check();
    this.endpoint(endpointNumber, 'in');
    if (this.faults.stallIn) {
      await new Promise((r) => setTimeout(r, 1));
      return { status: 'stall' };
    }
    const wantsFtdiIdle = this.kind === 'ftdi';
    if (this.rx.length === 0) {
      const waitMs = wantsFtdiIdle ? Math.min(timeout, Math.max(1, this.latencyMs)) : timeout;
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
    if (this.kind !== 'ftdi') {
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
      if (take.length > 0 && this.faults.parityErrorNext) {
        this.faults.parityErrorNext = false;
        lineStatus |= 0x04;
      }
      chunks.push(0x01 | 0x10 | 0x20, lineStatus, ...take);
      room -= PACKET;
    } while (this.rx.length > 0 && room >= PACKET);
    const out = Uint8Array.from(chunks);
    return { data: new DataView(out.buffer), status: 'ok' };
  }
}

/** Decodes an FT232BM/R divisor (48 MHz base) back to a baud rate; the inverse of ftdiBaudDivisor. */
export function ftdiBaudFromDivisor(value: number): number {
  if (value === 0) return 3_000_000;
  if (value === 1) return 2_000_000;
  const eighths = [0, 4, 2, 1, 3, 5, 6, 7][(value >> 14) & 7] ?? 0; // sub-integer code → eighths
  const d3 = (value & 0x3fff) * 8 + eighths;
  return Math.round(24_000_000 / d3);
}

/** A fake `navigator.usb`: plug, unplug and replug devices with connect/disconnect events. */
export class FakeUsbBus implements UsbBusLike {
  private devices: FakeUsbDevice[] = [];
  private listeners = { connect: new Set<(ev: UsbConnectionEventLike) => void>(), disconnect: new Set<(ev: UsbConnectionEventLike) => void>() };

  async getDevices(): Promise<UsbDeviceLike[]> {
    return this.devices.filter((d) => d.isConnected);
  }

  addEventListener(type: 'connect' | 'disconnect', listener: (ev: UsbConnectionEventLike) => void): void {
    this.listeners[type].add(listener);
  }

  removeEventListener(type: 'connect' | 'disconnect', listener: (ev: UsbConnectionEventLike) => void): void {
    this.listeners[type].delete(listener);
  }

  plug(side: DeviceSide, options: FakeUsbOptions): FakeUsbDevice {
    const dev = new FakeUsbDevice(side, options);
    this.devices.push(dev);
    for (const l of [...this.listeners.connect]) l({ device: dev });
    return dev;
  }

  unplug(dev: FakeUsbDevice): void {
    if (!dev.isConnected) return;
    dev.unplug();
    this.devices = this.devices.filter((d) => d !== dev);
    for (const l of [...this.listeners.disconnect]) l({ device: dev });
  }

  /** Unplug then plug the same simulator back: the host sees a new USBDevice, as on real hardware. */
  replug(dev: FakeUsbDevice): FakeUsbDevice {
    this.unplug(dev);
    return this.plug(dev.side, {
      kind: dev.kind,
      vendorId: dev.vendorId,
      productId: dev.productId,
      serialNumber: dev.serialNumber ?? undefined,
    });
  }
}
