// The words of ticket in (ticket-in.ts): what a station's screen shows, what a person settles,
// and what the class is handed. Apart so the class's file holds its rules only.
import type { Logger } from 'pino';
import type { Ledger } from '../../ledger/ledger.js';
import type { TICKET_RETURNS } from '../../terms/ticket-terms.js';
import type { TableConfig } from '../config/table-config.js';
import type { Said } from '../config/refusal-words.js';
import type { TicketAuthority } from '../tickets/authority.js';

type TicketReturn = (typeof TICKET_RETURNS)[number];

/** What a station's screen says of the last ticket inserted there. */
export type TicketInState =
  | { state: 'checking'; validation: string; at: number }
  | { state: 'credited'; validation: string; amount: number; at: number }
  | { state: 'returned'; validation: string; reason: TicketReturn; at: number };

/**
 * A ticket in that the acceptor left without an end after its approval (a protocol broken after
 * STACK, a jam, a newer ticket at the station, a restart behind a newer attempt): whether it is in
 * the cashbox only a person can say (service mode's Tickets page, docs/tito.md).
 */
export interface HeldTicketIn {
  station: number;
  /** The attempt's request entry: names it among the station's held ones (two numbers may share their last four digits). */
  seq: number;
  /** The validation number's last four digits: the whole number never leaves the host for a screen. */
  last4: string;
  /** Minor units, as approved. */
  amount: number;
  /** When it was approved. */
  since: string;
}

/** A person's settlement of a held ticket in: `stacked` (found in the cashbox: credited) or `returned` (not there: back with the player). */
export type TicketInSettlement = 'stacked' | 'returned';

export type TicketInSettled =
  { ok: true; station: number; last4: string; amount: number; outcome: TicketInSettlement } | { ok: false; detail: string; say: Said };

export interface TicketInDeps {
  config: TableConfig;
  ledger: Ledger;
  log: Logger;
  /** The validation authority, behind its guard (host/tickets/guard.ts); absent: every ticket goes back `offline`. */
  authority: TicketAuthority | null;
  /**
   * The table's faults (its TiltManager): a station closed to tickets is its fault
   * `ticket-in-closed` while it lasts, so the screens, service mode and /healthz show it.
   */
  faults?: TicketInFaults;
}

/** Where a station's closing to tickets is raised and cleared (the table's TiltManager; never throws). */
export interface TicketInFaults {
  raise(kind: 'ticket-in-closed', at: { station: number }): void;
  conditionGone(kind: 'ticket-in-closed', station: number, say?: Said): void;
  /** The faults open now: a start finds those of stations the configuration no longer has. */
  list(): readonly { kind: string; station?: number }[];
}
