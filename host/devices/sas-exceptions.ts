// What a station's journal means to the casino's system as SAS 6.02 general-poll exceptions
// (Appendix A, Table A-1; docs/sas.md, "Exceptions from the journal"). Pure: an entry in, the
// exception codes of one station out, in the order the host must see them. What the mapping needs
// beyond the entry itself (was this the station's first bet of the round, who bet in a voided
// round, was there a run before this power-up) it asks of `JournalFacts`.
import { EXC } from '../../hardware/sas/constants.js';
import { MINOR_PER_UNIT } from '../../hardware/billacceptor/notes.js';
import { PAYLOADS, type EntryType } from '../../ledger/index.js';

/** Exceptions Table A-1 has beyond the ones the machine side's queue names. */
export const MORE_EXC = {
  cardCageOpened: 0x15,
  cardCageClosed: 0x16,
  bellyDoorOpened: 0x1d,
  bellyDoorClosed: 0x1e,
  cashboxFull: 0x27,
  outOfService: 0x86,
  /** AFT registration cancelled (§8; 6C and 6D are priority exceptions, named by the machine side). */
  aftRegistrationCancelled: 0x6e,
} as const;

/** Bill accepted by face value (Table A-1, 0x47–0x50): named in US dollars; read here as face values of the table's currency (docs/sas.md). 0x4F for any other. */
const BILL_CODES: ReadonlyMap<number, number> = new Map([
  [1, 0x47],
  [5, 0x48],
  [10, 0x49],
  [20, 0x4a],
  [50, 0x4b],
  [100, 0x4c],
  [2, 0x4d],
  [500, 0x4e],
  [200, 0x50],
]);

/** A door's name as journalled → its opened / closed codes; a station door of another name is its slot (main) door, as its slot-door meter counts it. */
const DOORS: Readonly<Record<string, readonly [number, number]>> = {
  drop: [EXC.dropDoorOpened, EXC.dropDoorClosed],
  'card-cage': [MORE_EXC.cardCageOpened, MORE_EXC.cardCageClosed],
  logic: [MORE_EXC.cardCageOpened, MORE_EXC.cardCageClosed],
  cashbox: [EXC.cashboxDoorOpened, EXC.cashboxDoorClosed],
  belly: [MORE_EXC.bellyDoorOpened, MORE_EXC.bellyDoorClosed],
};
const SLOT_DOOR = [EXC.slotDoorOpened, EXC.slotDoorClosed] as const;

/**
 * Faults (tilt kinds, host/tilts/tilt-kinds.ts) as exceptions when raised, and the few whose
 * clearing has a code of its own. A station's fault goes to that station, a table's to every
 * station (its cabinet is the table's). Not here: the casino system's own disables (0x01/0x07
 * answered by their ACK), and the staff-only security faults of service mode.
 */
const FAULT_RAISED: Readonly<Record<string, number>> = {
  'bill-jam': EXC.billJam,
  'bill-failure': EXC.billAcceptorFailure,
  'bill-acceptor-lost': EXC.billAcceptorFailure,
  'stacker-full': MORE_EXC.cashboxFull,
  'stacker-removed': EXC.cashboxRemoved,
  'bill-cheat': EXC.generalTilt,
  'sas-link-down': EXC.generalTilt,
  'upstream-offline': EXC.generalTilt,
  'witness-offline': EXC.generalTilt,
  'shoe-lost': EXC.generalTilt,
  'shoe-lid-open': EXC.generalTilt,
  'shoe-alarm': EXC.generalTilt,
  'card-hold': EXC.generalTilt,
  'disk-low': EXC.generalTilt,
  'ledger-integrity': EXC.generalTilt,
  'jackpot-controller': EXC.generalTilt,
  'table-closed': MORE_EXC.outOfService,
  // §8.4: the lock the casino system asked for (0x74) has taken effect.
  'sas-aft-locked': EXC.gameLocked,
  // Table A-1: 60 printer communication error, 61 printer paper out, 78 printer carriage jam (the
  // station's ticket printer; a paper jam reported as 78 as the public Aristocrat platform does);
  // its other mechanism faults are a general tilt, as there (docs/sas.md).
  'printer-offline': EXC.printerCommError,
  'printer-paper-out': EXC.printerPaperOut,
  'printer-jam': EXC.printerCarriageJam,
  'printer-fault': EXC.generalTilt,
};
const FAULT_CLEARED: Readonly<Record<string, number>> = { 'stacker-removed': EXC.cashboxInstalled };

/** The journal types that can raise an exception (what the feed reads). */
export const EXCEPTION_SOURCES = [
  'door.open',
  'door.close',
  'power.reset',
  'bill.credit',
  'ticket.printed',
  'ticket.redeem.request',
  'ticket.redeem.stacked',
  'ticket.redeem.returned',
  'aft.in',
  'aft.out',
  'aft.register',
  'credit.cancel',
  'handpay.request',
  'handpay.confirm',
  'bet.place',
  'round.settle',
  'round.void',
  'tilt.raise',
  'tilt.clear',
] as const satisfies readonly EntryType[];
export type ExceptionSource = (typeof EXCEPTION_SOURCES)[number];
const SOURCES: ReadonlySet<string> = new Set(EXCEPTION_SOURCES);

export function isExceptionSource(type: string): type is ExceptionSource {
  return SOURCES.has(type);
}

/** What the mapping asks of the journal beyond the entry. */
export interface JournalFacts {
  /** Whether `station` placed a bet in `roundId` before `seq` (its round had started). */
  betBefore(roundId: string, station: number, seq: number): boolean;
  /** The stations that bet in a round (for its void). */
  roundStations(roundId: string): readonly number[];
  /** Whether a run of the host began before `seq` (a `power.reset` earlier than it). */
  runBefore(seq: number): boolean;
}

/** A journal entry as read back: its sequence, type and the payload in its body. */
export interface SourceEntry {
  seq: number;
  type: ExceptionSource;
  payload: unknown;
}

/** The exceptions `entry` raises at `station`, in order; none when it does not concern the station or does not parse. */
export function exceptionsOf(entry: SourceEntry, station: number, facts: JournalFacts): number[] {
  const at = (s: number | undefined, ...codes: number[]): number[] => (s === station ? codes : []);
  switch (entry.type) {
    case 'door.open':
    case 'door.close': {
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      // A door of the table (no station) is no station's door: no station's slot-door meter counts it.
      if (!p.success || p.data.station !== station) return [];
      const [opened, closed] = DOORS[p.data.door] ?? SLOT_DOOR;
      return [entry.type === 'door.open' ? opened : closed];
    }
    case 'power.reset':
      // The previous run ended (a stop, a kill, a cut): power lost, then applied (Table A-1 0x18, 0x17).
      return PAYLOADS[entry.type].safeParse(entry.payload).success ? [...(facts.runBefore(entry.seq) ? [EXC.powerLost] : []), EXC.powerApplied] : [];
    case 'bill.credit': {
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      return p.success ? at(p.data.station, billCode(p.data.denomination)) : [];
    }
    case 'ticket.printed': {
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      return p.success ? at(p.data.station, EXC.cashoutTicketPrinted) : [];
    }
    case 'ticket.redeem.request': {
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      return p.success ? at(p.data.station, EXC.ticketInserted) : [];
    }
    case 'ticket.redeem.stacked':
    case 'ticket.redeem.returned': {
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      return p.success ? at(p.data.station, EXC.ticketTransferComplete) : [];
    }
    case 'aft.in':
    case 'aft.out': {
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      return p.success ? at(p.data.station, EXC.aftTransferComplete) : [];
    }
    default:
      return moreExceptionsOf(entry, station, facts);
  }
}

function moreExceptionsOf(entry: SourceEntry, station: number, facts: JournalFacts): number[] {
  const at = (s: number | undefined, ...codes: number[]): number[] => (s === station ? codes : []);
  switch (entry.type) {
    case 'credit.cancel':
    case 'handpay.request': {
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      return p.success ? at(p.data.station, EXC.handpayPending) : [];
    }
    case 'handpay.confirm': {
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      return p.success ? at(p.data.station, EXC.handpayReset) : [];
    }
    case 'bet.place': {
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      // Doubles, splits and insurance are further bets of the same round: the game started once.
      if (!p.success || p.data.station !== station || facts.betBefore(p.data.roundId, station, entry.seq)) return [];
      return [EXC.gameStarted];
    }
    case 'round.settle': {
      // The game that ends is the one its 7E started: a station with only held stakes of earlier
      // rounds (`carried` lines: not dealt in) bet nothing here, and neither started nor ended one.
      // A station that bet has a line of this round's stake, or a stake held past it.
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      if (!p.success) return [];
      const bet = p.data.lines.some((l) => l.station === station && !l.carried) || (p.data.held ?? []).some((h) => h.station === station);
      return bet ? [EXC.gameEnded] : [];
    }
    case 'round.void': {
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      return p.success && facts.roundStations(p.data.roundId).includes(station) ? [EXC.gameEnded] : [];
    }
    case 'aft.register': {
      // §8 (docs/sas.md, "AFT registration"): the operator asked the system to register the
      // station (6C), acknowledged a pending registration (6D); a registration ended (6E).
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      if (!p.success || p.data.station !== station) return [];
      if (p.data.event === 'request') return [EXC.aftRequestToRegister];
      if (p.data.event === 'acknowledged') return [EXC.aftRegistrationAcknowledged];
      return p.data.status === 'not-registered' ? [MORE_EXC.aftRegistrationCancelled] : [];
    }
    case 'tilt.raise':
    case 'tilt.clear': {
      const p = PAYLOADS[entry.type].safeParse(entry.payload);
      if (!p.success || (p.data.station !== undefined && p.data.station !== station)) return [];
      const code = (entry.type === 'tilt.raise' ? FAULT_RAISED : FAULT_CLEARED)[p.data.kind];
      return code === undefined ? [] : [code];
    }
    default:
      return [];
  }
}

/** The bill-accepted exception of a note of `denomination` minor units. */
export function billCode(denomination: number): number {
  const face = denomination / MINOR_PER_UNIT;
  return BILL_CODES.get(face) ?? EXC.billAccepted;
}
