import type { TiltKind as ProtocolTiltKind, TiltNotice } from '../../protocol/index.js';

/** Who may end a fault: the condition itself, an attendant, a supervisor, or the hold's resolution. */
export type TiltClearance = 'auto' | 'attendant' | 'supervisor' | 'resolution';

export interface TiltSpec {
  /** A station's device, or the whole table. */
  scope: 'station' | 'table';
  severity: TiltNotice['severity'];
  disables: TiltNotice['disables'];
  /**
   * `auto`: journalled as cleared when the condition goes. `attendant` / `supervisor`: a person of
   * that rank (or above) clears it once the condition is gone. `resolution`: cleared when what
   * caused it is resolved through its own two-person act (a card hold: card entered or round void).
   */
  clears: TiltClearance;
  /**
   * A momentary event (a cheat attempt, a shoe alarm, a failed verification) has no condition
   * that could "go": it stays until a person clears it, and may be cleared at once.
   */
  latched: boolean;
  /**
   * Shown to staff only (service mode, the event log, /metrics), never on the players' and the
   * table's screens: an attack on service mode is staff's business, and stops nothing at the table.
   */
  staffOnly?: true;
  /**
   * Each occurrence is its own fault to work (a printer's late verdict on one ticket, then on
   * another): journalled even while one of its kind is open at that place, each with its detail,
   * and worked one by one, the oldest first. Others are one condition, journalled once until cleared.
   */
  each?: true;
  /**
   * The condition is an order of the casino system (SAS), not a reading of a device: its clear
   * follows the order at once, never held while the fault flaps (host/tilts/tilt-manager.ts
   * `FLAP_CLEARS`). The station must do what the system believes it does, and the journal (and the
   * exceptions it gives the system) says when. Their source bounds how often they change instead
   * (host/start/sas-links.ts `SAS_CHANGES_*`, host/devices/sas-aft-lock.ts `AFT_LOCKS_*`).
   */
  ordered?: true;
}

/**
 * Every fault the table knows. Why each disables what it does:
 * - a lost bill acceptor or a full stacker only stops notes; the player's credit still plays;
 * - a jam may hold a player's note, a removed stacker leaves the cashbox open, and a cheat attempt
 *   is an attack on the acceptor: the station stops until someone has looked;
 * - a lost shoe or an open lid cannot deal the next round safely (new bets stop; the round in play
 *   waits for its cards anyway), an alarm of the shoe or a ledger that fails its verification puts
 *   every record of the table in doubt: the whole table halts;
 * - a card hold halts the table until a supervisor enters the card or voids the round;
 * - offline beyond the limit: docs/architecture.md (money and records): new bets stop, rounds in play finish, cash-out goes on;
 *   the same for the ledger witness gone beyond its limit (docs/ledger.md, "The witness"): the journal
 *   still holds every credit, only the stretch nobody outside the host has seen grows;
 * - little disk left under the data folder: new bets stop while the ledger can still journal the
 *   rounds in play, their settlements and the cash-outs (host/tilts/disk-space.ts);
 * - the progressive jackpot's pools as the table holds them disagree with the ledger's (a restored
 *   database, a program changed under the pools): its chip is refused until they agree again (a
 *   two-person reset), the rest of the table plays on (host/tilts/jackpot-controller.ts);
 * - the casino's SAS link silent (docs/sas.md): its system no longer sees the station's meters and
 *   events, which the journal keeps for it; play goes on and the exceptions wait for the host —
 *   unless the station is configured to stop without it (`sas-link-stop`);
 * - the casino's system disabled play or the bill acceptor (SAS long polls 0x01 / 0x07): the station
 *   stops, or takes no notes, until the system enables it again (0x02 / 0x06);
 * - the casino's system locked the station for a cashless transfer (AFT game lock, SAS 0x74): its credit
 *   meter is the system's until the transfer, a cancel or the lock's timeout (at most 99.99 s);
 * - PINs tried at service mode faster than its limits allow, or an account of the accounts store
 *   that differs from the journal (host/service): security events for staff, which stop no play
 *   (the limits and the refused account are the defence) and which a supervisor clears once seen;
 * - a printer's late verdict on a held ticket that differs from the person's settlement (issue 47,
 *   docs/tito.md): the journal's end stands, so no money moves by itself, but the player may have
 *   lost that credit (settled printed, never printed) or holds paper that will not be paid (settled
 *   void, printed): the station plays on, and an attendant or technician works it and clears it;
 * - a ticket printer out of paper or not answering: the station plays on (a cash-out is then a
 *   handpay, docs/tito.md); journalled so staff see it and the casino's system hears it (SAS
 *   exceptions 61 and 60, docs/sas.md), cleared when the printer says it is fixed;
 * - a station closed to tickets (the journal refuses the end of a ticket in never approved there, a
 *   full disk: host/devices/ticket-in.ts `close`): the station gives every ticket back by itself,
 *   and its notes, bets and cash-outs go on, so the fault stops nothing more; shown at the station
 *   (a player stops inserting tickets there) and to staff, cleared when the station takes tickets again;
 * - a rule set switched at a shoe change, journalled, whose game could not be built (the journal
 *   refusing its opening writes: host/config/config-changes.ts `switchRuleSet`): the table has no
 *   game and takes nothing, so it halts; only the next start, which opens the journalled rule set,
 *   resolves it (no person's clear could build the game).
 */
export const TILTS = {
  'bill-acceptor-lost': { scope: 'station', severity: 'warning', disables: 'nothing', clears: 'auto', latched: false },
  'bill-jam': { scope: 'station', severity: 'warning', disables: 'station', clears: 'attendant', latched: false },
  'stacker-full': { scope: 'station', severity: 'warning', disables: 'nothing', clears: 'auto', latched: false },
  'stacker-removed': { scope: 'station', severity: 'critical', disables: 'station', clears: 'attendant', latched: false },
  'bill-cheat': { scope: 'station', severity: 'critical', disables: 'station', clears: 'supervisor', latched: true },
  'bill-failure': { scope: 'station', severity: 'warning', disables: 'nothing', clears: 'auto', latched: false },
  'shoe-lost': { scope: 'table', severity: 'critical', disables: 'new-bets', clears: 'auto', latched: false },
  'shoe-lid-open': { scope: 'table', severity: 'warning', disables: 'new-bets', clears: 'auto', latched: false },
  'shoe-alarm': { scope: 'table', severity: 'critical', disables: 'table', clears: 'supervisor', latched: true },
  'card-hold': { scope: 'table', severity: 'critical', disables: 'table', clears: 'resolution', latched: false },
  'upstream-offline': { scope: 'table', severity: 'warning', disables: 'new-bets', clears: 'auto', latched: false },
  'witness-offline': { scope: 'table', severity: 'warning', disables: 'new-bets', clears: 'auto', latched: false },
  'disk-low': { scope: 'table', severity: 'critical', disables: 'new-bets', clears: 'auto', latched: false },
  'ledger-integrity': { scope: 'table', severity: 'critical', disables: 'table', clears: 'supervisor', latched: true },
  // Closed by a supervisor in service mode: no new bets until a supervisor opens it again.
  'table-closed': { scope: 'table', severity: 'info', disables: 'new-bets', clears: 'supervisor', latched: true },
  'jackpot-controller': { scope: 'table', severity: 'critical', disables: 'jackpot', clears: 'auto', latched: false },
  'service-sign-in-burst': { scope: 'table', severity: 'warning', disables: 'nothing', clears: 'supervisor', latched: true, staffOnly: true },
  'accounts-integrity': { scope: 'table', severity: 'critical', disables: 'nothing', clears: 'supervisor', latched: true, staffOnly: true },
  // A peer table in the data folder's files that the journal does not vouch for: its transfers are refused (issue 50).
  'peer-integrity': { scope: 'table', severity: 'critical', disables: 'nothing', clears: 'supervisor', latched: true, staffOnly: true },
  'sas-link-down': { scope: 'station', severity: 'warning', disables: 'nothing', clears: 'auto', latched: false, staffOnly: true },
  // The same outage at a station configured to stop play without its casino system (`stations[].sas.stopPlayOnLinkDown`).
  'sas-link-stop': { scope: 'station', severity: 'warning', disables: 'station', clears: 'auto', latched: false },
  'sas-play-disabled': { scope: 'station', severity: 'info', disables: 'station', clears: 'auto', latched: false, ordered: true },
  'sas-bills-disabled': { scope: 'station', severity: 'info', disables: 'nothing', clears: 'auto', latched: false, ordered: true },
  // The casino's system holds the station for a cashless transfer (AFT game lock, 0x74): no bet, note or cash-out until its timeout.
  'sas-aft-locked': { scope: 'station', severity: 'info', disables: 'station', clears: 'auto', latched: false, ordered: true },
  'ticket-late-verdict': { scope: 'station', severity: 'critical', disables: 'nothing', clears: 'attendant', latched: true, staffOnly: true, each: true },
  // The upstream's receipt of the journal's head did not verify (another head, another key, or no key to check it):
  // journalled so the floor hears of it (the back office's `bad-receipt` alarm); play goes on, the sync goes on.
  'upstream-receipt': { scope: 'table', severity: 'critical', disables: 'nothing', clears: 'supervisor', latched: true, staffOnly: true },
  // A configuration order from the back office this table refused, or one that was not the upstream's
  // word (host/floor/remote-config.ts): each journalled with why, so the floor hears of it (the
  // back office's `config-order` alarm); nothing changed, play goes on.
  'config-order': { scope: 'table', severity: 'warning', disables: 'nothing', clears: 'supervisor', latched: true, staffOnly: true, each: true },
  'printer-offline': { scope: 'station', severity: 'warning', disables: 'nothing', clears: 'auto', latched: false, staffOnly: true },
  'printer-paper-out': { scope: 'station', severity: 'warning', disables: 'nothing', clears: 'auto', latched: false, staffOnly: true },
  // The printer did what the protocol shows no honest printer does (refused the layout, printed a job
  // nobody asked for or one twice, held jobs until the driver reset it): latched, for a person to look.
  'printer-misbehaved': { scope: 'station', severity: 'warning', disables: 'nothing', clears: 'attendant', latched: true, staffOnly: true },
  // The printer stopped for a paper jam, or for another fault of its mechanism (the head open, a
  // cutter, head, voltage or temperature error): a cash-out meanwhile is a handpay; each clears by
  // itself once the printer has stopped reporting it for a while.
  'printer-jam': { scope: 'station', severity: 'warning', disables: 'nothing', clears: 'auto', latched: false, staffOnly: true },
  'printer-fault': { scope: 'station', severity: 'warning', disables: 'nothing', clears: 'auto', latched: false, staffOnly: true },
  // A cash-out ticket the printer could not judge, held for a person (the station's bets and cash-out
  // wait on it already): the floor hears of it; cleared when it ends (settled, or the printer's verdict).
  'ticket-held': { scope: 'station', severity: 'warning', disables: 'nothing', clears: 'auto', latched: false, staffOnly: true },
  'ticket-in-closed': { scope: 'station', severity: 'warning', disables: 'nothing', clears: 'auto', latched: false },
  // The table's clock is past the bound from the upstream's, or outside any date a ticket may carry (host/floor/floor-clock-watch.ts):
  // ticket-out refuses by itself; a technician sets the clock. Cleared once it agrees again.
  'table-clock': { scope: 'table', severity: 'warning', disables: 'nothing', clears: 'auto', latched: false, staffOnly: true },
  'restart-needed': { scope: 'table', severity: 'critical', disables: 'table', clears: 'resolution', latched: false },
} as const satisfies Record<ProtocolTiltKind, TiltSpec>;

export type TiltKind = keyof typeof TILTS;
export const TILT_KINDS = Object.keys(TILTS) as TiltKind[];

export function isTiltKind(kind: string): kind is TiltKind {
  return Object.hasOwn(TILTS, kind);
}

export function tiltSpec(kind: TiltKind): TiltSpec {
  return TILTS[kind];
}

/** The locale key of a fault's message (every locale words it). */
export function tiltMessageKey(kind: TiltKind): string {
  return `tilt.${kind}`;
}

/** The locale key saying how a fault clears. */
export function tiltClearsKey(clears: TiltClearance): string {
  return `tiltClears.${clears}`;
}
