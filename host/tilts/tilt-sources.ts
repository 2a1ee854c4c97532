import type { BillAcceptorEvent } from '../../hardware/billacceptor/types.js';
import type { ShoeEvent } from '../../hardware/shoe/types.js';
import { verifyLedger, type Ledger } from '../../ledger/index.js';
import { tiltDetailSaid, type Said } from '../../locales/said.js';
import type { LiveTable } from '../table/runtime.js';
import type { TiltManager } from './tilt-manager.js';

// The sources of faults: each maps its own events onto raise / conditionGone, nothing else. A
// detail the host words itself is said by a `tiltDetail.*` key (service mode shows it in the
// reader's language; the journal keeps its English beside it); a device's own words (its reason,
// its alarm's text) go in as its parameters or as they are.

/** A bill acceptor's event at a station. */
export function onBillAcceptorEvent(tilts: TiltManager, station: number, e: BillAcceptorEvent): void {
  const at = { station };
  switch (e.type) {
    case 'disconnected':
      return tilts.raise('bill-acceptor-lost', { ...at, detail: e.reason });
    case 'connected':
    case 'reconnected':
      return tilts.conditionGone('bill-acceptor-lost', station);
    case 'jam':
      return tilts.raise('bill-jam', {
        ...at,
        say: e.note
          ? tiltDetailSaid('billJamNote', { where: e.where, denomination: e.note.denomination, currency: e.note.currency })
          : tiltDetailSaid('billJam', { where: e.where }),
      });
    case 'stackerFull':
      return tilts.raise('stacker-full', at);
    case 'stackerRemoved':
      return tilts.raise('stacker-removed', at);
    case 'stackerReplaced':
      // A replaced stacker is an emptied one.
      tilts.conditionGone('stacker-removed', station);
      return tilts.conditionGone('stacker-full', station);
    case 'cheated':
      return tilts.raise('bill-cheat', at);
    case 'failure':
      // The device's own reason, as it gave it; its code beside it.
      return tilts.raise(
        'bill-failure',
        e.code !== undefined ? { ...at, say: tiltDetailSaid('deviceFailure', { reason: e.reason, code: e.code }) } : { ...at, detail: e.reason },
      );
    case 'unvaluedCredit':
      return tilts.raise('bill-failure', { ...at, say: tiltDetailSaid('unvaluedCredit', { reason: e.reason }) });
    case 'protocolViolation':
      // The device reported what its protocol forbids (a credit for a note told to go back, an
      // escrow changed after STACK…): nothing was credited; a cheat until a supervisor has looked.
      // The tilt.raise entry journals it.
      return tilts.raise('bill-cheat', {
        ...at,
        say: e.note
          ? tiltDetailSaid('protocolBrokenNote', {
              rule: e.rule,
              report: e.report,
              denomination: e.note.denomination,
              currency: e.note.currency,
              escrow: e.note.escrowId,
            })
          : tiltDetailSaid('protocolBroken', { rule: e.rule, report: e.report }),
      });
    case 'faultCleared':
    case 'idle':
      // The device reports itself healthy: every condition of its own has gone.
      for (const kind of ['bill-acceptor-lost', 'bill-jam', 'stacker-full', 'stacker-removed', 'bill-failure'] as const) tilts.conditionGone(kind, station);
      return;
    default:
      return;
  }
}

/**
 * The shoe's events. Its lid opens as a matter of course when the dealer changes the shoe, so an
 * open lid is a fault only when no shuffle is due.
 */
export function onShoeEvent(tilts: TiltManager, e: ShoeEvent, shuffleDue: () => boolean): void {
  switch (e.type) {
    case 'disconnected':
      return tilts.raise('shoe-lost', { detail: e.reason });
    case 'connected':
    case 'reconnected':
      return tilts.conditionGone('shoe-lost');
    case 'lid':
      if (e.open && !shuffleDue()) return tilts.raise('shoe-lid-open', { say: tiltDetailSaid('shoeSequence', { sequence: e.sequence }) });
      if (!e.open) tilts.conditionGone('shoe-lid-open');
      return;
    case 'shoeLoaded':
      return tilts.conditionGone('shoe-lid-open');
    case 'alarm':
      // The alarm's code and text are the shoe's own.
      if (e.severity !== 'info') tilts.raise('shoe-alarm', { say: tiltDetailSaid('shoeAlarm', { code: e.code, text: e.text, sequence: e.sequence }) });
      return;
    default:
      return;
  }
}

/** How long the shoe's lid stays closed before `shoe-lid-open` clears (`shoeTiltSource`). */
export const LID_CLOSED_MS = 2000;

/**
 * The shoe's events as faults (`onShoeEvent`), with the lid's clear held back: an open lid is
 * raised at once (a lid opened mid-round stops new bets at once), its clear only once the lid has
 * stayed closed `closedMs`. A bouncing sensor, or an ASCII stream saying open and closed line after
 * line, journalled a raise and a clear per bounce (a review: 40 of each in a second). A new shoe
 * loaded clears it at once, as before.
 */
export function shoeTiltSource(tilts: TiltManager, shuffleDue: () => boolean, closedMs = LID_CLOSED_MS): (e: ShoeEvent) => void {
  let closing: ReturnType<typeof setTimeout> | null = null;
  const cancel = (): void => {
    if (closing) clearTimeout(closing);
    closing = null;
  };
  const closed = (): void => {
    closing ??= setTimeout(() => {
      closing = null;
      try {
        tilts.conditionGone('shoe-lid-open');
      } catch {
        // The ledger closed meanwhile (the host stopping): the fault is restored at the next
        // start and cleared when the shoe says its lid is closed (its HELLO at connect, below).
      }
    }, closedMs);
    closing.unref?.();
  };
  return (e) => {
    if (e.type === 'lid' && !e.open) return closed();
    if (e.type === 'lid' || e.type === 'shoeLoaded') cancel();
    // A closed lid as the shoe's HELLO says it, at connect and at each status: a fault restored at
    // a start (the host stopped while the clear waited) clears though no lid event comes again. An
    // open lid there raises nothing: the lid events say when it opened, and a status between a new
    // shoe loaded and its lid shut would raise a fault at every shoe change.
    if ((e.type === 'connected' || e.type === 'status') && e.lidOpen !== undefined) {
      if (e.lidOpen) cancel();
      else closed();
    }
    onShoeEvent(tilts, e, shuffleDue);
  };
}

/** A card hold of the rounds is a fault of the table until it is resolved. */
export function watchHolds(tilts: TiltManager, rounds: LiveTable): () => void {
  const look = () => {
    const hold = rounds.reads.view().hold;
    // A ledger hold after a failed verification at start is the ledger-integrity fault; one during
    // play (a refused settlement, a failed write) is a hold like a card's, resolved by a void.
    const covered = hold === 'ledger' && tilts.list().some((t) => t.kind === 'ledger-integrity');
    if (hold && !covered) tilts.raise('card-hold', { say: tiltDetailSaid('cardHold', { round: rounds.reads.view().roundId ?? '—', hold }) });
    else if (!hold) tilts.conditionGone('card-hold', undefined, tiltDetailSaid('holdResolved'));
  };
  // No look now: at start the rounds are not resumed yet, and a restored card-hold would be
  // journalled as resolved before the replay puts the hold back. Their first change comes with
  // the resume (or the first betting window).
  return rounds.onChange(look);
}

/** The sync client's stop-new-bets signal (unsynced entries beyond the offline limit). */
export function onUpstreamSignal(tilts: TiltManager, stop: boolean, say?: Said): void {
  if (stop) tilts.raise('upstream-offline', say ? { say } : {});
  else tilts.conditionGone('upstream-offline');
}

/** The ledger witness link's stop-new-bets signal (journal not witnessed beyond its limit). */
export function onWitnessSignal(tilts: TiltManager, stop: boolean, say?: Said): void {
  if (stop) tilts.raise('witness-offline', say ? { say } : {});
  else tilts.conditionGone('witness-offline');
}

/**
 * The full verification of the ledger (hash chain, replay, projections). A failure halts the
 * table until a supervisor has looked; it returns the report for the log.
 */
export function verifyForTilts(ledger: Ledger, tilts: TiltManager): ReturnType<typeof verifyLedger> {
  const report = verifyLedger(ledger);
  if (!report.ok) tilts.raise('ledger-integrity', { detail: report.problems.slice(0, 5).join('; ') });
  return report;
}
