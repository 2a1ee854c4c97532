// The USB-serial bridge chip inside a FakeUsbDevice: what the host programs into it through control
// transfers (line settings, modem lines, latency, enable) and the faults a test gives it. The
// device around it (fake-usb.ts) is the USB face a driver sees: open, claim, bulk transfers.
// Request codes per chip: docs/protocols/transport.md.
import type { LineSettings } from './byte-port.js';
import type { UsbControlSetup, UsbInResult, UsbOutResult } from './usb-types.js';

export type BridgeKind = 'cdc-acm' | 'ftdi' | 'cp210x' | 'pl2303';

/** Bridge-side faults the tests can inject. */
export interface BridgeFaults {
  /** Flag the next IN packet carrying data with a parity error (FTDI line status 0x04). */
  parityErrorNext: boolean;
  /** Make the next transferOut stall. */
  stallNextOut: boolean;
  /** Make every transferIn stall from now on (a wedged endpoint). */
  stallIn: boolean;
}

const parityOf = (code: number): LineSettings['parity'] => (code === 2 ? 'even' : code === 1 ? 'odd' : 'none');
const u32le = (d: Uint8Array): number => ((d[0] ?? 0) | ((d[1] ?? 0) << 8) | ((d[2] ?? 0) << 16) | ((d[3] ?? 0) << 24)) >>> 0;

export class BridgeChip {
  /** What the host programmed into the bridge (null until it did). */
  line: LineSettings | null = null;
  dtr = false;
  rts = false;
  latencyMs = 16;
  enabled = false; // CP210x IFC_ENABLE, PL2303 initialisation
  /** PL2303 vendor writes [value, index], in order. */
  readonly vendorWrites: [number, number][] = [];
  /** Every control request the host made, in order. */
  readonly controlLog: UsbControlSetup[] = [];
  readonly faults: BridgeFaults = { parityErrorNext: false, stallNextOut: false, stallIn: false };
  private cdcLineCoding = new Uint8Array([0x80, 0x25, 0, 0, 0, 0, 8]);
  private pendingFtdi: { baud?: number; data?: number } = {};

  /** `purgeRx`: the FTDI reset request empties the bytes waiting for the host. */
  constructor(
    readonly kind: BridgeKind,
    private readonly purgeRx: () => void,
  ) {}

  /** A UART not enabled/initialised (CP210x, PL2303) drops what the host sends. */
  get passesBytes(): boolean {
    return (this.kind !== 'cp210x' && this.kind !== 'pl2303') || this.enabled;
  }

  controlOut(setup: UsbControlSetup, data?: Uint8Array<ArrayBuffer>): UsbOutResult {
    this.controlLog.push({ ...setup });
    if (this.kind === 'pl2303' && setup.requestType === 'vendor') return this.pl2303Vendor(setup);
    if (this.kind === 'cdc-acm' || this.kind === 'pl2303') return this.cdcClass(setup, data);
    if (this.kind === 'ftdi') return this.ftdi(setup);
    return this.cp210x(setup, data);
  }

  controlIn(setup: UsbControlSetup, length: number): UsbInResult {
    this.controlLog.push({ ...setup });
    const reply = (bytes: Uint8Array<ArrayBuffer>): UsbInResult => ({ data: new DataView(bytes.buffer), status: 'ok' });
    if (this.kind === 'cdc-acm' && setup.request === 0x21) return reply(this.cdcLineCoding.slice(0, length));
    if (this.kind === 'ftdi' && setup.request === 10) return reply(new Uint8Array([this.latencyMs]));
    if (this.kind === 'ftdi' && setup.request === 5) return reply(new Uint8Array([0x01, 0x60]));
    if (this.kind === 'pl2303' && setup.requestType === 'vendor' && setup.request === 0x01) return reply(new Uint8Array([0x00]));
    return { status: 'stall' };
  }

  private pl2303Vendor(setup: UsbControlSetup): UsbOutResult {
    if (setup.recipient !== 'device' || setup.request !== 0x01) return STALL;
    this.vendorWrites.push([setup.value, setup.index]);
    if (setup.value === 0 && setup.index === 1) this.enabled = true; // part of the init sequence
    return ok(0);
  }

  private cdcClass(setup: UsbControlSetup, data?: Uint8Array<ArrayBuffer>): UsbOutResult {
    if (setup.requestType !== 'class' || setup.recipient !== 'interface' || setup.index !== 0) return STALL;
    if (setup.request === 0x20 && data && data.length === 7) {
      this.cdcLineCoding = data.slice();
      this.line = { baudRate: u32le(data), dataBits: data[6] === 7 ? 7 : 8, parity: parityOf(data[5] ?? 0), stopBits: data[4] === 2 ? 2 : 1 };
      return ok(data.length);
    }
    if (setup.request === 0x22) {
      this.dtr = (setup.value & 1) !== 0;
      this.rts = (setup.value & 2) !== 0;
      return ok(0);
    }
    if (setup.request === 0x23) return ok(0);
    return STALL;
  }

  private ftdi(setup: UsbControlSetup): UsbOutResult {
    if (setup.requestType !== 'vendor' || setup.recipient !== 'device') return STALL;
    switch (setup.request) {
      case 0:
        if (setup.value === 1) this.purgeRx();
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
        return STALL;
    }
  }

  private applyFtdi(): void {
    const v = this.pendingFtdi.data ?? 0x0008;
    this.line = {
      baudRate: this.pendingFtdi.baud ?? 9600,
      dataBits: (v & 0xff) === 7 ? 7 : 8,
      parity: parityOf((v >> 8) & 7),
      stopBits: ((v >> 11) & 3) === 2 ? 2 : 1,
    };
  }

  /** CP210x: vendor requests to the interface. */
  private cp210x(setup: UsbControlSetup, data?: Uint8Array<ArrayBuffer>): UsbOutResult {
    if (setup.requestType !== 'vendor' || setup.recipient !== 'interface') return STALL;
    switch (setup.request) {
      case 0x00:
        this.enabled = setup.value === 1;
        return ok(0);
      case 0x03: {
        const bits = (setup.value >> 8) & 0xff;
        this.line = {
          baudRate: this.line?.baudRate ?? 9600,
          dataBits: bits === 7 ? 7 : 8,
          parity: parityOf((setup.value >> 4) & 0x0f),
          stopBits: (setup.value & 0x0f) === 2 ? 2 : 1,
        };
        return ok(0);
      }
      case 0x07:
        if (setup.value & 0x0100) this.dtr = (setup.value & 1) !== 0;
        if (setup.value & 0x0200) this.rts = (setup.value & 2) !== 0;
        return ok(0);
      case 0x1e:
        if (!data || data.length !== 4) return STALL;
        this.line = { ...(this.line ?? { dataBits: 8, parity: 'none', stopBits: 1 }), baudRate: u32le(data) };
        return ok(data.length);
      default:
        return STALL;
    }
  }
}

const ok = (n: number): UsbOutResult => ({ bytesWritten: n, status: 'ok' });
const STALL: UsbOutResult = { bytesWritten: 0, status: 'stall' };

/** Decodes an FT232BM/R divisor (48 MHz base) back to a baud rate; the inverse of ftdiBaudDivisor. */
export function ftdiBaudFromDivisor(value: number): number {
  if (value === 0) return 3_000_000;
  if (value === 1) return 2_000_000;
  const eighths = [0, 4, 2, 1, 3, 5, 6, 7][(value >> 14) & 7] ?? 0; // sub-integer code → eighths
  const d3 = (value & 0x3fff) * 8 + eighths;
  return Math.round(24_000_000 / d3);
}
