// Model-based fuzzing of the bill acceptor drivers (ID-003, SSP): fast-check's `fc.commands` drive
// a real driver against its byte-level simulator through a wire that garbles, truncates, drops
// and duplicates frames in both directions (a lost ACK is a dropped host frame), adds noise, and
// is unplugged mid-frame and plugged back; notes are inserted, stacked or returned by the host's
// decision, and virtual time passes (tests/fuzz/virtual-time.ts). After the commands, the wire
// heals and the run goes on until every note is in the cashbox or back with the customer. Then:
// the credits are exactly the cashbox (no note credited wrongly, none twice, none lost), every
// returned note uncredited, every event of the event model with a typed reason, and nothing
// thrown out of the driver.
import fc from 'fast-check';
import type { Clock } from '../../hardware/clock.js';
import { Id003BillAcceptor } from '../../hardware/billacceptor/id003/driver.js';
import { Id003Simulator } from '../../hardware/billacceptor/id003/simulator.js';
import { SspBillAcceptor } from '../../hardware/billacceptor/ssp/driver.js';
import { SspSimulator } from '../../hardware/billacceptor/ssp/simulator.js';
import type { BillAcceptor, BillAcceptorEvent, Credit, EscrowDecision, EscrowedNote } from '../../hardware/billacceptor/types.js';
import type { DeviceSide } from '../../hardware/sim/device-side.js';
import { BasePort, type PortOpener } from '../../hardware/transport/byte-port.js';
import { VirtualTime } from './virtual-time.js';

export type DriverProtocol = 'id003' | 'ssp';
/** What the wire does to the next chunk of bytes in one direction. */
export type WireHarm = 'garble' | 'truncate' | 'drop' | 'duplicate' | 'noise';
const HARMS: readonly WireHarm[] = ['garble', 'truncate', 'drop', 'duplicate', 'noise'];
/** The faces the simulators know in HKD (and one they do not: refused by the validator). */
const FACES = [10, 20, 50, 100, 500, 1000, 7] as const;

/** A wire between the driver and the simulator that the commands damage. */
class FuzzWire {
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

class FuzzPort extends BasePort {
  readonly description = 'fuzzed wire';

  constructor(
    private readonly side: DeviceSide,
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
  }

  protected async shutdown(): Promise<void> {
    this.side.attach(null);
  }
}

interface Real {
  protocol: DriverProtocol;
  time: VirtualTime;
  wire: FuzzWire;
  sim: Id003Simulator | SspSimulator;
  driver: BillAcceptor;
  credits: Credit[];
  events: BillAcceptorEvent[];
  decisions: Map<string, EscrowDecision>;
  /** The host's decision for each note as it reaches escrow, in order. */
  plan: EscrowDecision[];
  inserted: number[];
  thrown: unknown[];
}

interface Model {
  inserted: number;
}

type Cmd = fc.AsyncCommand<Model, Real>;

class InsertNote implements Cmd {
  constructor(
    readonly face: number,
    readonly decision: EscrowDecision,
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.inserted < 5;
  }
  async run(m: Model, r: Real): Promise<void> {
    m.inserted++;
    r.inserted.push(this.face);
    r.plan.push(this.decision);
    r.sim.insertNote(this.face);
    await r.time.runFor(20);
  }
  toString(): string {
    return `insert(${this.face}, ${this.decision})`;
  }
}

class Harm implements Cmd {
  constructor(
    readonly direction: 'to-host' | 'to-device',
    readonly harm: WireHarm,
  ) {}
  check(): boolean {
    return true;
  }
  async run(_m: Model, r: Real): Promise<void> {
    (this.direction === 'to-host' ? r.wire.toHost : r.wire.toDevice).push(this.harm);
    await r.time.runFor(5);
  }
  toString(): string {
    return `${this.harm}(${this.direction})`;
  }
}

class UnplugMidFrame implements Cmd {
  constructor(readonly afterBytes: number) {}
  check(): boolean {
    return true;
  }
  async run(_m: Model, r: Real): Promise<void> {
    r.wire.cutAt = this.afterBytes;
    await r.time.runFor(60);
  }
  toString(): string {
    return `unplug-after(${this.afterBytes})`;
  }
}

class Wait implements Cmd {
  constructor(readonly ms: number) {}
  check(): boolean {
    return true;
  }
  async run(_m: Model, r: Real): Promise<void> {
    await r.time.runFor(this.ms);
  }
  toString(): string {
    return `wait(${this.ms})`;
  }
}

const commands = fc.commands<Model, Real, false>(
  [
    fc.tuple(fc.constantFrom(...FACES), fc.constantFrom<EscrowDecision>('stack', 'stack', 'stack', 'return')).map(([f, d]) => new InsertNote(f, d)),
    fc.tuple(fc.constantFrom<'to-host' | 'to-device'>('to-host', 'to-device'), fc.constantFrom(...HARMS)).map(([d, h]) => new Harm(d, h)),
    fc.integer({ min: 0, max: 12 }).map((n) => new UnplugMidFrame(n)),
    fc.integer({ min: 1, max: 400 }).map((ms) => new Wait(ms)),
  ],
  { maxCommands: 24 },
);

/**
 * A deliberately broken host, for the fuzzer's own test: its credit handler records every
 * credit of a note of this face twice, which the invariants must catch.
 */
export interface Sabotage {
  creditTwiceFace?: number;
}

function setup(protocol: DriverProtocol, sabotage: Sabotage): Real {
  const time = new VirtualTime();
  const wire = new FuzzWire();
  const sim = protocol === 'id003' ? new Id003Simulator({ currency: 'HKD' }) : new SspSimulator({ currency: 'HKD' });
  const credits: Credit[] = [];
  const events: BillAcceptorEvent[] = [];
  const decisions = new Map<string, EscrowDecision>();
  const plan: EscrowDecision[] = [];
  const thrown: unknown[] = [];
  const opener: PortOpener = async () => {
    if (time.now() < wire.outUntil) throw new Error('fuzz: no device on the bus');
    const port = new FuzzPort(sim, wire, time.clock);
    wire.port = port;
    return port;
  };
  const options = {
    currency: 'HKD' as const,
    enabled: true,
    clock: time.clock,
    pollIntervalMs: 20,
    replyTimeoutMs: 60,
    reconnectBaseMs: 10,
    reconnectMaxMs: 80,
    escrowTimeoutMs: 500,
    // The same note reported in escrow again (a re-sent status) gets the same decision.
    onEscrow: (note: EscrowedNote): EscrowDecision => {
      const known = decisions.get(note.escrowId);
      if (known) return known;
      const d = plan.shift() ?? 'stack';
      decisions.set(note.escrowId, d);
      return d;
    },
    onCredit: (c: Credit) => {
      credits.push(c);
      if (c.denomination === sabotage.creditTwiceFace) credits.push(c);
    },
  };
  const driver = protocol === 'id003' ? new Id003BillAcceptor(opener, options) : new SspBillAcceptor(opener, { ...options, encryption: 'never' as const });
  driver.on((e) => events.push(e));
  driver.start();
  return { protocol, time, wire, sim, driver, credits, events, decisions, plan, inserted: [], thrown };
}

const TYPED = new Set<BillAcceptorEvent['type']>([
  'connected',
  'escrowed',
  'stacking',
  'credit',
  'stacked',
  'returned',
  'rejected',
  'jam',
  'stackerFull',
  'stackerRemoved',
  'stackerReplaced',
  'cheated',
  'failure',
  'faultCleared',
  'idle',
  'disconnected',
  'reconnected',
  'powerUp',
  'unvaluedCredit',
]);

function multiset(xs: readonly number[]): string {
  return [...xs].sort((a, b) => a - b).join(',');
}

/** The invariants once the wire has healed and the notes have settled; a list of what broke. */
function invariants(r: Real, settled: boolean): string[] {
  const out: string[] = [];
  const cash = r.sim.cashbox;
  if (!settled)
    out.push(
      `did not settle: inserted [${r.inserted.join(',')}], cashbox [${cash.join(',')}], returned [${r.sim.returned.join(',')}], jammed [${r.sim.jammed.join(',')}], credits [${r.credits.map((c) => c.denomination).join(',')}]`,
    );
  if (multiset(r.credits.map((c) => c.denomination)) !== multiset(cash))
    out.push(`credits [${r.credits.map((c) => c.denomination).join(',')}] are not the cashbox [${cash.join(',')}]`);
  if (new Set(r.credits.map((c) => c.escrowId)).size !== r.credits.length) out.push(`a note credited twice: ${r.credits.map((c) => c.escrowId).join(',')}`);
  for (const c of r.credits) if (c.amount !== c.denomination * 100) out.push(`credit ${c.escrowId}: amount ${c.amount} for a ${c.denomination} note`);
  for (const [id, d] of r.decisions)
    if (d === 'return' && r.credits.some((c) => c.escrowId === id)) out.push(`note ${id} was returned by the host and credited`);
  for (const e of r.events) {
    if (!TYPED.has(e.type)) out.push(`an event outside the model: ${JSON.stringify(e)}`);
    if (
      (e.type === 'rejected' || e.type === 'failure' || e.type === 'disconnected' || e.type === 'unvaluedCredit') &&
      (typeof e.reason !== 'string' || e.reason === '')
    )
      out.push(`a ${e.type} without a reason: ${JSON.stringify(e)}`);
  }
  for (const t of r.thrown) out.push(`thrown out of the driver: ${t instanceof Error ? (t.stack ?? t.message) : String(t)}`);
  return out;
}

/** One case: the commands, the wire healed, the notes settled, the invariants. */
async function runCase(protocol: DriverProtocol, cmds: Iterable<Cmd>, sabotage: Sabotage): Promise<void> {
  const r = setup(protocol, sabotage);
  const onUnhandled = (e: unknown) => r.thrown.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    await r.time.runUntil(() => r.events.some((e) => e.type === 'idle' && e.enabled), 5_000);
    await fc.asyncModelRun(() => ({ model: { inserted: 0 }, real: r }), cmds);
    r.wire.healed = true;
    const done = () => {
      const s = r.sim;
      return s.cashbox.length + s.returned.length + s.jammed.length === r.inserted.length && r.credits.length >= s.cashbox.length;
    };
    const settled = await r.time.runUntil(done, 60_000);
    // A little longer: a late duplicate credit would show now.
    await r.time.runFor(1_000);
    const broken = invariants(r, settled);
    if (broken.length > 0) throw new Error(`${protocol}: ${broken.join('\n')}`);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await r.driver.close();
  }
}

/** `numRuns` cases of one driver's model-based fuzz from `seed`; throws fast-check's report on a failure. */
export async function fuzzDriver(protocol: DriverProtocol, numRuns: number, seed: number, sabotage: Sabotage = {}, path?: string): Promise<void> {
  // fast-check's report names the seed, the path and the shrunk commands; what broke is its cause.
  const details = await fc.check(
    fc.asyncProperty(commands, (cmds) => runCase(protocol, cmds, sabotage)),
    { numRuns, seed, ...(path !== undefined ? { path } : {}) },
  );
  if (details.failed) {
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(
      `${protocol}: failed after ${details.numRuns} case(s), seed ${details.seed}, path "${details.counterexamplePath ?? ''}"\n` +
        `commands: ${details.counterexample ? String(details.counterexample[0]) : '?'}\n${cause}`,
    );
  }
}

/** One step of a written case (a finding kept as a regression test, or a counterexample replayed). */
export type ScriptStep =
  { insert: number; decision: EscrowDecision } | { harm: WireHarm; direction: 'to-host' | 'to-device' } | { unplugAfter: number } | { wait: number };

/** Runs one written case through the same wire, settling and invariants as the fuzzer's. */
export async function runDriverScript(protocol: DriverProtocol, script: readonly ScriptStep[]): Promise<void> {
  const cmds = script.map((s): Cmd => {
    if ('insert' in s) return new InsertNote(s.insert, s.decision);
    if ('harm' in s) return new Harm(s.direction, s.harm);
    if ('unplugAfter' in s) return new UnplugMidFrame(s.unplugAfter);
    return new Wait(s.wait);
  });
  await runCase(protocol, cmds, {});
}
