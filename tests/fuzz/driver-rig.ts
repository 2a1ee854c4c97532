// A real bill-acceptor driver against a hostile device (tests/fuzz/hostile-acceptor.ts: the
// honest simulator's mechanism behind lying firmware) through a wire that can garble, truncate,
// drop, duplicate and add noise, and be pulled mid-frame, all on virtual time. The drivers'
// model-based fuzz (drivers.ts) and the hostile-acceptor security tests both run on it.
import type { Clock } from '../../hardware/clock.js';
import { Id003BillAcceptor } from '../../hardware/billacceptor/id003/driver.js';
import { Id003Simulator } from '../../hardware/billacceptor/id003/simulator.js';
import { SspBillAcceptor } from '../../hardware/billacceptor/ssp/driver.js';
import { SspSimulator } from '../../hardware/billacceptor/ssp/simulator.js';
import type { BillAcceptor, BillAcceptorEvent, BillAcceptorOptions, Credit, EscrowDecision, EscrowedNote } from '../../hardware/billacceptor/types.js';
import type { DeviceSide } from '../../hardware/sim/device-side.js';
import { BasePort, type PortOpener } from '../../hardware/transport/byte-port.js';
import { HostileId003, HostileSsp } from './hostile-acceptor.js';
import { VirtualTime } from './virtual-time.js';

export type DriverProtocol = 'id003' | 'ssp';
/** What the wire does to the next chunk of bytes in one direction. */
export type WireHarm = 'garble' | 'truncate' | 'drop' | 'duplicate' | 'noise';
export const HARMS: readonly WireHarm[] = ['garble', 'truncate', 'drop', 'duplicate', 'noise'];

/** A wire between the driver and the device that the commands damage. */
export class FuzzWire {
  readonly toHost: WireHarm[] = [];
  readonly toDevice: WireHarm[] = [];
  /** Cut the next device→host chunk after this many bytes, and pull the cable. */
  cutAt: number | null = null;
  /** Virtual time before which the cable is out (an open fails). */
  outUntil = 0;
  port: FuzzPort | null = null;
  healed = false;

  harm(queue: WireHarm[], bytes: Uint8Array): Uint8Array[] {
    const h = this.healed ? undefined : queue.shift();
    if (!h) return [bytes];
    const out = Uint8Array.from(bytes);
    switch (h) {
      case 'drop':
        return [];
      case 'truncate':
        return [out.slice(0, Math.max(1, out.length >> 1))];
      case 'garble': {
        const i = (out.length * 7) >> 3;
        out[i] = (out[i] ?? 0) ^ 0x5a;
        return [out];
      }
      case 'duplicate':
        return [out, Uint8Array.from(out)];
      case 'noise':
        return [Uint8Array.from([0x00, 0x13, 0xfc, 0x7f, 0xa5]), out];
    }
  }
}

export class FuzzPort extends BasePort {
  readonly description = 'fuzzed wire';

  constructor(
    private readonly side: DeviceSide & { lineQuiet(): void },
    private readonly wire: FuzzWire,
    private readonly clock: Clock,
  ) {
    super();
    side.attach((bytes) => this.fromDevice(bytes));
  }

  private fromDevice(bytes: Uint8Array): void {
    const cut = this.wire.healed ? null : this.wire.cutAt;
    if (cut !== null) {
      // The cable is pulled while this frame is on it: its first bytes arrive, then the link is gone.
      this.wire.cutAt = null;
      this.deliver(bytes.slice(0, Math.min(cut, bytes.length)));
      this.unplug(40);
      return;
    }
    for (const b of this.wire.harm(this.wire.toHost, bytes)) this.deliver(b);
  }

  unplug(outMs: number): void {
    this.wire.outUntil = this.clock.now() + outMs;
    this.side.attach(null);
    this.lost(new Error('fuzz: cable pulled'));
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.closed) throw new Error('fuzz: port closed');
    for (const b of this.wire.harm(this.wire.toDevice, bytes)) this.side.receive(b);
    // The host waits for the answer now: a unit's receive timeout drops what is left of a damaged frame.
    this.side.lineQuiet();
  }

  protected async shutdown(): Promise<void> {
    this.side.attach(null);
  }
}

export interface DriverRig {
  protocol: DriverProtocol;
  time: VirtualTime;
  wire: FuzzWire;
  sim: Id003Simulator | SspSimulator;
  hostile: HostileId003 | HostileSsp;
  driver: BillAcceptor;
  credits: Credit[];
  events: BillAcceptorEvent[];
  /** The host's decision for each escrow id, as it was asked. */
  decisions: Map<string, EscrowDecision>;
  /** The host's decision for each note as it reaches escrow, in order (default: stack). */
  plan: EscrowDecision[];
  inserted: number[];
}

/**
 * A host that journals as the table's does: the same note asked about again (a re-sent escrow
 * report) gets the same answer. `creditTwiceFace` breaks it on purpose (the fuzz's own test).
 */
export function driverRig(
  protocol: DriverProtocol,
  options: Partial<BillAcceptorOptions> & { creditTwiceFace?: number; sspDataset?: readonly number[] } = {},
): DriverRig {
  const time = new VirtualTime();
  const wire = new FuzzWire();
  const currency = options.currency ?? 'HKD';
  const sim = protocol === 'id003' ? new Id003Simulator({ currency, keepReceived: true }) : new SspSimulator({ currency, keepReceived: true });
  const hostile = sim instanceof Id003Simulator ? new HostileId003(sim) : new HostileSsp(sim);
  const credits: Credit[] = [];
  const events: BillAcceptorEvent[] = [];
  const decisions = new Map<string, EscrowDecision>();
  const plan: EscrowDecision[] = [];
  const opener: PortOpener = async () => {
    if (time.now() < wire.outUntil) throw new Error('fuzz: no device on the bus');
    const port = new FuzzPort(hostile, wire, time.clock);
    wire.port = port;
    return port;
  };
  const { creditTwiceFace, sspDataset, ...rest } = options;
  const driverOptions: BillAcceptorOptions = {
    currency: 'HKD',
    enabled: true,
    clock: time.clock,
    pollIntervalMs: 20,
    replyTimeoutMs: 60,
    reconnectBaseMs: 10,
    reconnectMaxMs: 80,
    escrowTimeoutMs: 500,
    stackTimeoutMs: 2_000,
    onEscrow: (note: EscrowedNote): EscrowDecision => {
      const known = decisions.get(note.escrowId);
      if (known) return known;
      const d = plan.shift() ?? 'stack';
      decisions.set(note.escrowId, d);
      return d;
    },
    onCredit: (c: Credit) => {
      credits.push(c);
      if (c.denomination === creditTwiceFace) credits.push(c);
    },
    ...rest,
  };
  const driver =
    protocol === 'id003'
      ? new Id003BillAcceptor(opener, driverOptions)
      : new SspBillAcceptor(opener, { ...driverOptions, encryption: 'never', ...(sspDataset ? { dataset: sspDataset } : {}) });
  driver.on((e) => events.push(e));
  driver.start();
  return { protocol, time, wire, sim, hostile, driver, credits, events, decisions, plan, inserted: [] };
}

/** Runs until the acceptor has said it is idle and enabled. */
export function untilEnabled(r: DriverRig, budgetMs = 5_000): Promise<boolean> {
  return r.time.runUntil(() => r.events.some((e) => e.type === 'idle' && e.enabled), budgetMs);
}

/** Every inserted note is in the cashbox, back with the customer or stuck in a jam. */
export function settled(r: DriverRig): boolean {
  const s = r.sim;
  return s.cashbox.length + s.returned.length + s.jammed.length === r.inserted.length;
}

export function insert(r: DriverRig, face: number, decision: EscrowDecision = 'stack'): void {
  r.inserted.push(face);
  r.plan.push(decision);
  r.sim.insertNote(face);
}
