// USB-serial bridges driven from user space over a UsbDeviceLike: CDC-ACM (class requests),
// FTDI FT232 (vendor requests, two status bytes per IN packet) and CP210x (vendor requests to
// the interface). Facts and their sources: docs/protocols/transport.md.
import { BasePort, type BytePort, type LineSettings } from './byte-port.js';
import { hex4, inBytes, type UsbBusLike, type UsbConnectionEventLike, type UsbDeviceLike, type UsbEndpointLike } from './usb-types.js';

export type BridgeDriver = 'cdc-acm' | 'ftdi' | 'cp210x' | 'pl2303';

/** Known bridge VID/PIDs; any other device with a CDC data interface (class 0x0A) is CDC-ACM. */
export const KNOWN_BRIDGES: readonly { vid: number; pid: number; driver: BridgeDriver; name: string }[] = [
  { vid: 0x0403, pid: 0x6001, driver: 'ftdi', name: 'FTDI FT232R/BM' },
  { vid: 0x0403, pid: 0x6015, driver: 'ftdi', name: 'FTDI FT-X' },
  { vid: 0x10c4, pid: 0xea60, driver: 'cp210x', name: 'Silicon Labs CP210x' },
  { vid: 0x067b, pid: 0x2303, driver: 'pl2303', name: 'Prolific PL2303 (HX)' },
  { vid: 0x191c, pid: 0x4104, driver: 'cdc-acm', name: 'ITL NV9USB/NV10USB/NV200 (CDC-ACM)' },
];

export function bridgeDriverFor(device: Pick<UsbDeviceLike, 'vendorId' | 'productId' | 'configuration' | 'configurations'>): BridgeDriver | null {
  const known = KNOWN_BRIDGES.find((b) => b.vid === device.vendorId && b.pid === device.productId);
  if (known) return known.driver;
  const configs = [device.configuration, ...(device.configurations ?? [])];
  for (const c of configs) if (c?.interfaces.some((i) => i.alternate.interfaceClass === 0x0a)) return 'cdc-acm';
  return null;
}

/** FT232BM/R baud divisor with a 48 MHz base (Linux ftdi_232bm_baud_base_to_divisor). */
export function ftdiBaudDivisor(baud: number): number {
  const d3 = Math.round(48_000_000 / (2 * baud));
  let div = (d3 >> 3) | (([0, 3, 2, 4, 1, 5, 6, 7][d3 & 7] ?? 0) << 14);
  if (div === 1) div = 0;
  else if (div === 0x4001) div = 1;
  return div;
}

const PARITY_CODE = { none: 0, odd: 1, even: 2 } as const;

/** FTDI SET_DATA wValue: bits 0–7 data bits, 8–10 parity, 11–13 stop bits (0 = 1, 2 = 2). */
export function ftdiDataValue(line: LineSettings): number {
  return line.dataBits | (PARITY_CODE[line.parity] << 8) | ((line.stopBits === 2 ? 2 : 0) << 11);
}

/** CDC SET_LINE_CODING payload: dwDTERate LE, bCharFormat, bParityType, bDataBits. */
export function cdcLineCoding(line: LineSettings): Uint8Array<ArrayBuffer> {
  const b = line.baudRate >>> 0;
  return new Uint8Array([b & 0xff, (b >> 8) & 0xff, (b >> 16) & 0xff, (b >>> 24) & 0xff, line.stopBits === 2 ? 2 : 0, PARITY_CODE[line.parity], line.dataBits]);
}

/** CP210x SET_LINE_CTL wValue: stop | parity << 4 | data bits << 8. */
export function cp210xLineCtl(line: LineSettings): number {
  return (line.stopBits === 2 ? 2 : 0) | (PARITY_CODE[line.parity] << 4) | (line.dataBits << 8);
}

export interface FtdiChunk {
  data: Uint8Array;
  /** Parity, framing, overrun or FIFO error flagged in a line-status byte. */
  lineError: boolean;
}

/** Strips the two status bytes that begin every max-packet chunk of an FTDI IN transfer. */
export function stripFtdiStatus(transfer: Uint8Array, packetSize: number): FtdiChunk {
  const out: number[] = [];
  let lineError = false;
  for (let i = 0; i < transfer.length; i += packetSize) {
    const end = Math.min(transfer.length, i + packetSize);
    if (end - i < 2) break;
    if (((transfer[i + 1] ?? 0) & (0x02 | 0x04 | 0x08 | 0x80)) !== 0) lineError = true;
    for (let j = i + 2; j < end; j++) out.push(transfer[j] ?? 0);
  }
  return { data: Uint8Array.from(out), lineError };
}

interface Endpoints {
  ifaces: number[];
  commIface: number;
  inEp: UsbEndpointLike;
  outEp: UsbEndpointLike;
}

function findEndpoints(device: UsbDeviceLike, driver: BridgeDriver): Endpoints {
  const config = device.configuration;
  if (!config) throw new Error('device has no active configuration');
  if (driver === 'cdc-acm') {
    const data = config.interfaces.find((i) => i.alternate.interfaceClass === 0x0a);
    const comm = config.interfaces.find((i) => i.alternate.interfaceClass === 0x02);
    if (!data) throw new Error('CDC-ACM: no data-class (0x0A) interface');
    const inEp = data.alternate.endpoints.find((e) => e.direction === 'in' && e.type === 'bulk');
    const outEp = data.alternate.endpoints.find((e) => e.direction === 'out' && e.type === 'bulk');
    if (!inEp || !outEp) throw new Error('CDC-ACM: data interface lacks bulk endpoints');
    const ifaces = comm ? [comm.interfaceNumber, data.interfaceNumber] : [data.interfaceNumber];
    return { ifaces, commIface: comm?.interfaceNumber ?? data.interfaceNumber, inEp, outEp };
  }
  const iface = config.interfaces[0];
  if (!iface) throw new Error(`${driver}: no interface`);
  const inEp = iface.alternate.endpoints.find((e) => e.direction === 'in' && e.type === 'bulk');
  const outEp = iface.alternate.endpoints.find((e) => e.direction === 'out' && e.type === 'bulk');
  if (!inEp || !outEp) throw new Error(`${driver}: interface lacks bulk endpoints`);
  return { ifaces: [iface.interfaceNumber], commIface: iface.interfaceNumber, inEp, outEp };
}

async function must(p: Promise<{ status?: string | undefined }>, what: string): Promise<void> {
  const r = await p;
  if (r.status && r.status !== 'ok') throw new Error(`${what}: ${r.status}`);
}

export interface UsbSerialOptions {
  driver?: BridgeDriver;
  /** Bus to watch for this device's disconnect event (hot-unplug). */
  bus?: UsbBusLike;
  /** transferIn timeout in ms (node-usb throws on expiry; we treat that as "no data"). */
  readTimeoutMs?: number;
}

/** A byte port over a USB-serial bridge. */
export class UsbSerialPort extends BasePort {
  readonly description: string;
  private reading = false;
  private detach: (() => void) | null = null;
  lineErrors = 0;

  private constructor(
    private readonly device: UsbDeviceLike,
    readonly driver: BridgeDriver,
    private readonly eps: Endpoints,
    private readonly readTimeoutMs: number,
  ) {
    super();
    this.description = `usb:${hex4(device.vendorId)}:${hex4(device.productId)}${device.serialNumber ? ':' + device.serialNumber : ''} (${driver})`;
  }

  static async open(device: UsbDeviceLike, line: LineSettings, options: UsbSerialOptions = {}): Promise<UsbSerialPort> {
    const driver = options.driver ?? bridgeDriverFor(device);
    if (!driver) throw new Error(`usb:${hex4(device.vendorId)}:${hex4(device.productId)}: no USB-serial driver for this device`);
    if (!device.opened) await device.open();
    if (!device.configuration) await device.selectConfiguration(1);
    const eps = findEndpoints(device, driver);
    for (const n of eps.ifaces) {
      try {
        await device.detachKernelDriver?.(n);
      } catch {
        // "not attached" is the usual answer; claimInterface reports real problems.
      }
      await device.claimInterface(n);
    }
    await setupLine(device, driver, eps, line);
    const port = new UsbSerialPort(device, driver, eps, options.readTimeoutMs ?? 1000);
    if (options.bus) {
      const bus = options.bus;
      const onDisconnect = (ev: UsbConnectionEventLike): void => {
        if (ev.device === device) port.lost(new Error('USB device unplugged'));
      };
      bus.addEventListener('disconnect', onDisconnect);
      port.detach = () => bus.removeEventListener('disconnect', onDisconnect);
    }
    port.onClose(() => port.detach?.());
    void port.readLoop();
    return port;
  }

  private async readLoop(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    let failures = 0;
    const size = this.eps.inEp.packetSize * (this.driver === 'ftdi' ? 1 : 4);
    while (!this.closed) {
      try {
        const r = await this.device.transferIn(this.eps.inEp.endpointNumber, size, this.readTimeoutMs);
        if (r.status && r.status !== 'ok') {
          // node-usb reports a null completion as 'stall': a few in a row mean the link is gone
          // (spinning on a stalled endpoint would only burn the CPU).
          if (++failures >= 3) {
            this.lost(new Error(`IN endpoint ${r.status}`));
            break;
          }
          continue;
        }
        failures = 0;
        let bytes = inBytes(r);
        if (this.driver === 'ftdi') {
          const c = stripFtdiStatus(bytes, this.eps.inEp.packetSize);
          if (c.lineError) {
            // Parity or framing error: the bytes cannot be trusted, the frame parser resyncs.
            this.lineErrors++;
            continue;
          }
          bytes = c.data;
        }
        this.deliver(bytes);
      } catch (e) {
        if (this.closed) break;
        const msg = e instanceof Error ? e.message : String(e);
        if (/timeout|timed out/i.test(msg)) continue;
        // Anything else (no device, pipe error) three times running: the link is gone.
        if (++failures >= 3 || /NO_DEVICE|disconnected|not opened/i.test(msg)) {
          this.lost(e instanceof Error ? e : new Error(msg));
          break;
        }
      }
    }
    this.reading = false;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.closed) throw new Error(`${this.description}: port closed`);
    try {
      const r = await this.device.transferOut(this.eps.outEp.endpointNumber, new Uint8Array(bytes));
      if (r.status && r.status !== 'ok') throw new Error(`transferOut: ${r.status}`);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (/NO_DEVICE|disconnected|not opened/i.test(msg)) this.lost(e instanceof Error ? e : new Error(msg));
      throw e;
    }
  }

  protected async shutdown(): Promise<void> {
    try {
      for (const n of this.eps.ifaces) await this.device.releaseInterface(n);
      await this.device.close();
    } catch {
      // Closing a device that already went away is not an error worth reporting.
    }
  }
}

async function setupLine(device: UsbDeviceLike, driver: BridgeDriver, eps: Endpoints, line: LineSettings): Promise<void> {
  if (driver === 'cdc-acm') {
    const cls = { requestType: 'class', recipient: 'interface', index: eps.commIface } as const;
    await must(device.controlTransferOut({ ...cls, request: 0x20, value: 0 }, cdcLineCoding(line)), 'SET_LINE_CODING');
    await must(device.controlTransferOut({ ...cls, request: 0x22, value: 0x03 }), 'SET_CONTROL_LINE_STATE');
    return;
  }
  if (driver === 'ftdi') {
    const v = (request: number, value: number, index = 0) =>
      must(device.controlTransferOut({ requestType: 'vendor', recipient: 'device', request, value, index }), `FTDI request ${request}`);
    const div = ftdiBaudDivisor(line.baudRate);
    await v(0, 0); // reset SIO
    await v(3, div & 0xffff, (div >> 16) & 1);
    await v(4, ftdiDataValue(line));
    await v(2, 0); // no flow control
    await v(1, 0x0101); // DTR high
    await v(1, 0x0202); // RTS high
    await v(9, 2); // latency 2 ms: request/response protocols at 9600 baud
    await v(0, 1); // purge RX
    await v(0, 2); // purge TX
    return;
  }
  if (driver === 'pl2303') {
    // Vendor initialisation ("black magic") of the non-HXN types, then CDC-style line coding.
    const rd = async (value: number): Promise<void> => {
      const r = await device.controlTransferIn({ requestType: 'vendor', recipient: 'device', request: 0x01, value, index: 0 }, 1);
      if (r.status && r.status !== 'ok') throw new Error(`PL2303 vendor read 0x${value.toString(16)}: ${r.status}`);
    };
    const wr = (value: number, index: number) =>
      must(
        device.controlTransferOut({ requestType: 'vendor', recipient: 'device', request: 0x01, value, index }),
        `PL2303 vendor write 0x${value.toString(16)}`,
      );
    await rd(0x8484);
    await wr(0x0404, 0);
    await rd(0x8484);
    await rd(0x8383);
    await rd(0x8484);
    await wr(0x0404, 1);
    await rd(0x8484);
    await rd(0x8383);
    await wr(0, 1);
    await wr(1, 0);
    await wr(2, 0x44); // HX; the old type 01 wants 0x24
    const cls = { requestType: 'class', recipient: 'interface', index: 0 } as const;
    await must(device.controlTransferOut({ ...cls, request: 0x20, value: 0 }, cdcLineCoding(line)), 'PL2303 SET_LINE');
    await must(device.controlTransferOut({ ...cls, request: 0x22, value: 0x03 }), 'PL2303 SET_CONTROL');
    return;
  }
  const v = (request: number, value: number, data?: Uint8Array<ArrayBuffer>) =>
    must(device.controlTransferOut({ requestType: 'vendor', recipient: 'interface', request, value, index: eps.commIface }, data), `CP210x request ${request}`);
  await v(0x00, 1); // IFC_ENABLE first
  const b = line.baudRate >>> 0;
  await v(0x1e, 0, new Uint8Array([b & 0xff, (b >> 8) & 0xff, (b >> 16) & 0xff, (b >>> 24) & 0xff]));
  await v(0x03, cp210xLineCtl(line));
  await v(0x07, 0x0303); // DTR and RTS high, with their write masks
}

export type { BytePort };
