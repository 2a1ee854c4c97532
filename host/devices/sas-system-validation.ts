// SAS system validation at a station (docs/sas.md, "System validation at a station"): a station
// configured `stations[].sas.validation: "system"` prints a cash-out ticket only under a number
// the casino's system gives for it. The cash-out's wait is journalled on both sides:
//
//   ticket.validation.request   before exception 57 is raised (the credit stays on the meter; the station is locked)
//   ticket.validation.end       before 0x58 is answered (the number, or a denial), or at the timeout, or at a restart
//
// The number then goes into the `ticket.issue` journalled just before the print command (the
// ledger takes it only with this end's number and this request's amount); a denial or no answer
// is a handpay (the caller's fallback). The machine side (hardware/sas/system-validation.ts) holds
// the protocol's rules: one cash-out at a time, the first 0x58 taken ends the wait, a second finds
// none; a number the floor already knows is refused (81).
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { SystemValidationCycle, type SasSystemValidationSide, type SystemValidationEnd } from '../../hardware/sas/system-validation.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { NewEntry } from '../../ledger/index.js';
import { handpaidSince, lastValidationRequests, validationNumberSeen } from '../../ledger/system-validation-queries.js';
import { ticketOutTxId } from '../../ledger/ticket-postings.js';
import { validationTxId, type ValidationOutcome } from '../../terms/system-validation-terms.js';
import type { ValidationNumber } from '../../terms/validation-number.js';
import type { TableConfig } from '../config/table-config.js';
import { unrefTimers } from '../table/timers.js';

/** What a cash-out's wait for the system's number came to. `unavailable`: nothing was asked (no link, or a wait already open); nothing journalled. */
export type SystemNumber =
  | { kind: 'number'; requestId: string; validation: ValidationNumber; systemId: number }
  | { kind: 'denied' | 'timeout'; requestId: string }
  | { kind: 'unavailable' };

export interface SystemValidationsDeps {
  ledger: Ledger;
  log: Logger;
  /** The stations configured for system validation. */
  stations: readonly number[];
}

interface Wait {
  requestId: string;
  station: number;
  amount: number;
  /** When it began (ms since the epoch). */
  at: number;
  resolve: (n: SystemNumber) => void;
}

/** A timer that does not keep the process alive (the host's close cancels the waits anyway). */
const CLOCK = unrefTimers;

/** The stations' system validation: the host's side of each station's 0x57/0x58 cycle. */
export class SystemValidations {
  private readonly cycles = new Map<number, SystemValidationCycle>();
  private readonly waits = new Map<number, Wait>();
  private readonly stations: Set<number>;

  constructor(private readonly d: SystemValidationsDeps) {
    this.stations = new Set(d.stations);
  }

  /** Whether the casino's system numbers this station's tickets. */
  at(station: number): boolean {
    return this.stations.has(station);
  }

  /** The cash-out waiting at a station for the system's number, if any (the station is locked meanwhile). */
  waitingAt(station: number): { amount: number; requestId: string; at: number } | null {
    const w = this.waits.get(station);
    return w ? { amount: w.amount, requestId: w.requestId, at: w.at } : null;
  }

  /** The station's link opened (host/start/sas-links.ts): its 0x57/0x58 side, raising exception 57 through `raise`; `timeoutMs` §15.8's ten seconds unless set (tests). */
  side(station: number, raise: () => void, timeoutMs?: number): SasSystemValidationSide {
    const cycle = new SystemValidationCycle({
      clock: CLOCK,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      raise,
      known: (v) => this.known(v),
      ended: (e) => this.ended(station, e),
    });
    this.cycles.set(station, cycle);
    return cycle;
  }

  /**
   * A cash-out of `amount` at `station` asks the system for a number: `ticket.validation.request`
   * journalled, then exception 57; resolved once the wait's end is journalled.
   */
  ask(station: number, amount: number): Promise<SystemNumber> {
    const cycle = this.cycles.get(station);
    if (!cycle || cycle.isWaiting() || this.waits.has(station)) return Promise.resolve({ kind: 'unavailable' });
    const requestId = randomUUID();
    this.d.ledger.append({ type: 'ticket.validation.request', payload: { requestId, station, amount }, txId: validationTxId(requestId, 'request') });
    return new Promise((resolve) => {
      this.waits.set(station, { requestId, station, amount, at: Date.now(), resolve });
      cycle.begin(amount);
      this.d.log.info({ station, amount, requestId }, 'cash-out: waiting for the casino system’s validation number (exception 57)');
    });
  }

  /** The cycle's end: journalled before 0x58 is answered (a throw leaves 0x58 unanswered and the wait open). */
  private ended(station: number, e: SystemValidationEnd): void {
    const w = this.waits.get(station);
    if (!w) throw new Error(`station ${station}: a system validation end with no wait`);
    const outcome: ValidationOutcome = e.kind;
    const validation = e.kind === 'number' ? (e.validation as ValidationNumber) : undefined;
    this.d.ledger.append({
      type: 'ticket.validation.end',
      payload: { requestId: w.requestId, station, outcome, ...(validation ? { validation } : {}) },
      txId: validationTxId(w.requestId, 'end'),
    });
    this.waits.delete(station);
    this.d.log.info({ station, requestId: w.requestId, outcome, validation }, 'cash-out: the casino system’s validation ended');
    w.resolve(
      validation
        ? { kind: 'number', requestId: w.requestId, validation, systemId: Number(validation.slice(0, 2)) }
        : { kind: e.kind === 'number' ? 'denied' : e.kind, requestId: w.requestId },
    );
  }

  /** A number this floor already knows here: a ticket issued under it, a wait it ended, a ticket inserted with it. */
  private known(v: string): boolean {
    if (this.d.ledger.byTxId(ticketOutTxId(v as ValidationNumber, 'issue'))) return true;
    return validationNumberSeen(this.d.ledger, v);
  }

  /** Shutdown: the waits are given up without an end (the next start's restart rule ends them). */
  close(): void {
    for (const c of this.cycles.values()) c.cancel();
    this.cycles.clear();
    this.waits.clear();
  }
}

/** What the restart rule journalled for a station: the handpay of the amount its wait held (0: no credit left to pay, the end alone). */
export interface RestartHandpay {
  station: number;
  requestId: string;
  amount: number;
}

/**
 * The restart rule (docs/sas.md, "System validation at a station"). A station's last wait for the
 * system's number that did not come to a ticket (`ticket.issue` under its number) nor to its
 * handpay (`validationTxId(request, 'handpay')`, or, in a journal written before that id, any handpay of the
 * station after the end) becomes a handpay of the amount the request held (the credit, if less):
 * never asked again, as the system may already have bound a number to the request the killed run
 * made. A wait with no end is ended `restart` in the same transaction as its handpay, so a kill
 * can never leave the one without the other; a second start finds both and does nothing.
 */
export function endOpenValidations(ledger: Ledger, currency?: string): RestartHandpay[] {
  const out: RestartHandpay[] = [];
  for (const r of lastValidationRequests(ledger)) {
    if (ledger.byTxId(validationTxId(r.requestId, 'handpay'))) continue;
    const end = ledger.byTxId(validationTxId(r.requestId, 'end'));
    if (end) {
      const ended = (JSON.parse(end.body) as { payload: { outcome: ValidationOutcome; validation?: ValidationNumber } }).payload;
      // A `restart` end was journalled with its handpay, or alone with no credit to pay: done.
      if (ended.outcome === 'restart') continue;
      if (ended.validation && ledger.byTxId(ticketOutTxId(ended.validation, 'issue'))) continue;
      if (handpaidSince(ledger, end.seq, r.station)) continue;
    }
    const amount = Math.min(r.amount, ledger.credit(r.station));
    const handpay: NewEntry = {
      type: 'credit.cancel',
      payload: {
        station: r.station,
        amount,
        reason: 'cash-out by handpay: the casino system gave no number before the restart',
        ...(currency ? { currency } : {}),
      },
      txId: validationTxId(r.requestId, 'handpay'),
    };
    const ended: NewEntry = {
      type: 'ticket.validation.end',
      payload: { requestId: r.requestId, station: r.station, outcome: 'restart' },
      txId: validationTxId(r.requestId, 'end'),
    };
    ledger.appendMany([...(end ? [] : [ended]), ...(amount > 0 ? [handpay] : [])]);
    out.push({ station: r.station, requestId: r.requestId, amount });
  }
  return out;
}

/**
 * The table's system validation (floor services, before the devices open): the stations configured
 * `sas.validation: "system"`; a wait the last run left unresolved is a handpay now
 * (`endOpenValidations`), which the handpays read from the journal.
 */
export function openSystemValidations(d: { config: TableConfig; ledger: Ledger; log: Logger }, handpays: { refresh(): void }): SystemValidations {
  const stations = d.config.stations.filter((s) => s.sas?.validation === 'system').map((s) => s.station);
  const paid = endOpenValidations(d.ledger, d.config.currency);
  for (const p of paid) d.log.warn(p, 'a cash-out the casino system had not numbered at the last stop: a handpay of the amount it held');
  if (paid.length > 0) handpays.refresh();
  return new SystemValidations({ ledger: d.ledger, log: d.log, stations });
}
