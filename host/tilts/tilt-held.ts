// The shapes the tilt manager (host/tilts/tilt-manager.ts) holds and hands out.
import type { TiltSaidPayload } from '../../terms/said.js';
import { inEnglish, type Said } from '../../locales/said.js';
import type { Actor } from './staff.js';
import type { TiltClearance, TiltKind, TiltSpec } from './tilt-kinds.js';

/** A current fault as service mode lists it: what it is, since when, and how it clears. */
export interface CurrentTilt extends TiltSpec {
  kind: TiltKind;
  station?: number;
  messageKey: string;
  clearsKey: string;
  /** In English: the log's and the journal's words. */
  detail?: string;
  /** The same as a key of the catalogues (`tiltDetail.*`) and its parameters, where the host words it: what service mode shows. */
  say?: TiltSaid;
  /** The `tilt.raise` entry and its time. */
  raisedSeq: number;
  raisedAt: string;
  /** Whether the condition still holds (a person may clear only once it has gone). */
  conditionPresent: boolean;
  /** Whether a person may clear it now (with the right role). */
  clearable: boolean;
}

/** A fault's detail as a key of the catalogues' `tiltDetail` section and its parameters, as the journal carries it. */
export type TiltSaid = TiltSaidPayload;

export interface Held {
  kind: TiltKind;
  station?: number;
  detail?: string;
  say?: TiltSaid;
  raisedSeq: number;
  raisedAt: string;
  conditionPresent: boolean;
  /**
   * Held but not journalled: the ledger refused the raise's entry (its disk full, its schema
   * changed while open). `raisedSeq` is then the last entry journalled before it. The raise is
   * journalled at the ledger's next commit, and always before its clear.
   */
  /**
   * Its raise's append is running: that commit's listeners (ticket in reopening a station) run
   * before the append returns, and a clear asked there waits (`clearing`) rather than journal the
   * raise a second time.
   */
  raising?: true;
  unjournalled?: true;
  /** Its condition went but the journal refused the clear: still held (the safe side), the clear retried at the ledger's next commit, by the retry timer, or when its condition is seen gone again. */
  clearing?: ClearHow;
  /**
   * The journal refused its raise or its clear for a reason no retry mends (`journalMayTakeLater`:
   * an entry the schema refuses, a bug): held (the table stays stopped as the fault says), tried
   * again only by a person's clear or a restart, never at each commit or poll.
   */
  stuck?: true;
}

/** How a fault is cleared: by its condition going (`automatic`) or by a person (`by`), and why (`say`). */
export interface ClearHow {
  automatic: boolean;
  by?: Actor;
  say?: Said;
}

/** What the current faults stop, for the table's gates. */
export interface TiltEffects {
  /** The whole table is halted (no bets, no decisions, the round paused). */
  halted: boolean;
  /** New bets are refused at every station. */
  newBetsStopped: boolean;
  /** Stations that take no bets and no cash-out. */
  disabledStations: ReadonlySet<number>;
  /** The progressive jackpot's chip is refused (its controller is at fault); the table plays on. */
  jackpotStopped: boolean;
}

/** A fault's clearing refused: what it says to a person (`say`, a key of the catalogues), the same in English for the log (`reason`). */
export type TiltClearRefusal = { ok: false; reason: string; say: Said };

export function clearRefusal(say: Said): TiltClearRefusal {
  return { ok: false, reason: inEnglish(say), say };
}

/** A held fault's place: its kind, at its station if it has one. */
export const keyOf = (kind: string, station?: number) => (station === undefined ? kind : `${kind}@${station}`);

export function isPersonCleared(clears: TiltClearance): boolean {
  return clears === 'attendant' || clears === 'supervisor';
}
