import { Rng } from '../../../engine/random/seeded-rng.js';
import { keyOf, TableId, type Transfer, type TransferEntry } from '../../../terms/transfer-terms.js';
import { TRANSFER_ALARMS, type TransferAlarmReason } from '../../../host/transfers/effects.js';
import type { TransferMessage } from '../../../host/transfers/messages.js';
import { reconcile } from '../../../terms/transfer-reconcile.js';
import { fold, outgoingTransfers, type StationHomes, type TransferState } from '../../../host/transfers/state.js';
import { step, type TransferEvent } from '../../../host/transfers/step.js';
import { LIES, tell, type Lie } from './lies.js';

// A seeded world of table hosts moving stations' credit between them (docs/transfers.md): each
// host with its journal (append-only; the only thing a kill leaves), a network that loses,
// repeats, delays and reorders, links cut and healed, hosts killed at any step (before their
// journal append, or after it and before they send) and started again from their journal, and —
// when asked — one host that lies in every way the protocol's messages allow. The invariants are
// checked after every step; then the faults stop and the world must settle.

/**
 * Every host's station credit limit (the table's `creditLimit`, docs/sas.md): the largest SAS can
 * say. An honest world's credits stay far below it; the liar offers past it (`offer-past-credit-limit`).
 */
export const WORLD_CREDIT_LIMIT = 99_999_999;
export interface WorldOptions {
  readonly seed: number;
  readonly hosts: 2 | 3;
  /** Steps with faults before the links heal. */
  readonly steps: number;
  /** The last host lies. */
  readonly hostile: boolean;
  /** Stations, homed round the hosts, each with credit at its home to begin with. */
  readonly stations: number;
}

export const FAULTS = ['dropped', 'duplicated', 'killed', 'killedBeforeJournal', 'killedAfterJournal', 'linkCut', 'lostToCut', 'lostToDeadHost'] as const;
export type Fault = (typeof FAULTS)[number];

export interface WorldStats {
  steps: number;
  healRounds: number;
  started: number;
  startsRefused: number;
  delivered: number;
  completed: number;
  reversed: number;
  recalls: number;
  swallowed: number;
  faults: Record<Fault, number>;
  lies: Record<Lie, number>;
  alarms: Record<TransferAlarmReason, number>;
  /** Ids the reconciliation named as a disagreement (all of them the liar's). */
  disagreements: number;
}

export function emptyStats(): WorldStats {
  return {
    steps: 0,
    healRounds: 0,
    started: 0,
    startsRefused: 0,
    delivered: 0,
    completed: 0,
    reversed: 0,
    recalls: 0,
    swallowed: 0,
    faults: Object.fromEntries(FAULTS.map((f) => [f, 0])) as Record<Fault, number>,
    lies: Object.fromEntries(LIES.map((l) => [l, 0])) as Record<Lie, number>,
    alarms: Object.fromEntries(TRANSFER_ALARMS.map((a) => [a, 0])) as Record<TransferAlarmReason, number>,
    disagreements: 0,
  };
}

/** An invariant broken: the seed, the step and what. */
export class WorldViolation extends Error {
  constructor(seed: number, at: string, what: string) {
    super(`seed ${seed}, ${at}: ${what}`);
    this.name = 'WorldViolation';
  }
}

interface Host {
  readonly id: TableId;
  readonly honest: boolean;
  readonly journal: TransferEntry[];
  /** Null while the host is down. */
  state: TransferState | null;
  /** Each station's credit at this host, kept as entries are appended (checked against the journal on restart). */
  credit: Map<number, number>;
}

interface Wire {
  readonly from: TableId;
  readonly to: TableId;
  readonly message: unknown;
}

const NAMES = ['home', 'baccarat', 'war'].map((n) => TableId.parse(n));
const CURRENCY = 'MOP';
const OPENING = 1000;

/** Station s is homed at the ((s - 1) mod hosts)th host: its credit leaves from there and comes back there. */
function homesOf(hosts: number, stations: number): StationHomes {
  const homes: Record<number, TableId> = {};
  for (let s = 1; s <= stations; s++) {
    const home = NAMES[(s - 1) % hosts];
    if (home) homes[s] = home;
  }
  return homes;
}

function creditsOf(host: { id: TableId }, journal: readonly TransferEntry[], homes: StationHomes): Map<number, number> {
  const credit = new Map<number, number>();
  for (const [s, home] of Object.entries(homes)) credit.set(Number(s), home === host.id ? OPENING : 0);
  for (const e of journal) moveCredit(credit, host.id, e);
  return credit;
}

function moveCredit(credit: Map<number, number>, self: TableId, e: TransferEntry): void {
  const add = (t: Transfer, amount: number) => credit.set(t.station, (credit.get(t.station) ?? 0) + amount);
  if (e.type === 'transfer.out' && e.payload.transfer.from === self) add(e.payload.transfer, -e.payload.transfer.amount);
  if (e.type === 'transfer.reverse' && e.payload.transfer.from === self) add(e.payload.transfer, e.payload.transfer.amount);
  if (e.type === 'transfer.in' && e.payload.transfer.to === self) add(e.payload.transfer, e.payload.transfer.amount);
}

export class World {
  readonly stats = emptyStats();
  private readonly rng: Rng;
  private readonly hosts: Host[];
  private wire: Wire[] = [];
  private readonly cut = new Set<string>();
  private readonly swallowed: Transfer[] = [];
  private readonly sentByLiar: { to: TableId; message: TransferMessage }[] = [];
  private forgedSerial = 1_000_000;
  private faulty = true;
  private at = 'start';
  private readonly homes: StationHomes;

  constructor(private readonly o: WorldOptions) {
    this.rng = Rng.fromSeed(o.seed);
    this.homes = homesOf(o.hosts, o.stations);
    this.hosts = NAMES.slice(0, o.hosts).map((id, i) => ({
      id,
      honest: !(o.hostile && i === o.hosts - 1),
      journal: [],
      state: fold(id, CURRENCY, this.homes, []),
      credit: creditsOf({ id }, [], this.homes),
    }));
  }

  /** The whole run: `steps` with faults, every invariant after each, then the links heal and every honest host's transfers must close. */
  run(): WorldStats {
    for (let i = 0; i < this.o.steps; i++) {
      this.at = `step ${i}`;
      this.oneStep();
      this.stats.steps++;
      this.check();
    }
    this.heal();
    return this.stats;
  }

  private fail(what: string): never {
    throw new WorldViolation(this.o.seed, this.at, what);
  }

  private get liar(): Host | undefined {
    return this.hosts.find((h) => !h.honest);
  }

  private oneStep(): void {
    const r = this.rng.below(100);
    const host = this.hosts[this.rng.below(this.hosts.length)];
    if (!host) return;
    if (r < 12) this.start(host);
    else if (r < 50) this.deliver();
    else if (r < 56) this.drop();
    else if (r < 61) this.duplicate();
    else if (r < 73) this.event(host, { kind: 'tick' });
    else if (r < 77) this.recall(host);
    else if (r < 80) this.kill(host);
    else if (r < 87) this.restart(host);
    else if (r < 89) this.cutLink();
    else if (r < 92) this.cut.clear();
    else if (this.liar) this.lie(this.liar);
    else this.deliver();
  }

  private start(host: Host): void {
    if (!host.state) return;
    const station = 1 + this.rng.below(this.o.stations);
    // From its home to any other table; from elsewhere, home (a station's credit goes nowhere else).
    const home = this.homes[station];
    const others = this.hosts.filter((h) => h !== host && (host.id === home || h.id === home));
    const to = others[this.rng.below(others.length)];
    if (!to) return;
    const available = host.credit.get(station) ?? 0;
    // Now and then more than the credit, which must be refused with nothing journalled.
    const amount = this.rng.below(10) === 0 ? available + 1 + this.rng.below(100) : 1 + this.rng.below(Math.max(1, Math.min(available, 600)));
    const r = this.event(host, { kind: 'start', station, to: to.id, amount, available });
    if (r === 'refused') this.stats.startsRefused++;
    else if (r === 'done') this.stats.started++;
  }

  private recall(host: Host): void {
    const open = (host.state ? outgoingTransfers(host.state) : []).filter((o) => o.phase === 'offering');
    const o = open[this.rng.below(Math.max(1, open.length))];
    if (o) {
      this.stats.recalls++;
      this.event(host, { kind: 'recall', id: o.transfer.id });
    }
  }

  /** A host takes an event: its journal is appended, then (if it lives) it sends. A kill may strike before or after the append. */
  private event(host: Host, event: TransferEvent): 'done' | 'refused' | 'down' {
    if (!host.state) return 'down';
    const r = step(host.state, event);
    const roll = this.faulty ? this.rng.below(100) : 99;
    if (roll < 2) {
      this.stats.faults.killedBeforeJournal++;
      host.state = null;
      return 'down';
    }
    for (const e of r.journal) {
      host.journal.push(e);
      moveCredit(host.credit, host.id, e);
      if (e.type === 'transfer.complete') this.stats.completed++;
      if (e.type === 'transfer.reverse') this.stats.reversed++;
    }
    if (roll < 4) {
      this.stats.faults.killedAfterJournal++;
      host.state = null;
      return 'down';
    }
    host.state = r.state;
    for (const a of r.alarms) {
      this.stats.alarms[a.reason]++;
      if (host.honest && this.hosts.find((h) => h.id === a.link)?.honest)
        this.fail(`${host.id} alarmed (${a.reason}) at its honest peer ${a.link}: ${a.detail}`);
    }
    for (const s of r.send) {
      if (!host.honest) this.sentByLiar.push(s);
      this.wire.push({ from: host.id, to: s.to, message: s.message });
    }
    return r.refused ? 'refused' : 'done';
  }

  private take(): Wire | undefined {
    if (!this.wire.length) return undefined;
    const i = this.rng.below(this.wire.length);
    const [w] = this.wire.splice(i, 1);
    return w;
  }

  private deliver(w = this.take()): void {
    if (!w) return;
    if (this.cut.has(this.linkKey(w.from, w.to))) {
      this.stats.faults.lostToCut++;
      return;
    }
    const to = this.hosts.find((h) => h.id === w.to);
    if (!to?.state) {
      this.stats.faults.lostToDeadHost++;
      return;
    }
    this.stats.delivered++;
    // The liar keeps some offers from its own journal, to lie about them.
    if (!to.honest && this.faulty && this.isOffer(w.message) && this.rng.below(4) === 0) {
      this.swallowed.push(w.message.transfer);
      this.stats.swallowed++;
      return;
    }
    this.event(to, { kind: 'receive', link: w.from, message: w.message, credit: (s) => to.credit.get(s) ?? 0, creditLimit: WORLD_CREDIT_LIMIT });
  }

  private isOffer(m: unknown): m is { kind: 'offer'; transfer: Transfer } {
    return typeof m === 'object' && m !== null && 'kind' in m && m.kind === 'offer' && 'transfer' in m;
  }

  private drop(): void {
    if (this.take()) this.stats.faults.dropped++;
  }

  private duplicate(): void {
    const w = this.wire[this.rng.below(Math.max(1, this.wire.length))];
    if (w) {
      this.wire.push(w);
      this.stats.faults.duplicated++;
    }
  }

  private linkKey(a: TableId, b: TableId): string {
    return JSON.stringify([a, b].sort());
  }

  private cutLink(): void {
    const a = this.hosts[this.rng.below(this.hosts.length)];
    const b = this.hosts[this.rng.below(this.hosts.length)];
    if (a && b && a !== b) {
      this.cut.add(this.linkKey(a.id, b.id));
      this.stats.faults.linkCut++;
    }
  }

  private kill(host: Host): void {
    if (!host.state) return;
    // What it held in memory must be exactly what its journal folds to, or a restart would differ.
    this.checkFold(host);
    host.state = null;
    this.stats.faults.killed++;
  }

  private restart(host: Host): void {
    if (host.state) return;
    host.state = fold(host.id, CURRENCY, this.homes, host.journal);
    const credit = creditsOf(host, host.journal, this.homes);
    for (const [s, c] of credit) if (host.credit.get(s) !== c) this.fail(`${host.id} station ${s}: credit ${host.credit.get(s)} kept, ${c} in the journal`);
  }

  private checkFold(host: Host): void {
    if (!host.state) return;
    const again = JSON.stringify(fold(host.id, CURRENCY, this.homes, host.journal));
    if (again !== JSON.stringify(host.state)) this.fail(`${host.id}: its state is not the fold of its journal`);
  }

  private lie(liar: Host): void {
    if (!this.faulty) return;
    const lie = LIES[this.rng.below(LIES.length)];
    if (!lie || !liar.state) return;
    const said = tell(this.rng, lie, {
      liar: liar.id,
      state: liar.state,
      offersSeen: this.swallowed,
      sent: this.sentByLiar,
      others: this.hosts.filter((h) => h.honest).map((h) => ({ table: h.id, lastSerial: h.state?.lastSerial ?? 0 })),
      forgedSerial: this.forgedSerial++,
      homes: this.homes,
      credit: (table, station) => this.hosts.find((h) => h.id === table)?.credit.get(station) ?? 0,
      creditLimit: WORLD_CREDIT_LIMIT,
    });
    if (!said) return;
    this.stats.lies[lie]++;
    this.wire.push({ from: liar.id, to: said.to, message: said.message });
  }

  /** Every invariant, over every host's journal as it stands. */
  private check(): void {
    const journals = new Map(this.hosts.map((h) => [h.id, h.journal] as const));
    const honest = new Set(this.hosts.filter((h) => h.honest).map((h) => h.id));
    // No credit taken twice, no id both taken and refused, no transfer closed twice — read off the journals themselves.
    for (const h of this.hosts) {
      if (!h.honest) continue;
      const decided = new Map<string, string>();
      const closed = new Map<string, string>();
      for (const e of h.journal) {
        if (e.type === 'transfer.in' || e.type === 'transfer.refuse') {
          const k = keyOf(e.type === 'transfer.in' ? e.payload.transfer.id : e.payload.id);
          const before = decided.get(k);
          if (before) this.fail(`${h.id} journalled ${e.type} for ${k} after ${before}`);
          decided.set(k, e.type);
        }
        if (e.type === 'transfer.complete' || e.type === 'transfer.reverse') {
          const k = keyOf(e.payload.transfer.id);
          const before = closed.get(k);
          if (before) this.fail(`${h.id} journalled ${e.type} for ${k} after ${before}`);
          closed.set(k, e.type);
        }
      }
      for (const [s, c] of h.credit) if (c < 0) this.fail(`${h.id} station ${s} has credit ${c}`);
    }
    // Money: every credit everywhere plus what is in flight, less what the reconciliation names, is what there was.
    const paired = reconcile(journals);
    // In BigInt: a liar's credit taken at the largest safe integer sums past it across the floor (seed 102155).
    let inFlight = 0n;
    let named = 0n;
    let disagreements = 0;
    for (const p of paired) {
      if (p.sender === 'open' && p.receiver !== 'taken') inFlight += BigInt(p.transfer.amount);
      const involvesLiar = !honest.has(p.transfer.from) || !honest.has(p.transfer.to) || !honest.has(p.id.origin);
      if (p.disagreements.length) {
        disagreements++;
        if (!involvesLiar) this.fail(`${keyOf(p.id)} between honest hosts: ${p.disagreements.join(', ')}`);
        named += BigInt(p.net);
      } else if (p.net !== 0) this.fail(`${keyOf(p.id)} made ${p.net} and the reconciliation did not name it`);
    }
    this.stats.disagreements = disagreements;
    let credits = 0n;
    for (const h of this.hosts) for (const c of h.credit.values()) credits += BigInt(c);
    const opening = BigInt(this.o.stations * OPENING);
    if (credits + inFlight - named !== opening) this.fail(`credits ${credits} + in flight ${inFlight} - named ${named} != ${opening}`);
  }

  /** The faults stop, every host comes back, the links heal, the liar says only what its journal says: every honest host's transfers must close. */
  private heal(): void {
    this.faulty = false;
    this.cut.clear();
    for (const h of this.hosts) this.restart(h);
    for (let round = 1; round <= 20; round++) {
      this.at = `heal round ${round}`;
      this.stats.healRounds = round;
      for (const h of this.hosts) this.event(h, { kind: 'tick' });
      while (this.wire.length) this.deliver();
      this.check();
      const open = this.hosts
        .filter((h) => h.honest)
        // A transfer disputed by a liar's "taken" on other terms is a person's to settle: held in flight, asked about no more.
        .flatMap((h) => (h.state ? outgoingTransfers(h.state) : []).filter((o) => (o.phase === 'offering' || o.phase === 'recalling') && !o.disputed));
      if (!open.length) {
        for (const h of this.hosts) this.checkFold(h);
        return;
      }
    }
    this.fail('transfers of honest hosts still open 20 rounds after the links healed');
  }
}
