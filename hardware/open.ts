// Factories: a logical device from a spec string (`sim`, `usb:VID:PID[:serial]`, `tcp:HOST:PORT`,
// `serial:PATH`).
// `sim` runs the real driver over the fake USB bridge in front of a byte-level simulator, so the
// simulated mode exercises exactly the code that drives real hardware.
import { Id003BillAcceptor } from './billacceptor/id003/driver.js';
import { Id003Simulator, type Id003SimOptions } from './billacceptor/id003/simulator.js';
import type { Currency } from './billacceptor/notes.js';
import type { BillAcceptorSimControls } from './billacceptor/sim-controls.js';
import { SspBillAcceptor, type SspOptions } from './billacceptor/ssp/driver.js';
import { SspSimulator, type SspSimOptions } from './billacceptor/ssp/simulator.js';
import type { BillAcceptor, BillAcceptorOptions } from './billacceptor/types.js';
import { TclPrinter } from './printer/driver.js';
import { TclPrinterSimulator, type PrinterSimOptions } from './printer/simulator.js';
import type { PrinterOptions } from './printer/types.js';
import { AsciiShoe } from './shoe/ascii.js';
import { FramedShoe } from './shoe/framed-driver.js';
import { ShoeSimulator, type ShoeSimOptions } from './shoe/simulator.js';
import type { ShoeDevice, ShoeOptions, ShoeSimControls } from './shoe/types.js';
import type { DeviceSide } from './sim/device-side.js';
import { LINE_8E1_9600, LINE_8N1_9600, LINE_8N2_9600, type LineSettings, type PortOpener } from './transport/byte-port.js';
import { FakeUsbBus, type BridgeKind, type FakeUsbDevice } from './transport/fake-usb.js';
import { findUsbDevice, nodeUsbBus } from './transport/node-usb.js';
import { parseSpec } from './transport/spec.js';
import { SerialBytePort } from './transport/serial.js';
import { TcpPort } from './transport/tcp.js';
import type { UsbBusLike, UsbConnectionEventLike } from './transport/usb-types.js';
import { UsbSerialPort } from './transport/usb-serial.js';

export type BillProtocol = 'id003' | 'ssp';
export type ShoeProtocol = 'framed' | 'ascii';

/** Unplug/replug of a simulated device's USB cable. */
export interface SimCable {
  unplug(): void;
  replug(): void;
  readonly usb: FakeUsbDevice;
}

export interface OpenOptions {
  /** UART settings for a usb: or serial: spec (default per protocol); a tcp: spec has none. */
  line?: LineSettings;
  /** The USB bus for usb: specs (default: node-usb); tests pass a FakeUsbBus. */
  bus?: UsbBusLike;
  /** USB-serial bridge the `sim` spec presents (default: FTDI for ID-003, CDC-ACM for SSP and shoes). */
  simBridge?: BridgeKind;
  /** transferIn timeout of the USB read loop. */
  usbReadTimeoutMs?: number;
}

export type OpenedBillAcceptor = BillAcceptor & { simulator?: BillAcceptorSimControls & SimCable; wake?: () => void };
export type OpenedShoe = ShoeDevice & { simulator?: ShoeSimControls & SimCable };
export type OpenedPrinter = TclPrinter & { simulator?: TclPrinterSimulator & SimCable };

function usbOpener(
  bus: Promise<UsbBusLike> | UsbBusLike,
  vid: number,
  pid: number,
  serial: string | undefined,
  line: LineSettings,
  readTimeoutMs?: number,
): PortOpener {
  return async () => {
    const b = await bus;
    const dev = await findUsbDevice(b, vid, pid, serial);
    if (!dev) throw new Error(`USB device ${vid.toString(16).padStart(4, '0')}:${pid.toString(16).padStart(4, '0')}${serial ? ':' + serial : ''} not present`);
    return UsbSerialPort.open(dev, line, { bus: b, ...(readTimeoutMs ? { readTimeoutMs } : {}) });
  };
}

/** A port opener for a spec; for `sim`, the caller provides the simulator to put behind a fake bridge. */
export function openerFor(
  spec: string,
  line: LineSettings,
  options: OpenOptions,
  sim?: () => { side: DeviceSide; bridge: BridgeKind },
): { opener: PortOpener; cable?: SimCable; watch?: Watch } {
  const s = parseSpec(spec);
  if (s.kind === 'tcp') return { opener: () => TcpPort.open(s.host, s.port) };
  // No hot-plug events for a port the kernel names: the driver's backoff opens it again.
  if (s.kind === 'serial') return { opener: () => SerialBytePort.open(s.path, line) };
  if (s.kind === 'usb') {
    const bus = options.bus ?? nodeUsbBus();
    return {
      opener: usbOpener(bus, s.vendorId, s.productId, s.serial, line, options.usbReadTimeoutMs),
      watch: hotplug(bus, s.vendorId, s.productId, s.serial),
    };
  }
  if (!sim) throw new Error('no simulator for this device');
  const { side, bridge } = sim();
  const bus = new FakeUsbBus();
  let usb = bus.plug(side, { kind: bridge });
  const cable: SimCable = {
    unplug: () => bus.unplug(usb),
    replug: () => {
      usb = bus.replug(usb);
    },
    get usb() {
      return usb;
    },
  };
  return {
    opener: usbOpener(bus, usb.vendorId, usb.productId, undefined, line, options.usbReadTimeoutMs ?? 100),
    cable,
    watch: hotplug(bus, usb.vendorId, usb.productId),
  };
}

/** Subscribes to the bus's connect events for one device; returns the unsubscribe. */
type Watch = (onConnect: () => void) => () => void;

function hotplug(bus: Promise<UsbBusLike> | UsbBusLike, vid: number, pid: number, serial?: string): Watch {
  return (onConnect) => {
    const l = (ev: UsbConnectionEventLike): void => {
      const d = ev.device;
      if (d.vendorId === vid && d.productId === pid && (!serial || d.serialNumber === serial)) onConnect();
    };
    let off: (() => void) | null = null;
    let closed = false;
    Promise.resolve(bus)
      .then(async (b) => {
        // node-usb's hot-plug emitter fails asynchronously (unhandled) where there is no USB
        // subsystem; only subscribe once the bus has answered.
        await b.getDevices();
        if (closed) return;
        b.addEventListener('connect', l);
        off = () => b.removeEventListener('connect', l);
      })
      .catch(() => undefined); // no USB subsystem: the backoff alone will do
    return () => {
      closed = true;
      off?.();
    };
  };
}

/** Ties the hot-plug watch to the device's lifetime. */
function watchDevice(device: { wake(): void; close(): Promise<void> }, watch: Watch | undefined): void {
  if (!watch) return;
  const off = watch(() => device.wake());
  const close = device.close.bind(device);
  device.close = async () => {
    off();
    await close();
  };
}

function attach<T extends object, C extends object>(target: T, sim: C | undefined, cable: SimCable | undefined): T & { simulator?: C & SimCable } {
  if (!sim || !cable) return target;
  // The controls live on the simulator object itself (its methods mutate its own state).
  const simulator = Object.defineProperties(sim, {
    unplug: { value: cable.unplug },
    replug: { value: cable.replug },
    usb: { get: () => cable.usb },
  }) as C & SimCable;
  return Object.assign(target, { simulator });
}

type PortOptions = OpenOptions & { protocol: BillProtocol; currency: Currency; sim?: Partial<Id003SimOptions & SspSimOptions> };

/**
 * A bill acceptor's port, without a driver: what a remote station's agent relays to the table
 * host, whose own driver speaks to the device through it. For `sim` the simulator stands behind
 * the fake USB bridge as for `openBillAcceptor`; `watch` is the USB hot-plug watch, if any.
 */
export function openBillAcceptorPort(
  spec: string,
  options: PortOptions,
): { opener: PortOpener; simulator?: BillAcceptorSimControls & SimCable; watch?: (onConnect: () => void) => () => void } {
  const id003 = options.protocol === 'id003';
  const line = options.line ?? (id003 ? LINE_8E1_9600 : LINE_8N2_9600);
  let sim: (Id003Simulator | SspSimulator) | undefined;
  const { opener, cable, watch } = openerFor(spec, line, options, () => {
    sim = id003 ? new Id003Simulator({ ...options.sim, currency: options.currency }) : new SspSimulator({ ...options.sim, currency: options.currency });
    return { side: sim, bridge: options.simBridge ?? (id003 ? 'ftdi' : 'cdc-acm') };
  });
  const { simulator } = attach({}, sim as BillAcceptorSimControls | undefined, cable);
  return { opener, ...(simulator ? { simulator } : {}), ...(watch ? { watch } : {}) };
}

/**
 * Opens a bill acceptor: `protocol` picks the driver. The device starts connecting at once; call
 * `enable()` to accept notes (or pass `enabled: true`).
 */
export function openBillAcceptor(spec: string, options: BillAcceptorOptions & SspOptions & PortOptions): OpenedBillAcceptor {
  const { opener, simulator, watch } = openBillAcceptorPort(spec, options);
  const device = openBillAcceptorOn(opener, options);
  watchDevice(device, watch);
  return simulator ? Object.assign(device, { simulator }) : device;
}

/**
 * A bill acceptor's driver over a port someone else opens (a remote station's acceptor, its bytes
 * relayed by the station's agent). Starts connecting at once.
 */
export function openBillAcceptorOn(
  opener: PortOpener,
  options: BillAcceptorOptions & SspOptions & { protocol: BillProtocol },
): Id003BillAcceptor | SspBillAcceptor {
  const device = options.protocol === 'id003' ? new Id003BillAcceptor(opener, options) : new SspBillAcceptor(opener, options);
  device.start();
  return device;
}

/** Opens a card-reading shoe speaking our framed protocol or a vendor ASCII stream. */
export function openShoe(
  spec: string,
  options: ShoeOptions & OpenOptions & { protocol: ShoeProtocol; seed?: number; sim?: Partial<ShoeSimOptions> },
): OpenedShoe {
  const line = options.line ?? LINE_8N1_9600;
  let sim: ShoeSimulator | undefined;
  const { opener, cable, watch } = openerFor(spec, line, options, () => {
    sim = new ShoeSimulator({ ...options.sim, protocol: options.protocol, ...(options.seed !== undefined ? { seed: options.seed } : {}) });
    return { side: sim, bridge: options.simBridge ?? 'cdc-acm' };
  });
  const device = options.protocol === 'framed' ? new FramedShoe(opener, options) : new AsciiShoe(opener, options);
  watchDevice(device, watch);
  const opened = attach(device, sim as ShoeSimControls | undefined, cable);
  device.start();
  return opened;
}

/**
 * Opens a ticket printer speaking TCL (FutureLogic/JCM GEN2–GEN5, and the printers that emulate
 * it); `sim` puts the byte-level simulator behind a fake FTDI bridge. Starts connecting at once.
 */
export function openPrinter(spec: string, options: PrinterOptions & OpenOptions & { sim?: PrinterSimOptions } = {}): OpenedPrinter {
  const line = options.line ?? LINE_8N1_9600;
  let sim: TclPrinterSimulator | undefined;
  const { opener, cable, watch } = openerFor(spec, line, options, () => {
    sim = new TclPrinterSimulator({ ...options.sim, line });
    return { side: sim, bridge: options.simBridge ?? 'ftdi' };
  });
  const device = new TclPrinter(opener, options);
  watchDevice(device, watch);
  const opened = attach(device, sim, cable);
  device.start();
  return opened;
}
