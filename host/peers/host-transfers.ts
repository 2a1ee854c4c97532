import type { Logger } from 'pino';
import type { Outcome } from '../../engine/table/game.js';
import type { RefusalReason } from '../../engine/table/vocabulary.js';
import { TableId, type TransferId, type TransferSettlement } from '../../terms/transfer-terms.js';
import {
  MAX_OPEN_SHOWN,
  MAX_STATION_TRANSFERS,
  REMOTE_STATION_BASE,
  type ServicePage,
  type StationTransfer,
  type StationTransfers,
  type TransferCommand,
} from '../../protocol/index.js';
import type { TransferAlarm } from '../transfers/effects.js';
import type { TransferJournal } from '../transfers/journal.js';
import { incomingDecisions, outgoingOf, outgoingTransfers, type Outgoing, type StationHomes } from '../transfers/state.js';
import { startTransfer as startRefusal, type SettleRefusal, type StartRefusal } from '../transfers/sender.js';
import { TransferHost } from '../transfers/transfer-host.js';
import { homeOf, type Peer, type PeersFile } from './peer-config.js';
import type { PeerCredentials } from './peer-credentials.js';
import { PeerLink } from './peer-link.js';
import { PeerListener } from './peer-listener.js';

export interface HostTransfersOptions {
  readonly self: TableId;
  readonly currency: string;
  /** The table's ledger (LedgerTransferJournal): every transfer entry beside every other credit. */
  readonly journal: TransferJournal;
  readonly peers: PeersFile;
  /** The table's remote stations (101…): the stations a transfer may name here, each homed here unless a peer's list names it. */
  readonly stations: readonly number[];
  readonly credentials: PeerCredentials;
  readonly log: Logger;
  /** Whether the station has chips on a spot or bets in play at this table now. */
  readonly betsInPlay: (station: number) => boolean;
  /** Each alarm, once journalled (the event log shows it); the host also logs it. */
  readonly onAlarm?: (a: TransferAlarm) => void;
  /** Each change to the transfers (the station screens show them). */
  readonly onChange?: () => void;
  /**
   * Whether transfers with the peer table may go on now (host/peers/peer-guard.ts: its files are
   * the journal's), asked before every step with it: a link's hello and messages, each message
   * sent, each station's request, each tick. Absent: every peer of `peers` (tests, the bench).
   */
  readonly admits?: (table: TableId) => boolean;
  /**
   * The most a station's credit here may hold (the table's `creditLimit`): an offer past it is refused
   * `credit-limit`. Absent: no limit. What a station holds is measured by the journal (`held`).
   */
  readonly creditLimit?: () => number;
  /** Whether a station is under the casino system's AFT game lock now (docs/sas.md, "The game lock"): an offer to it, and the reversal of a move out of it, wait. Absent: none is. */
  readonly locked?: (station: number) => boolean;
}

/**
 * Each remote station of this table and its home: the peer whose list names it, else this table.
 * A station a peer lists that this table does not have is left out (nothing may be credited to
 * it here), and so is every seated station: a seat's number is each table's own, not the floor's.
 */
export function stationHomes(self: TableId, peers: PeersFile, stations: readonly number[]): StationHomes {
  return Object.fromEntries(stations.filter((s) => s > REMOTE_STATION_BASE).map((s) => [s, homeOf(self, peers.peers, s)]));
}

/** A start the transfer machine refused, as the station's screen is told it. */
const START_REFUSALS = {
  'insufficient-credit': 'over-credit',
  'bad-amount': 'over-credit',
  'bad-currency': 'over-credit',
  'to-self': 'unknown-table',
  'unknown-station': 'not-a-station',
  'away-to-away': 'not-home-table',
  'too-many-open': 'transfers-open',
} as const satisfies Record<StartRefusal, RefusalReason>;

/** A peer whose files are not the journal's (the peer-integrity fault is raised): no credit moves to or from it. */
function refusedPeer(table: TableId): Outcome {
  return { ok: false, reason: `peer table ${table} is refused: its files are not the ones journalled`, refusal: 'unknown-table' };
}

/** How often the host asks again about its open transfers, and how long it waits before it recalls one. */
export const DEFAULT_TICK_MS = 1_000;
export const DEFAULT_RECALL_AFTER_MS = 60_000;

/**
 * A table host's transfers, wired: the pure protocol over the table's ledger (TransferHost), its
 * messages over the links this host dials to its peers, the links its peers dial in handed to it
 * (PeerListener), a tick, and the stations' two commands. Each table's rules stay its own: the
 * credit that arrives is the station's credit at this table, bet under this table's limits.
 */
export class HostTransfers {
  readonly host: TransferHost;
  readonly listener: PeerListener;
  readonly links = new Map<TableId, PeerLink>();
  private timer: NodeJS.Timeout | null = null;
  /** The peers as this run knows them: those of the files at start, changed by two people in service mode (enrol, remove). */
  private peers: PeersFile;
  /** Started (its links dialled): a peer enrolled afterwards is dialled at once. */
  private started = false;
  /** When each open transfer was first seen open by this run, on the monotonic clock (a restart waits again: it recalls later, never earlier). */
  private readonly openSince = new Map<string, number>();
  /** When this run first saw each of its transfers recalling (by serial): a receiver silent past the recall time since cannot answer. */
  private readonly recallingSince = new Map<number, number>();
  private readonly watchers: (() => void)[] = [];
  readonly counters = { started: 0, recalledLate: 0, sentHome: 0 };

  constructor(private readonly o: HostTransfersOptions) {
    this.peers = o.peers;
    this.host = new TransferHost({
      self: o.self,
      currency: o.currency,
      homes: stationHomes(o.self, o.peers, o.stations),
      journal: o.journal,
      ...(o.creditLimit ? { creditLimit: o.creditLimit } : {}),
      ...(o.locked ? { locked: o.locked } : {}),
      send: (out) => {
        const link = this.links.get(out.to);
        if (!this.admits(out.to)) o.log.warn({ to: out.to }, 'a transfer message for a peer table refused by its files: not sent');
        else if (link) link.send(out.message);
        else o.log.warn({ to: out.to }, 'a transfer message for a table that is not a peer: not sent');
      },
      alarm: (a) => {
        o.log.error(
          { link: a.link, reason: a.reason, id: a.id, detail: a.detail },
          'transfer alarm: a peer table said what its link or the journal does not allow',
        );
        o.onAlarm?.(a);
      },
    });
    this.listener = new PeerListener({
      self: o.self,
      credentials: o.credentials,
      log: o.log,
      admits: (table) => this.admits(table),
      onMessage: (link, message) => this.guard(() => this.host.receive(link, message)),
    });
    for (const p of o.peers.peers) this.links.set(p.enrolment.table, new PeerLink({ self: o.self, peer: p.enrolment, log: o.log }));
  }

  start(): void {
    this.started = true;
    for (const l of this.links.values()) l.start();
    const tickMs = this.peers.tickMs ?? DEFAULT_TICK_MS;
    this.timer = setInterval(() => this.tick(), tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.started = false;
    for (const l of this.links.values()) l.stop();
    // The ledger is still open (shutdown closes it after): what the alarm budget held back is journalled.
    this.host.sumUpAll();
  }

  /**
   * A peer enrolled (or enrolled again) by two people in service mode, its files journalled and
   * written: dialled at once with what its enrolment file says, let in with the credential the
   * files now hold for it, and its stations homed there (before, only from the next start).
   */
  enrol(peer: Peer): void {
    const table = peer.enrolment.table;
    this.links.get(table)?.stop();
    this.listener.disconnect(table);
    this.o.credentials.reload(table);
    this.peers = { ...this.peers, peers: [...this.peers.peers.filter((p) => p.enrolment.table !== table), peer] };
    this.host.rehome(stationHomes(this.o.self, this.peers, this.o.stations));
    const link = new PeerLink({ self: this.o.self, peer: peer.enrolment, log: this.o.log });
    this.links.set(table, link);
    if (this.started) link.start();
  }

  /**
   * The credential `table` dials this host with was made anew or withdrawn in service mode (its
   * change journalled, its file written or not): taken as the file now holds it if the file is the
   * journal's (else none: a withdrawal whose write failed leaves the old secret in the file), and
   * the peer's link into this host closed at once (it dials again with the new secret, or not at all).
   */
  dialIn(table: TableId): void {
    this.o.credentials.reload(table);
    if (!this.admits(table)) this.o.credentials.withhold(table);
    this.listener.disconnect(table);
  }

  /** Whether this host's link to the peer is up, and the peer's link into it. */
  linkState(table: TableId): { out: boolean; in: boolean } {
    return { out: this.links.get(table)?.connected() ?? false, in: this.listener.connected(table) };
  }

  /** A peer removed in service mode: its link closed, its credential forgotten; nothing more is sent to it or taken from it. */
  drop(table: TableId): void {
    this.links.get(table)?.stop();
    this.links.delete(table);
    this.o.credentials.withhold(table);
    this.listener.disconnect(table);
    this.peers = { ...this.peers, peers: this.peers.peers.filter((p) => p.enrolment.table !== table) };
    this.host.rehome(stationHomes(this.o.self, this.peers, this.o.stations));
  }

  /**
   * How many transfers this table debited to `table` are open and awaiting its answer (offering or
   * recalling, not disputed: a disputed one waits for a person, whatever the peer says next).
   */
  openTo(table: TableId): number {
    return outgoingTransfers(this.host.state).filter(
      (o) => o.transfer.to === table && (o.phase === 'offering' || o.phase === 'recalling') && o.disputed === undefined,
    ).length;
  }

  /**
   * Whether the receiver may still answer the open transfer `o`: until it has been recalled (the
   * host recalls an offer unanswered for the recall time, links up or not) and then left silent
   * for the recall time again, on this run's clock. Links say nothing here: a receiver whose link
   * is down may be restarting with the credit journalled and its "taken" lost (a review: settled
   * at once, the station had the credit at both tables), and one whose link is up may never answer
   * (a liar holding the credit in flight for ever). A restart waits again: later, never earlier.
   */
  private answers(o: Outgoing): boolean {
    if (o.phase !== 'recalling') return true;
    const since = this.recallingSince.get(o.transfer.id.serial);
    return since === undefined || performance.now() - since < this.recallAfterMs();
  }

  private recallAfterMs(): number {
    return (this.peers.recallAfterSeconds ?? DEFAULT_RECALL_AFTER_MS / 1000) * 1000;
  }

  /** This table's open transfers as the Peers page lists them, the oldest first. */
  openRows(): Extract<ServicePage, { page: 'peers' }>['open'] {
    return outgoingTransfers(this.host.state)
      .filter((o) => o.phase === 'offering' || o.phase === 'recalling')
      .slice(0, MAX_OPEN_SHOWN)
      .map((o) => {
        const answers = this.answers(o);
        return {
          serial: o.transfer.id.serial,
          station: o.transfer.station,
          to: o.transfer.to,
          amount: o.transfer.amount,
          phase: o.phase === 'offering' ? ('offering' as const) : ('recalling' as const),
          disputed: o.disputed?.amount ?? null,
          answers,
          settleable: o.disputed !== undefined || !answers,
        };
      });
  }

  /**
   * Two people close this table's open transfer `serial` (service mode): journalled as its
   * closing with their names, only when it is disputed or its receiver cannot answer.
   */
  settle(serial: number, as: 'completed' | 'reversed', settled: TransferSettlement): { ok: true } | { ok: false; refused: SettleRefusal | 'ledger' } {
    const id = { origin: this.o.self, serial };
    const o = outgoingOf(this.host.state, id);
    let r: ReturnType<TransferHost['settle']> = {};
    const ok = this.guard(() => (r = this.host.settle({ id, as, settled, receiverAnswers: o ? this.answers(o) : false })));
    if (!ok) return { ok: false, refused: 'ledger' };
    if (r.refused) return { ok: false, refused: r.refused };
    this.o.log.warn({ id, as, by: settled.by, reference: settled.reference }, 'transfer settled by two people');
    this.changed();
    return { ok: true };
  }

  /** The station's home table, as this host's peers say. */
  homeOf(station: number): TableId {
    return homeOf(this.o.self, this.peers.peers, station);
  }

  /** Whether transfers with `table` may go on now (its files are the journal's). */
  private admits(table: TableId): boolean {
    return this.o.admits?.(table) ?? true;
  }

  /** One tick: asks again about every open transfer, and recalls those open too long. */
  tick(): void {
    // A file edited with no transfer under way is seen within a tick (and raised) all the same.
    for (const t of this.links.keys()) this.admits(t);
    this.guard(() => this.host.tick());
    // This run's waits, on the monotonic clock: a wall clock stepped forward (NTP, a technician
    // setting the time) recalled an offer at once and made it a person's to settle at the next tick.
    const now = performance.now();
    const recallAfter = this.recallAfterMs();
    const open = new Set<string>();
    const recalling = new Set<number>();
    for (const t of outgoingTransfers(this.host.state)) {
      if (t.phase === 'recalling') {
        recalling.add(t.transfer.id.serial);
        if (!this.recallingSince.has(t.transfer.id.serial)) this.recallingSince.set(t.transfer.id.serial, now);
      }
      if (t.phase !== 'offering') continue;
      const k = `${t.transfer.id.serial}`;
      open.add(k);
      const since = this.openSince.get(k) ?? now;
      this.openSince.set(k, since);
      if (now - since >= recallAfter) {
        this.counters.recalledLate++;
        this.o.log.warn({ id: t.transfer.id, to: t.transfer.to, openMs: now - since }, 'transfer unanswered too long: recalled');
        this.guard(() => this.host.recall(t.transfer.id));
      }
    }
    for (const k of this.openSince.keys()) if (!open.has(k)) this.openSince.delete(k);
    for (const k of this.recallingSince.keys()) if (!recalling.has(k)) this.recallingSince.delete(k);
    this.changed();
  }

  /**
   * A station's `move-credit` or `leave-table` (protocol/transfer-requests.ts). `gate`: the
   * floor's last word, asked once every refusal of the transfer's own has passed and before the
   * debit is journalled (an open winning-streak stake the player has not confirmed leaving).
   */
  command(station: number, c: TransferCommand, gate: () => Outcome | null = () => null): Outcome {
    const home = this.homeOf(station);
    if (c.name === 'move-credit') {
      if (home !== this.o.self) return { ok: false, reason: `station ${station}'s credit is moved from its home table ${home}`, refusal: 'not-home-table' };
      const to = TableId.safeParse(c.to);
      if (!to.success || !this.links.has(to.data)) return { ok: false, reason: `${c.to} is not a peer of this table`, refusal: 'unknown-table' };
      if (!this.admits(to.data)) return refusedPeer(to.data);
      if (this.o.betsInPlay(station)) return { ok: false, reason: `station ${station} has bets in play here`, refusal: 'bets-in-play' };
      if (c.amount > this.o.journal.credit(station))
        return { ok: false, reason: `station ${station} has less credit than ${c.amount}`, refusal: 'over-credit' };
      return this.refusedStart(station, to.data, c.amount) ?? gate() ?? this.startTransfer(station, to.data, c.amount);
    }
    if (home === this.o.self) return { ok: false, reason: `this is station ${station}'s home table`, refusal: 'not-away-table' };
    if (!this.admits(home)) return refusedPeer(home);
    if (this.o.betsInPlay(station)) return { ok: false, reason: `station ${station} has bets in play here`, refusal: 'bets-in-play' };
    const credit = this.o.journal.credit(station);
    if (credit <= 0) return { ok: true };
    const refused = this.refusedStart(station, home, credit) ?? gate();
    if (refused) return refused;
    this.counters.sentHome++;
    return this.startTransfer(station, home, credit);
  }

  /** Recalls one of this host's open transfers (the station asked, or the receiver is gone too long). */
  recall(id: TransferId): void {
    this.guard(() => this.host.recall(id));
  }

  /** The station's transfers this host sent or took, the open ones first, then the newest. */
  transfersOf(station: number): StationTransfers {
    const s = this.host.state;
    const shown: (StationTransfer & { open: boolean })[] = [];
    for (const o of outgoingTransfers(s)) {
      if (o.transfer.station !== station) continue;
      const phase = o.phase === 'offering' ? 'in-flight' : o.phase;
      shown.push({
        ...this.terms(o.transfer),
        phase,
        ...(o.creditLimit ? { why: 'credit-limit' as const } : {}),
        open: phase === 'in-flight' || phase === 'recalling',
      });
    }
    for (const i of incomingDecisions(s))
      if (i.kind === 'taken' && i.transfer.station === station) shown.push({ ...this.terms(i.transfer), phase: 'completed', open: false });
    shown.sort((a, b) => Number(b.open) - Number(a.open) || (a.id.origin === b.id.origin ? b.id.serial - a.id.serial : 0));
    return {
      station,
      home: this.homeOf(station),
      table: this.o.self,
      transfers: shown.slice(0, MAX_STATION_TRANSFERS).map(({ open: _open, ...t }) => t),
    };
  }

  private terms(t: { id: TransferId; from: TableId; to: TableId; amount: number }): Omit<StationTransfer, 'phase'> {
    const at = this.o.journal.journalledAt?.(t.id);
    return { id: { origin: t.id.origin, serial: t.id.serial }, from: t.from, to: t.to, amount: t.amount, ...(at ? { at } : {}) };
  }

  /** Calls `listener` on each change to the transfers (the station screens list them), beside `onChange`. */
  watch(listener: () => void): void {
    this.watchers.push(listener);
  }

  private changed(): void {
    this.o.onChange?.();
    for (const w of this.watchers) w();
  }

  /**
   * What the transfer machine would refuse this start for (a station it has no home for, an amount
   * no transfer carries...), asked of its state without a step: so that the floor's gate, asked
   * after, never speaks for a transfer that could not go ahead anyway.
   */
  private refusedStart(station: number, to: TableId, amount: number): Extract<Outcome, { ok: false }> | null {
    const r = startRefusal(this.host.state, { station, to, amount, available: this.o.journal.credit(station) });
    return r.refused ? { ok: false, reason: `transfer refused: ${r.refused}`, refusal: START_REFUSALS[r.refused] } : null;
  }

  private startTransfer(station: number, to: TableId, amount: number): Outcome {
    let r: ReturnType<TransferHost['start']> = {};
    const ok = this.guard(() => (r = this.host.start(station, to, amount)));
    if (!ok) return { ok: false, reason: 'the ledger refused the transfer', refusal: 'over-credit' };
    if (r.refused) return { ok: false, reason: `transfer refused: ${r.refused}`, refusal: START_REFUSALS[r.refused] };
    this.counters.started++;
    this.changed();
    return { ok: true };
  }

  /** A step the ledger refused (a debit above the credit a bet took first): nothing of it was journalled or sent. */
  private guard(f: () => void): boolean {
    try {
      f();
      return true;
    } catch (e) {
      this.o.log.error({ err: e instanceof Error ? e.message : String(e) }, 'transfer step refused by the ledger: nothing sent');
      return false;
    }
  }
}
