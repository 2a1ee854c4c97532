import type { TableId, Transfer, TransferId } from '../../../terms/transfer-terms.js';
import type { TransferMessage } from '../../../host/transfers/messages.js';
import type { Rng } from '../../../engine/random/seeded-rng.js';
import { incomingDecisions, outgoingTransfers, type StationHomes, type TransferState } from '../../../host/transfers/state.js';

// The lies a hostile table host can tell with the transfer protocol's messages (its link is its
// own: it cannot speak over another host's). Its journal is what it really did; these are what it
// says besides, or instead.

export const LIES = [
  /** "Taken" for an id of a victim's it never got, on terms it guessed. */
  'forged-taken',
  /** "Taken" on the exact terms of an offer it got, without journalling the credit. */
  'taken-unjournalled',
  /** Its real "taken", on another amount. */
  'other-amount',
  /** An answer or offer it sent before, sent again. */
  'replay',
  /** "Never took it" for an id it journalled as taken. */
  'refused-after-taken',
  /** "Never took it" for an offer it got, without journalling the refusal (it could take it later). */
  'refused-unjournalled',
  /** An offer of another host's id (another origin). */
  'offer-other-origin',
  /** One of its own transfers offered again for more. */
  'offer-changed-terms',
  /** An offer of a transfer it never debited. */
  'offer-undebited',
  /** An offer of its own naming another table as the receiver. */
  'offer-not-for-you',
  /** A recall of another host's id, to spoil it. */
  'recall-other-origin',
  /** An answer about a victim's transfer to a third host. */
  'answer-for-others',
  /** Bytes that are no transfer message. */
  'malformed',
  /** An offer of its own for a station homed at a third table (not its to move). */
  'offer-homed-elsewhere',
  /** An offer of its own for a station no table has. */
  'offer-unknown-station',
  /** An offer of its own sending "home" a station of the victim's (taken only if the victim ever sent it there). */
  'offer-station-home',
  /** An offer of its own in another currency. */
  'offer-wrong-currency',
  /** An offer of its own for an amount the victim's credit for the station cannot hold. */
  'offer-over-limit',
  /** An offer of its own that would take the station's credit at the victim past its credit limit (refused, no alarm: the alarm is the host's, past its budget of such refusals a minute). */
  'offer-past-credit-limit',
] as const;
export type Lie = (typeof LIES)[number];

export interface Lying {
  readonly liar: TableId;
  readonly state: TransferState;
  /** Offers that reached the liar and that it kept from its own journal (never took, never refused). */
  readonly offersSeen: readonly Transfer[];
  /** What the liar sent before, with where to. */
  readonly sent: readonly { to: TableId; message: TransferMessage }[];
  readonly others: readonly { table: TableId; lastSerial: number }[];
  /** Serials for undebited offers: far above any the liar journals. */
  readonly forgedSerial: number;
  /** Every station's home, as every host is configured. */
  readonly homes: StationHomes;
  /** A station's credit at a table now (the liar aims its over-limit offers at a credit it knows). */
  readonly credit: (table: TableId, station: number) => number;
  /** Every table's station credit limit. */
  readonly creditLimit: number;
}

/** The stations homed at `table`. */
function homedAt(l: Lying, table: TableId): number[] {
  return Object.entries(l.homes).flatMap(([s, home]) => (home === table ? [Number(s)] : []));
}

function pick<T>(rng: Rng, xs: readonly T[]): T | undefined {
  return xs.length ? xs[rng.below(xs.length)] : undefined;
}

function someId(rng: Rng, table: TableId, lastSerial: number): TransferId {
  return { origin: table, serial: 1 + rng.below(lastSerial + 2) };
}

/** One lie of the given kind, where the liar's situation allows it (else undefined). */
export function tell(rng: Rng, lie: Lie, l: Lying): { to: TableId; message: unknown } | undefined {
  const victim = pick(rng, l.others);
  if (!victim) return undefined;
  const amount = 1 + rng.below(2000);
  /** An offer of the liar's own, under a serial it never journalled. */
  const forged = (station: number, over: Partial<Transfer> = {}) => ({
    to: victim.table,
    message: {
      kind: 'offer',
      transfer: { id: { origin: l.liar, serial: l.forgedSerial }, currency: 'MOP', station, from: l.liar, to: victim.table, amount, ...over },
    },
  });
  switch (lie) {
    case 'forged-taken':
      return {
        to: victim.table,
        message: {
          kind: 'taken',
          transfer: { id: someId(rng, victim.table, victim.lastSerial), currency: 'MOP', station: 1 + rng.below(4), from: victim.table, to: l.liar, amount },
        },
      };
    case 'taken-unjournalled': {
      const t = pick(rng, l.offersSeen);
      return t && { to: t.from, message: { kind: 'taken', transfer: t } };
    }
    case 'other-amount': {
      const taken = pick(
        rng,
        incomingDecisions(l.state).flatMap((i) => (i.kind === 'taken' ? [i.transfer] : [])),
      );
      return taken && { to: taken.from, message: { kind: 'taken', transfer: { ...taken, amount: taken.amount + 1 + rng.below(500) } } };
    }
    case 'replay':
      return pick(rng, l.sent);
    case 'refused-after-taken': {
      const taken = pick(
        rng,
        incomingDecisions(l.state).flatMap((i) => (i.kind === 'taken' ? [i.transfer] : [])),
      );
      return taken && { to: taken.from, message: { kind: 'refused', id: taken.id, reason: 'recalled' } };
    }
    case 'refused-unjournalled': {
      const t = pick(rng, l.offersSeen);
      return t && { to: t.from, message: { kind: 'refused', id: t.id, reason: 'wrong-currency' } };
    }
    case 'offer-other-origin': {
      const third = pick(rng, l.others);
      if (!third) return undefined;
      const id = someId(rng, third.table, third.lastSerial);
      return {
        to: victim.table,
        message: {
          kind: 'offer',
          transfer: { id, currency: 'MOP', station: 1 + rng.below(4), from: rng.below(2) ? third.table : l.liar, to: victim.table, amount },
        },
      };
    }
    case 'offer-changed-terms': {
      const own = pick(rng, outgoingTransfers(l.state));
      return own && { to: own.transfer.to, message: { kind: 'offer', transfer: { ...own.transfer, amount: own.transfer.amount + 1 + rng.below(500) } } };
    }
    case 'offer-undebited': {
      // A station of its own: the victim takes it (it cannot know), and only the reconciliation names it.
      const station = pick(rng, homedAt(l, l.liar));
      return station === undefined ? undefined : forged(station);
    }
    case 'offer-homed-elsewhere': {
      const station = pick(
        rng,
        Object.entries(l.homes).flatMap(([s, home]) => (home !== l.liar && home !== victim.table ? [Number(s)] : [])),
      );
      return station === undefined ? undefined : forged(station);
    }
    case 'offer-unknown-station':
      return forged(Object.keys(l.homes).length + 1 + rng.below(200));
    case 'offer-station-home': {
      const station = pick(rng, homedAt(l, victim.table));
      return station === undefined ? undefined : forged(station);
    }
    case 'offer-wrong-currency': {
      const station = pick(rng, homedAt(l, l.liar));
      return station === undefined ? undefined : forged(station, { currency: 'HKD' });
    }
    case 'offer-over-limit': {
      const station = pick(
        rng,
        homedAt(l, l.liar).filter((s) => l.credit(victim.table, s) > 0),
      );
      return station === undefined ? undefined : forged(station, { amount: Number.MAX_SAFE_INTEGER });
    }
    case 'offer-past-credit-limit': {
      const station = pick(rng, homedAt(l, l.liar));
      return station === undefined ? undefined : forged(station, { amount: l.creditLimit - l.credit(victim.table, station) + 1 + rng.below(1000) });
    }
    case 'offer-not-for-you': {
      const elsewhere = pick(rng, [l.liar, ...l.others.map((o) => o.table).filter((t) => t !== victim.table)]) ?? l.liar;
      return {
        to: victim.table,
        message: {
          kind: 'offer',
          transfer: { id: { origin: l.liar, serial: l.forgedSerial }, currency: 'MOP', station: 1 + rng.below(4), from: l.liar, to: elsewhere, amount },
        },
      };
    }
    case 'recall-other-origin': {
      const third = pick(rng, l.others);
      return third && { to: victim.table, message: { kind: 'recall', id: someId(rng, third.table, third.lastSerial) } };
    }
    case 'answer-for-others': {
      const third = pick(rng, l.others);
      if (!third || third.table === victim.table) return undefined;
      const id = someId(rng, victim.table, victim.lastSerial);
      return rng.below(2)
        ? { to: victim.table, message: { kind: 'refused', id, reason: 'recalled' } }
        : {
            to: victim.table,
            message: { kind: 'taken', transfer: { id, currency: 'MOP', station: 1 + rng.below(4), from: victim.table, to: third.table, amount } },
          };
    }
    case 'malformed': {
      const junk: unknown[] = [
        null,
        'taken',
        { kind: 'taken' },
        { kind: 'offer', transfer: { id: `${l.liar}#1`, amount } },
        { kind: 'refused', id: { origin: l.liar, serial: -1 }, reason: 'recalled' },
        { kind: 'offer', transfer: { id: { origin: l.liar, serial: 1 }, currency: 'MOP', station: 1, from: l.liar, to: victim.table, amount: 0.5 } },
      ];
      return { to: victim.table, message: pick(rng, junk) };
    }
  }
}
