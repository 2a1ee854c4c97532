// Model-based fuzzing of the bill acceptor drivers (ID-003, SSP): fast-check's `fc.commands` drive
// a real driver against a hostile device (hostile-acceptor.ts: the honest simulator's mechanism,
// which decides where each note physically goes, behind firmware that lies in every way its
// protocol's messages allow) through a wire that garbles, truncates, drops and duplicates frames
// in both directions, adds noise, and is unplugged mid-frame and plugged back; notes are inserted,
// stacked or returned by the host's decision, and virtual time passes (virtual-time.ts). After the
// commands the wire heals, the device stops lying, and the run goes on until every note is in the
// cashbox, back with the customer or jammed. What must then hold:
// - every credit is for a note the driver reported in escrow and the host told to stack, at that
//   note's value, once, and never after the driver said the device broke its protocol over it;
// - no credit the cashbox does not hold (credits ⊆ cashbox, as faces);
// - a note in the cashbox with no credit only ever comes with a `protocolViolation` or an
//   `unvaluedCredit` (the host shows and journals it);
// - with no lie told: the credits are exactly the cashbox, and no violation is reported;
// - every event of the event model, with a reason where it has one; nothing thrown out of the driver.
import fc from 'fast-check';
import type { BillAcceptorEvent, EscrowDecision } from '../../hardware/billacceptor/types.js';
import { HostileId003, type Id003Lie, type SspLie } from './hostile-acceptor.js';
import { HARMS, driverRig, insert, settled, untilEnabled, type DriverProtocol, type DriverRig, type WireHarm } from './driver-rig.js';
import { id003Lies, sspLies } from './lies.js';

export type { DriverProtocol } from './driver-rig.js';

/** The faces the simulators know in HKD (and one they do not: refused by the validator). */
const FACES = [10, 20, 50, 100, 500, 1000, 7] as const;
/** The HKD validator's channels, 1 first (the simulator's dataset). */
const SSP_DATASET = [10, 20, 50, 100, 500, 1000];
/** The table takes every HKD note but the 1000, which the unit is told to inhibit (a lie may ignore that). */
const ACCEPT = [10, 20, 50, 100, 500];

interface Model {
  inserted: number;
}

type Cmd = fc.AsyncCommand<Model, DriverRig>;

class InsertNote implements Cmd {
  constructor(
    readonly face: number,
    readonly decision: EscrowDecision,
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.inserted < 5;
  }
  async run(m: Model, r: DriverRig): Promise<void> {
    m.inserted++;
    insert(r, this.face, this.decision);
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
  async run(_m: Model, r: DriverRig): Promise<void> {
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
  async run(_m: Model, r: DriverRig): Promise<void> {
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
  async run(_m: Model, r: DriverRig): Promise<void> {
    await r.time.runFor(this.ms);
  }
  toString(): string {
    return `wait(${this.ms})`;
  }
}

/** The device is told to lie at its next opportunity (it may withhold a lie no driver could see through). */
class Lie implements Cmd {
  constructor(readonly lie: Id003Lie | SspLie) {}
  check(): boolean {
    return true;
  }
  async run(_m: Model, r: DriverRig): Promise<void> {
    if (r.hostile instanceof HostileId003) r.hostile.tell(this.lie as Id003Lie);
    else r.hostile.tell(this.lie as SspLie);
    await r.time.runFor(10);
  }
  toString(): string {
    return `lie(${JSON.stringify(this.lie)})`;
  }
}

const common = [
  fc.tuple(fc.constantFrom(...FACES), fc.constantFrom<EscrowDecision>('stack', 'stack', 'stack', 'return')).map(([f, d]) => new InsertNote(f, d)),
  fc.tuple(fc.constantFrom<'to-host' | 'to-device'>('to-host', 'to-device'), fc.constantFrom(...HARMS)).map(([d, h]) => new Harm(d, h)),
  fc.integer({ min: 0, max: 12 }).map((n) => new UnplugMidFrame(n)),
  fc.integer({ min: 1, max: 400 }).map((ms) => new Wait(ms)),
];

function commandsFor(protocol: DriverProtocol, hostile: boolean) {
  const lies = protocol === 'id003' ? id003Lies : sspLies;
  return fc.commands<Model, DriverRig, false>(hostile ? [...common, lies.map((l) => new Lie(l)), lies.map((l) => new Lie(l))] : common, {
    maxCommands: 24,
  });
}

/**
 * A deliberately broken host, for the fuzzer's own test: its credit handler records every
 * credit of a note of this face twice, which the invariants must catch.
 */
export interface Sabotage {
  creditTwiceFace?: number;
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
  'protocolViolation',
  // Barcode tickets (ID-003 0x6F): the fuzz's table takes none, so only a refusal may be said.
  'ticketRefused',
]);

function multiset(xs: readonly number[]): string {
  return [...xs].sort((a, b) => a - b).join(',');
}

/** Whether `small` ⊆ `big`, as multisets. */
function within(small: readonly number[], big: readonly number[]): boolean {
  const left = [...big];
  for (const x of small) {
    const i = left.indexOf(x);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/** The invariants once the wire has healed and the notes have settled; a list of what broke. */
function invariants(r: DriverRig, isSettled: boolean): string[] {
  const out: string[] = [];
  const cash = r.sim.cashbox;
  const faces = r.credits.map((c) => c.denomination);
  const lied = r.hostile.log.told.length > 0;
  const trail = () =>
    `inserted [${r.inserted.join(',')}], cashbox [${cash.join(',')}], returned [${r.sim.returned.join(',')}], jammed [${r.sim.jammed.join(',')}], credits [${faces.join(',')}], lies told ${JSON.stringify(r.hostile.log.told)}`;
  if (!isSettled) out.push(`did not settle: ${trail()}`);
  // Every credit: a note the driver escrowed and the host told to stack, at its value, once.
  const escrowed = new Map<string, { denomination: number; amount: number; currency: string }>();
  const disputed = new Set<string>();
  const credited = new Set<string>();
  for (const e of r.events) {
    if (e.type === 'escrowed') escrowed.set(e.note.escrowId, e.note);
    if (e.type === 'protocolViolation' && e.note) disputed.add(e.note.escrowId);
    if (e.type !== 'credit') continue;
    const n = escrowed.get(e.escrowId);
    if (!n) out.push(`credit ${e.escrowId} (${e.denomination}) for a note never reported in escrow`);
    else if (n.denomination !== e.denomination || n.amount !== e.amount || n.currency !== e.currency)
      out.push(`credit ${e.escrowId} of ${e.denomination} ${e.currency} for a note escrowed as ${n.denomination} ${n.currency}`);
    if (r.decisions.get(e.escrowId) !== 'stack')
      out.push(`credit ${e.escrowId} for a note the host did not tell to stack (${r.decisions.get(e.escrowId) ?? 'never asked'})`);
    if (disputed.has(e.escrowId)) out.push(`credit ${e.escrowId} after the driver reported a violation over it`);
    if (credited.has(e.escrowId)) out.push(`note ${e.escrowId} credited twice`);
    credited.add(e.escrowId);
  }
  if (new Set(r.credits.map((c) => c.escrowId)).size !== r.credits.length) out.push(`a note credited twice: ${r.credits.map((c) => c.escrowId).join(',')}`);
  for (const c of r.credits) if (c.amount !== c.denomination * 100) out.push(`credit ${c.escrowId}: amount ${c.amount} for a ${c.denomination} note`);
  // The cashbox holds every credit; a note in it uncredited is shown and journalled, never silent.
  if (!within(faces, cash)) out.push(`credits the cashbox does not hold: ${trail()}`);
  const flagged = r.events.some((e) => e.type === 'protocolViolation' || e.type === 'unvaluedCredit');
  if (!within(cash, faces) && !flagged) out.push(`a note in the cashbox with no credit and no violation: ${trail()}`);
  if (!lied) {
    if (multiset(faces) !== multiset(cash)) out.push(`no lie told, yet the credits are not the cashbox: ${trail()}`);
    const v = r.events.find((e) => e.type === 'protocolViolation' || e.type === 'unvaluedCredit');
    if (v) out.push(`no lie told, yet the driver reported ${JSON.stringify(v)}: ${trail()}`);
  }
  for (const e of r.events) {
    if (!TYPED.has(e.type)) out.push(`an event outside the model: ${JSON.stringify(e)}`);
    if (
      (e.type === 'rejected' || e.type === 'failure' || e.type === 'disconnected' || e.type === 'unvaluedCredit') &&
      (typeof e.reason !== 'string' || e.reason === '')
    )
      out.push(`a ${e.type} without a reason: ${JSON.stringify(e)}`);
    if (e.type === 'protocolViolation' && e.report === '') out.push(`a violation that does not say what the device reported: ${JSON.stringify(e)}`);
    if (e.type === 'ticketRefused' && e.reason !== 'tickets-off') out.push(`a ticket refused for ${e.reason} at a table that takes none: ${JSON.stringify(e)}`);
  }
  return out;
}

/** Tells the driver's host about the case's counts (the campaign prints how many cases lied). */
export interface CaseCounts {
  cases: number;
  lying: number;
  liesTold: number;
  liesWithheld: number;
  violations: number;
}

/** One case: the commands, the wire healed and the device honest, the notes settled, the invariants. */
async function runCase(protocol: DriverProtocol, cmds: Iterable<Cmd>, sabotage: Sabotage, counts?: CaseCounts): Promise<void> {
  const r = driverRig(protocol, {
    accept: ACCEPT,
    // The table's SSP dataset is configured, as docs/security.md asks: a lying dataset is then always one the driver can catch.
    ...(protocol === 'ssp' ? { sspDataset: SSP_DATASET } : {}),
    ...(sabotage.creditTwiceFace !== undefined ? { creditTwiceFace: sabotage.creditTwiceFace } : {}),
  });
  const thrown: unknown[] = [];
  const onUnhandled = (e: unknown) => thrown.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    await untilEnabled(r);
    await fc.asyncModelRun(() => ({ model: { inserted: 0 }, real: r }), cmds);
    r.wire.healed = true;
    r.hostile.honest = true;
    const done = await r.time.runUntil(() => settled(r), 60_000);
    // A little longer: a late duplicate credit, or the host's verdict on a note, would show now.
    await r.time.runFor(3_000);
    const broken = invariants(r, done);
    for (const t of thrown) broken.push(`thrown out of the driver: ${t instanceof Error ? (t.stack ?? t.message) : String(t)}`);
    if (counts) {
      counts.cases++;
      if (r.hostile.log.told.length) counts.lying++;
      counts.liesTold += r.hostile.log.told.length;
      counts.liesWithheld += r.hostile.log.withheld.length;
      counts.violations += r.events.filter((e) => e.type === 'protocolViolation').length;
    }
    if (broken.length > 0) throw new Error(`${protocol}: ${broken.join('\n')}`);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await r.driver.close();
  }
}

/**
 * `numRuns` cases of one driver's model-based fuzz from `seed`; throws fast-check's report on a
 * failure. `hostile: false` draws no lies (the lossy wire alone).
 */
export async function fuzzDriver(
  protocol: DriverProtocol,
  numRuns: number,
  seed: number,
  opts: { sabotage?: Sabotage; path?: string; hostile?: boolean; counts?: CaseCounts } = {},
): Promise<void> {
  const { sabotage = {}, path, hostile = true, counts } = opts;
  // fast-check's report names the seed, the path and the shrunk commands; what broke is its cause.
  const details = await fc.check(
    fc.asyncProperty(commandsFor(protocol, hostile), (cmds) => runCase(protocol, cmds, sabotage, counts)),
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
  | { insert: number; decision: EscrowDecision }
  | { harm: WireHarm; direction: 'to-host' | 'to-device' }
  | { unplugAfter: number }
  | { wait: number }
  | { lie: Id003Lie | SspLie };

/** Runs one written case through the same wire, device, settling and invariants as the fuzzer's. */
export async function runDriverScript(protocol: DriverProtocol, script: readonly ScriptStep[]): Promise<void> {
  const cmds = script.map((s): Cmd => {
    if ('insert' in s) return new InsertNote(s.insert, s.decision);
    if ('harm' in s) return new Harm(s.direction, s.harm);
    if ('unplugAfter' in s) return new UnplugMidFrame(s.unplugAfter);
    if ('lie' in s) return new Lie(s.lie);
    return new Wait(s.wait);
  });
  await runCase(protocol, cmds, {});
}
