// A station's AFT registration over its SAS link (SAS 6.02 §8, long poll 0x73; docs/sas.md, "AFT
// registration"). The casino's system registers the station with a 20-byte key and a POS id;
// afterwards a 0x72 carrying a key must carry that one (88 while not registered, 89 another key;
// a key of zeros needs no registration). Every change is one `aft.register` entry
// (ledger/aft-register-terms.ts), journalled before the 0x73 answer that reports it, and the
// newest one is the station's registration after a restart. Exceptions 6C, 6D and 6E come from
// those entries like every exception (host/devices/sas-exceptions.ts).
//
// The transitions, our reading of §8 (the document names the codes and statuses; which code
// moves which status is read from it and from the public Aristocrat SAS client's state table):
//   FF read                 nothing changes
//   00 initialise           any → ready, with no key and no POS id (an earlier registration ends)
//   01 register             ready → registered with the key and POS id (FFFFFFFF keeps the POS id)
//   40 request operator ack ready → pending with the key and POS id, until the operator answers
//   80 unregister           any other → not registered (6E)
//   operator acknowledges   pending → ready, key and POS id kept (6D); the system then registers
//   operator cancels        pending → not registered (6E)
//   operator asks           the system is asked to register the station (6C), nothing else changes
// A request naming another asset number, a register or acknowledgement request with a key of
// zeros, and a register from any status but ready change nothing: the answer is the registration
// as it stands (its asset number tells the system it named another machine).
import { TokenBucket } from '../limits/token-bucket.js';
import {
  REGISTER_CODE,
  REGISTRATION_STATUS,
  type AftRegisterRequest,
  type AftRegistrationView,
  type SasAftRegistrationSide,
} from '../../hardware/sas/aft-register.js';
import { newestAftRegistration } from '../../ledger/aft-queries.js';
import { AFT_REGISTER_PAYLOADS, NO_KEY, type AftRegistrationStatus } from '../../ledger/aft-register-terms.js';
import type { JournalEntry, Ledger, Payload } from '../../ledger/index.js';

/**
 * Changes a 0x73 makes at a station (each an `aft.register` entry, fsynced): `AFT_REGISTRATIONS_BURST`
 * at once, then one every `AFT_REGISTRATIONS_EVERY_MS`. One past that is not taken: answered with
 * the registration as it stands, as any request that changes nothing (its status tells the system
 * it was not), nothing journalled, taken when the system asks again later. Before (a review), a
 * system or anyone on the line alternating 00 and 80 journalled every toggle, as the lock and the
 * play orders are bounded (`AFT_LOCKS_*`, `SAS_CHANGES_*`). An honest system registers a station
 * a few times in its life. Reads (FF) and the operator's events are not rationed.
 */
export const AFT_REGISTRATIONS_BURST = 10;
export const AFT_REGISTRATIONS_EVERY_MS = 5_000;

const STATUS_CODE: Readonly<Record<AftRegistrationStatus, number>> = {
  ready: REGISTRATION_STATUS.ready,
  registered: REGISTRATION_STATUS.registered,
  pending: REGISTRATION_STATUS.pending,
  'not-registered': REGISTRATION_STATUS.notRegistered,
};
const NO_POS_CHANGE = 0xff_ff_ff_ff;

type Entry = Payload<'aft.register'>;
/** A registration as it stands: an entry's fields without who changed it. */
type Standing = Pick<Entry, 'status' | 'key' | 'posId'>;

export interface StationAftRegistrationDeps {
  ledger: Ledger;
  station: number;
  /** The station's configured asset number (`stations[].sas.aft.assetNumber`). */
  assetNumber: number;
  /** The clock of the changes' bound (`AFT_REGISTRATIONS_*`); `performance.now` unless a test drives it. */
  now?: () => number;
  /** The journal's newest registration of the station: `newestAftRegistration` unless a test counts its calls. */
  newest?: typeof newestAftRegistration;
}

/** What a 0x72's registration key means here. */
export type KeyCheck = 'ok' | 'not-registered' | 'mismatch';

export class StationAftRegistration implements SasAftRegistrationSide {
  /**
   * The registration as the journal's newest entry for the station has it: read once, then kept as
   * each `aft.register` of the station is committed (by this instance or another writer of the
   * ledger, the operator's side). Every 0x74 asks it (AFT status bit 3), and the lookup was a scan
   * of every registration entry of the table, newest first (a review: 115 ms for a station never
   * registered after 80,000 of another's).
   */
  private current: Standing;
  /** Changes left to take (`AFT_REGISTRATIONS_BURST`, then one per `AFT_REGISTRATIONS_EVERY_MS`). */
  private readonly ration: TokenBucket;
  private readonly now: () => number;
  private readonly offAppended: () => void;

  constructor(private readonly d: StationAftRegistrationDeps) {
    this.current = this.read((d.newest ?? newestAftRegistration)(d.ledger, d.station)?.payload);
    this.now = d.now ?? (() => performance.now());
    this.ration = new TokenBucket(AFT_REGISTRATIONS_BURST, 1000 / AFT_REGISTRATIONS_EVERY_MS, this.now);
    this.offAppended = d.ledger.onAppended((entries) => this.heard(entries));
  }

  /** Stops following the journal (the host's close). */
  dispose(): void {
    this.offAppended();
  }

  /** The registration as journalled; one made for another asset number (the configuration changed since) is none. */
  standing(): Standing {
    return this.current;
  }

  register(q: AftRegisterRequest): AftRegistrationView {
    const now = this.standing();
    const next = this.decide(q, now);
    if (!next || !this.ration.take()) return this.view(now);
    this.append(next.event, next.to);
    return this.view(next.to);
  }

  private read(e: Entry | undefined): Standing {
    if (!e || e.assetNumber !== this.d.assetNumber) return { status: 'not-registered', key: NO_KEY, posId: 0 };
    return { status: e.status, key: e.key, posId: e.posId };
  }

  private heard(entries: readonly JournalEntry[]): void {
    for (const e of entries) {
      if (e.type !== 'aft.register') continue;
      const p = AFT_REGISTER_PAYLOADS['aft.register'].safeParse((JSON.parse(e.body) as { payload?: unknown }).payload);
      if (p.success && p.data.station === this.d.station) this.current = this.read(p.data);
    }
  }

  private decide(q: AftRegisterRequest, now: Standing): { event: Entry['event']; to: Standing } | null {
    // 80 and FF carry the code alone.
    if (!('assetNumber' in q)) {
      if (q.code === REGISTER_CODE.read || now.status === 'not-registered') return null;
      return { event: 'unregister', to: { status: 'not-registered', key: NO_KEY, posId: 0 } };
    }
    if (q.assetNumber !== this.d.assetNumber || q.key.length !== 20) return null;
    const key = Buffer.from(q.key).toString('hex');
    if (q.code === REGISTER_CODE.initialise) {
      const to: Standing = { status: 'ready', key: NO_KEY, posId: 0 };
      return same(now, to) ? null : { event: 'initialise', to };
    }
    // Registering (or asking the operator to acknowledge) needs a key and the ready status.
    if (key === NO_KEY || now.status !== 'ready') return null;
    const posId = q.posId === NO_POS_CHANGE ? now.posId : q.posId;
    if (q.code === REGISTER_CODE.register) return { event: 'register', to: { status: 'registered', key, posId } };
    return { event: 'request-acknowledgement', to: { status: 'pending', key, posId } };
  }

  /** The operator at the station acknowledged (true) or cancelled (false) a pending registration; false when none is pending. */
  operatorAnswer(acknowledged: boolean, who: string): boolean {
    const now = this.standing();
    if (now.status !== 'pending') return false;
    if (acknowledged) this.append('acknowledged', { ...now, status: 'ready' }, who);
    else this.append('cancelled', { status: 'not-registered', key: NO_KEY, posId: 0 }, who);
    return true;
  }

  /** The operator asks the casino's system to register the station (exception 6C); not while one is pending. */
  operatorRequest(who: string): boolean {
    const now = this.standing();
    if (now.status === 'pending') return false;
    this.append('request', now, who);
    return true;
  }

  /** A 0x72's key (not zeros) against the registration. */
  check(key: Uint8Array): KeyCheck {
    const now = this.standing();
    if (now.status !== 'registered') return 'not-registered';
    return Buffer.from(key).toString('hex') === now.key ? 'ok' : 'mismatch';
  }

  registered(): boolean {
    return this.standing().status === 'registered';
  }

  private append(event: Entry['event'], to: Standing, who?: string): void {
    this.d.ledger.append({
      type: 'aft.register',
      payload: { station: this.d.station, event, ...to, assetNumber: this.d.assetNumber, ...(who === undefined ? {} : { who }) },
    });
  }

  private view(s: Standing): AftRegistrationView {
    return { status: STATUS_CODE[s.status], assetNumber: this.d.assetNumber, key: Uint8Array.from(Buffer.from(s.key, 'hex')), posId: s.posId };
  }
}

function same(a: Standing, b: Standing): boolean {
  return a.status === b.status && a.key === b.key && a.posId === b.posId;
}
