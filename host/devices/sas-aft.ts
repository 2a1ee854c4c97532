// A station's AFT over its SAS link (docs/sas.md, "AFT"; SAS 6.02 §8): the casino's system moves
// cashable credit from a player's account to the station (0x72 type 00) or back (type 80). Each
// transfer is decided here and journalled (`aft.in`/`aft.out`, ledger/aft-terms.ts, keyed by
// the station and the system's transaction id) before the 0x72 answer that reports it, so a
// transfer is applied once: the same transaction id again is "not unique" (81) and moves nothing,
// and after a lost answer or a kill the system's interrogation (0x72 FE/FF) reads it from the
// journal. Exception 0x69 (AFT transfer complete) comes from the journal like every exception.
import { AFT_STATUS, AFT_TYPE, AFT_FLAG } from '../../hardware/sas/aft.js';
import type { AftLockRequest, AftRecord, AftRequest, AftStatusView, SasAftSide } from '../../hardware/sas/types.js';
import { LOCK_STATUS, type AftLockEnd } from './sas-aft-lock.js';
import type { SasDateTime } from '../../hardware/sas/types.js';
import { aftTxId } from '../../ledger/aft-terms.js';
import { aftTransferAtPosition, aftTransferBack, aftTransfersAt, type AftTransfer } from '../../ledger/aft-queries.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { StationAftRegistration } from './sas-aft-register.js';
import { creditRoom } from './credit-rule/credit-limit.js';
import type { AftInRefusal } from '../../protocol/index.js';

/** The history buffer's positions (0x72 interrogation 01–7F). */
const HISTORY = 127;

export interface StationAftDeps {
  ledger: Ledger;
  station: number;
  assetNumber: number;
  /** The most one transfer may put on the credit meter (minor units). */
  limit: number;
  /** The table's currency, which each transfer's entry names (the event log says it in it after a change); absent, none. */
  currency?: string;
  /**
   * The most the station's credit may hold (the table's `creditLimit`, read at each request;
   * docs/sas.md, "The station credit limit"): a transfer in never takes it past. Absent: no limit.
   */
  creditLimit?: () => number;
  /** Why the station cannot take credit now (a fault, a disable, a handpay waiting), or null. */
  refuseIn(): string | null;
  /** Why the station cannot give its credit now (bets in play, a handpay or a ticket waiting, a fault), or null. */
  refuseOut(): string | null;
  /** The floor's time of an instant (ms), Macau's, as the machine's clock (0x7E) shows it (host/config/macau-time.ts). */
  local(ms: number): SasDateTime;
  /** The station's game lock (host/devices/sas-aft-lock.ts); absent, the station never locks. */
  lock?: AftLock;
  /** The station's registration (0x73, host/devices/sas-aft-register.ts); absent, a 0x72 with a key is 88. */
  registration?: StationAftRegistration;
  /** The lock did not end after a transfer (its fault's clear could not be journalled): for the log. */
  onLockError?: (err: unknown) => void;
  /** What the station's player is told of its transfers in (host/floor/aft-notices.ts); absent, nothing. */
  notice?: AftInNotice;
  /** Telling the station's screen failed (the transfer is answered all the same): for the log. */
  onNoticeError?: (err: unknown) => void;
}

/**
 * The station's screen told of a transfer in refused for a reason its player can act on, with
 * the amount asked, and told again when one moves (the refusal is then past).
 */
export interface AftInNotice {
  refused(reason: AftInRefusal, amount: number): void;
  moved(): void;
}

/** What a transfer needs of the game lock. */
export interface AftLock {
  request(q: AftLockRequest): void;
  status(): number;
  locked(): boolean;
  release(why: AftLockEnd): void;
}

export class StationAft implements SasAftSide {
  /** The current transaction: the last request answered, a refusal included (not journalled: it moved nothing). */
  private current: { record: AftRecord; afterSeq: number } | null = null;

  /** 0x73, where the station takes registration. */
  readonly registration: StationAftRegistration | undefined;

  constructor(private readonly d: StationAftDeps) {
    this.registration = d.registration;
  }

  transfer(q: AftRequest): AftRecord {
    const newest = aftTransfersAt(this.d.ledger, this.d.station, 0, 1)[0];
    // Whose request it is comes first: the asset and the key. A request for another machine is 93
    // whether its id was seen here or not, so no one learns which ids exist (it was 81 first: a review).
    const stranger = this.stranger(q);
    if (stranger !== null) return this.refused(q, stranger, newest);
    // Not unique: refused, but not made the current transaction. The system that lost the answer
    // and sent the transfer again must still read, at index 00, the transfer that moved.
    if (this.d.ledger.byTxId(aftTxId(this.d.station, q.transactionId))) return this.refusal81(q);
    const why = this.refusal(q);
    if (why !== null) return this.told(q, this.refused(q, why, newest));
    const amount = this.amountOf(q);
    if (typeof amount !== 'number') return this.told(q, this.refused(q, amount.status, newest), amount.past);
    const type = q.type === AFT_TYPE.toMachine ? 'aft.in' : 'aft.out';
    this.d.ledger.append({
      type,
      payload: {
        station: this.d.station,
        transactionId: q.transactionId,
        amount,
        requested: q.cashable ?? amount,
        assetNumber: q.assetNumber,
        flags: q.flags,
        ...(this.d.currency ? { currency: this.d.currency } : {}),
      },
      txId: aftTxId(this.d.station, q.transactionId),
    });
    this.current = null;
    this.endLock();
    if (type === 'aft.in') this.say((n) => n.moved());
    const t = aftTransfersAt(this.d.ledger, this.d.station, 0, 1)[0];
    if (!t) throw new Error('an AFT transfer journalled and not found');
    return this.record(t, 0);
  }

  /**
   * §8.4: the lock was for this transfer; it ends as the transfer completes. The transfer is
   * journalled already: a failure to end the lock (its fault's clear not written) must not keep
   * the answer from the system, which would read a lost answer and then 81 for a transfer that moved.
   */
  private endLock(): void {
    try {
      this.d.lock?.release('aftLockTransferDone');
    } catch (err) {
      this.d.onLockError?.(err);
    }
  }

  /**
   * A transfer in refused, once it is known to be for this station: its player is told when the
   * reason is one a player can act on (ask for less, or wait for the station); the system's own
   * faults (a bad id, restricted credit, a lock it did not take, a receipt) are the system's to fix.
   */
  private told(q: AftRequest, record: AftRecord, past?: Past): AftRecord {
    if (q.type !== AFT_TYPE.toMachine || record.cashable <= 0) return record;
    const reason = record.status === AFT_STATUS.unableNow ? 'unable-now' : record.status === AFT_STATUS.overLimit ? (past ?? null) : null;
    if (reason !== null) this.say((n) => n.refused(reason, record.cashable));
    return record;
  }

  /** The screen told: a failure there (a listener's) is logged and never keeps the answer from the system. */
  private say(tell: (notice: AftInNotice) => void): void {
    if (!this.d.notice) return;
    try {
      tell(this.d.notice);
    } catch (err) {
      this.d.onNoticeError?.(err);
    }
  }

  private refusal81(q: AftRequest): AftRecord {
    const current = this.current;
    const record = this.refused(q, AFT_STATUS.notUnique, undefined);
    this.current = current;
    return record;
  }

  /** A request not for this station (another asset number) or without its key (88/89), or null. */
  private stranger(q: AftRequest): number | null {
    if (q.assetNumber !== this.d.assetNumber) return AFT_STATUS.assetMismatch;
    // A key of zeros needs no registration (Table 8.3d); any other must be the one 0x73 registered.
    if (q.keyZero) return null;
    const key = this.d.registration?.check(q.key) ?? 'not-registered';
    return key === 'ok' ? null : key === 'mismatch' ? AFT_STATUS.keyMismatch : AFT_STATUS.notRegistered;
  }

  /** Whatever else makes the request one the station cannot take, before its amount is looked at. */
  private refusal(q: AftRequest): number | null {
    // §8.3: a transfer is initiated at index 00 only (01–FF are the interrogation's history positions).
    if ((q.index ?? 0) !== 0) return AFT_STATUS.notValidFunction;
    if (!/^[\x20-\x7e]{1,20}$/.test(q.transactionId)) return AFT_STATUS.idNotValid;
    if (q.type !== AFT_TYPE.toMachine && q.type !== AFT_TYPE.toHost) return AFT_STATUS.notValidFunction;
    if (q.flags & AFT_FLAG.onlyIfLocked && !this.d.lock?.locked()) return AFT_STATUS.notLocked;
    if (q.flags & AFT_FLAG.receipt) return AFT_STATUS.receiptUnavailable;
    if (q.restricted !== 0 || q.nonRestricted !== 0 || q.cashable === null || q.cashable <= 0) return AFT_STATUS.notValidAmount;
    if ((q.type === AFT_TYPE.toMachine ? this.d.refuseIn() : this.d.refuseOut()) !== null) return AFT_STATUS.unableNow;
    return null;
  }

  /** The amount that moves: all of it, or (partial allowed) as much as the limit or the credit lets. */
  private amountOf(q: AftRequest): number | { status: number; past: Past } {
    const asked = q.cashable ?? 0;
    const inRoom = q.type === AFT_TYPE.toMachine ? this.roomsIn() : null;
    const room = inRoom ? Math.min(inRoom.transfer, inRoom.credit) : this.d.ledger.credit(this.d.station);
    if (asked <= room) return asked;
    // Past both limits, the credit limit is the one the player is told: asking no more than the transfer limit would not do.
    const past: Past = inRoom && asked > inRoom.credit ? 'credit-limit' : 'transfer-limit';
    if (q.code !== 0x01 || room <= 0) return { status: q.type === AFT_TYPE.toMachine ? AFT_STATUS.overLimit : AFT_STATUS.notValidAmount, past };
    return room;
  }

  /** The most a transfer in may move now: the transfer limit, or less, what the credit limit leaves. */
  private roomIn(): number {
    const { transfer, credit } = this.roomsIn();
    return Math.min(transfer, credit);
  }

  /** What each limit leaves a transfer in: the transfer limit's, and the station credit limit's (Infinity without one). */
  private roomsIn(): { transfer: number; credit: number } {
    const creditLimit = this.d.creditLimit?.();
    return { transfer: this.d.limit, credit: creditLimit === undefined ? Infinity : creditRoom(this.d.ledger, this.d.station, creditLimit) };
  }

  private refused(q: AftRequest, status: number, newest: AftTransfer | undefined): AftRecord {
    const record: AftRecord = {
      position: 0,
      status,
      type: q.type,
      cashable: q.cashable ?? 0,
      flags: q.flags,
      assetNumber: q.assetNumber,
      transactionId: q.transactionId,
      at: null,
      cumulative: null,
    };
    this.current = { record, afterSeq: newest?.seq ?? 0 };
    return record;
  }

  interrogate(index: number): AftRecord | null {
    if (index === 0) {
      const newest = aftTransfersAt(this.d.ledger, this.d.station, 0, 1)[0];
      if (this.current && this.current.afterSeq === (newest?.seq ?? 0)) return this.current.record;
      return newest ? this.record(newest, 0) : null;
    }
    if (index >= 0x81) {
      const t = aftTransferBack(this.d.ledger, this.d.station, index - 0x81);
      return t ? this.record(t, positionOf(t)) : null;
    }
    if (index > HISTORY) return null;
    // An absolute position: the newest transfer that sits there (the buffer wraps every 127).
    const t = aftTransferAtPosition(this.d.ledger, this.d.station, index, HISTORY);
    return t ? this.record(t, index) : null;
  }

  private record(t: AftTransfer, position: number): AftRecord {
    return {
      position,
      status: t.payload.amount < t.payload.requested ? AFT_STATUS.partial : AFT_STATUS.full,
      type: t.type === 'aft.in' ? AFT_TYPE.toMachine : AFT_TYPE.toHost,
      cashable: t.payload.amount,
      // Table 8.3c: the request's flags, as journalled (0 for an entry from before they were).
      flags: t.payload.flags ?? 0,
      assetNumber: t.payload.assetNumber,
      transactionId: t.payload.transactionId,
      at: this.d.local(t.at),
      cumulative: t.cumulative,
    };
  }

  lock(q: AftLockRequest): void {
    this.d.lock?.request(q);
  }

  locked(): boolean {
    return this.d.lock?.locked() ?? false;
  }

  status(): AftStatusView {
    const credit = this.d.ledger.credit(this.d.station);
    const roomIn = this.roomIn();
    const toMachine = this.d.refuseIn() === null && roomIn > 0 ? 0x01 : 0;
    const fromMachine = credit > 0 && this.d.refuseOut() === null ? 0x02 : 0;
    return {
      assetNumber: this.d.assetNumber,
      availableTransfers: toMachine | fromMachine,
      // Partial transfers to the host allowed (bit 1), registered (bit 3, Table 8.9d), in-house transfers enabled (bit 4), AFT enabled (bit 7).
      aftStatus: 0x02 | (this.d.registration?.registered() ? 0x08 : 0) | 0x10 | 0x80,
      cashable: credit,
      // Our reading of §8: the limit a system may ask now, so it offers no transfer the station would refuse.
      transferLimit: roomIn,
      lock: this.d.lock?.status() ?? LOCK_STATUS.none,
    };
  }
}

/** Which limit a transfer in over the room would pass, as its player is told. */
type Past = Extract<AftInRefusal, 'credit-limit' | 'transfer-limit'>;

function positionOf(t: AftTransfer): number {
  return ((t.ordinal - 1) % HISTORY) + 1;
}
