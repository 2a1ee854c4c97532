import { cardCode, type Card } from '../cards/card.js';
import { advance, roundCore, resumeCountdown, showResults } from './dealing.js';
import type { JournalRecord } from './effects.js';
import type { CorrectionRule } from './game.js';
import { pendingOf, remaining } from './queries.js';
import { putOnHold, readDuringHold } from './on-hold.js';
import { discardHeld } from './held-cards.js';
import { applyDeferredShoe } from './shoe-change.js';
import { takeCard } from './shoe.js';
import type { Hold } from './state.js';
import type { Turn } from './turn.js';
import type { Correction, HoldReason, Uncorrectable } from './vocabulary.js';

// Holds (docs/architecture.md, a round; Macau 2009 Art. 5 n.1): a card the shoe could not read, a card out of turn, an
// extra card, one beyond the shoe's inventory or of another deck set, a journal write the ledger
// refused, a default the game refused, a dealing error the floor reports. Nothing settles on
// hold: a supervisor enters the unreadable card or corrects the dealing error as the game's text
// orders (two people), or, as the last resort, voids the round (every bet returned), saying why
// no correction could put it right.

const TWO_PEOPLE_ACTS = { 'card-entry': 'manual card entry', void: 'a void', correction: 'a correction' } as const;

/** Refuses a two-person act that cannot go ahead with these names; false if it can. */
function refusedForPeople<S, R>(t: Turn<S, R>, act: keyof typeof TWO_PEOPLE_ACTS, who: readonly string[]): boolean {
  if (who.length < 2 || !who[0] || !who[1]) t.refuseAct(`${TWO_PEOPLE_ACTS[act]} needs a supervisor and a second person`, { why: 'needs-two', act });
  else if (new Set(who).size !== who.length) t.refuseAct('the second person must be someone other than the supervisor', { why: 'same-person' });
  else return false;
  return true;
}

/** The shoe could not read a card, or read one of another deck set: hold until resolved. */
export function anomaly<S, R>(t: Turn<S, R>, reason: 'unreadable' | 'wrong-deck', card: string | null, sequence?: number): void {
  if (sequence !== undefined && t.state.sequences.includes(sequence)) return;
  if (t.state.hold) return readDuringHold(t, reason, card, sequence);
  putOnHold(t, reason, card !== null ? { reported: card } : null, sequence);
}

/**
 * A supervisor enters by hand the card the shoe could not read, a second person confirming: the
 * card is placed as if read, journalled as a `misread` resolved by `card-entered` with both names
 * and the shoe's sequence number, and the round goes on. Only an unreadable card can be entered;
 * a card out of turn, extra, of another deck or beyond the inventory was read as it is, and its
 * round is voided instead.
 */
export function enterCard<S, R>(t: Turn<S, R>, card: Card, supervisor: string, witness: string): void {
  const hold = t.state.hold;
  if (hold?.reason !== 'unreadable') {
    return hold
      ? t.refuseAct(`a ${hold.reason} hold is resolved by voiding the round, not by entering a card`, { why: 'hold-voids', hold: hold.reason })
      : t.refuseAct('the table is not on hold', { why: 'not-on-hold' });
  }
  // Cards that left the shoe after the unreadable one went somewhere the host never saw:
  // entering the first cannot put the deal back in order. The hold stays until a void.
  if (hold.reads.length > 0) {
    const seqs = hold.reads.map((r) => r.shoeSequence ?? '?').join(', ');
    return t.refuseAct(
      `${hold.reads.length} more card(s) left the shoe during the hold (shoe sequence ${seqs}): the deal cannot be restored by entering one card; void the round`,
      { why: 'cards-after-hold', act: 'card-entry', count: hold.reads.length, sequences: seqs },
    );
  }
  const who = [supervisor.trim(), witness.trim()];
  if (refusedForPeople(t, 'card-entry', who)) return;
  const code = cardCode(card);
  const dealing = t.state.phase === 'dealing' && t.state.round !== null;
  if (dealing && pendingOf(t.state, t.game)?.kind !== 'card') return t.refuseAct('the round expects no card now: void it', { why: 'no-card-now' });
  if (!dealing && !t.game.shoe.shoeCue(t.state.shoe))
    return t.refuseAct('no card is expected between rounds: lift the hold by a void', { why: 'no-card-between' });
  if (remaining(t.state, t.game.decks, card) <= 0) return t.refuseAct(`${code} is beyond the shoe's inventory`, { why: 'beyond-inventory', card: code });
  const sequence = hold.sequence;
  t.write({
    type: 'misread',
    payload: {
      tableId: t.tableId,
      ...(dealing ? { roundId: t.state.roundId } : {}),
      detail: `unreadable card entered by hand${sequence !== null ? ` (shoe sequence ${sequence})` : ''}`,
      resolution: 'card-entered',
      card: code,
      confirmedBy: who,
      ...(sequence !== null ? { shoeSequence: [sequence] } : {}),
    },
  });
  t.log('warn', 'card entered by hand', { roundId: t.state.roundId, card: code, confirmedBy: who, sequence });
  t.set({ hold: null });
  takeCard(t, card);
  // The hold stopped the countdown of the step it came in (a burn between rounds); a round in
  // play went on when the card was placed.
  if (t.state.hold === null && !t.state.faults.halted && t.state.phase !== 'dealing') resumeCountdown(t);
}

/**
 * A supervisor voids the round (two people): every bet of the round is returned. On a hold
 * outside a round (a stray card between rounds) it lifts the hold, journalled as the hold's
 * resolution so that a fold does not put it back.
 */
export function voidRound<S, R>(t: Turn<S, R>, reason: string, authorisedBy: readonly string[], given?: Uncorrectable): void {
  const s = t.state;
  if (s.phase !== 'dealing' && !s.hold) return t.refuseAct('no round to void', { why: 'none-to-void' }, 'no-round');
  // Two people, as for a manual card entry: a void moves every bet of the round back.
  if (
    refusedForPeople(
      t,
      'void',
      authorisedBy.map((w) => w.trim()),
    )
  )
    return;
  const inPlay = s.phase === 'dealing' && s.placed.length > 0;
  // Misdrawn cards kept for the next player end in the discards with the round.
  discardHeld(t);
  // Why no correction was possible, and the article that cancels a round that cannot be put right.
  const uncorrectable = given ?? factsAgainstCorrection(s.hold);
  const rule = voidArticle(t.game.rules.voidRule, s.hold, uncorrectable);
  const roundVoid: JournalRecord = {
    type: 'round.void',
    txId: `${s.roundId}:void`,
    payload: { ...roundCore(t), reason, authorisedBy, ...(uncorrectable ? { uncorrectable } : {}), ...(rule ? { rule } : {}) },
  };
  if (s.hold) {
    // The resolution names every read the hold covered, so each card that left the shoe is accounted for.
    const sequences = [s.hold.sequence, ...s.hold.reads.map((r) => r.shoeSequence)].filter((n): n is number => n !== null && n !== undefined);
    t.write({
      type: 'misread',
      payload: {
        tableId: t.tableId,
        ...(inPlay ? { roundId: s.roundId } : s.hold.roundId ? { roundId: s.hold.roundId } : {}),
        detail: `${s.hold.reason} hold lifted by a void: ${reason}`.slice(0, 2000),
        resolution: 'round-void',
        confirmedBy: authorisedBy.slice(0, 4),
        ...(sequences.length > 0 ? { shoeSequence: sequences.slice(0, 16) } : {}),
      },
    });
  }
  if (inPlay) {
    t.write(roundVoid);
    for (const p of s.placed) t.credit(p.station, p.amount);
  }
  t.log('warn', inPlay ? 'round voided' : 'hold between rounds lifted by a void', { roundId: s.roundId, reason, authorisedBy, inPlay });
  // The game's round must end too, or the next betting window could not start a round.
  if (inPlay && s.round !== null) t.set({ shoe: t.game.round.voidRound(t.state.shoe, s.round) });
  // Chips left on the spots through a hold between rounds go back to the meters with the void.
  t.set({ hold: null, chips: [], round: null });
  applyDeferredShoe(t);
  showResults(t, null);
}

/**
 * The holds that are an error in the deal itself: a card out of turn, one too many, one laid at
 * the wrong hand (the floor's report). These are what Macau blackjack Art. 5 n.1 2) («Em caso de
 * erro na distribuição … Na impossibilidade de rectificação do erro, são canceladas todas as
 * cartas») and war [Art. 6] («se verifique um erro … O lance … é considerado nulo se for de todo
 * impossível corrigir o erro») speak of.
 */
const DEALING_ERRORS: readonly HoldReason[] = ['out-of-turn', 'extra-card', 'dealing-error'];

/**
 * The article a void cites: the game's `voidRule`, only for a dealing error that could not be put
 * right. A card the reader could not read or that no shoe of the table holds, a device's fault, a
 * void with no error on record: no text names them, so the void cites none (a review, 1 December:
 * the house's reading, its `uncorrectable` and `reason` saying why).
 */
function voidArticle(voidRule: string | null, hold: Hold | null, uncorrectable: Uncorrectable | undefined): string | null {
  if (!hold || !DEALING_ERRORS.includes(hold.reason)) return null;
  return uncorrectable && uncorrectable !== 'device-fault' ? voidRule : null;
}

/**
 * Why the hold's facts rule a correction out, where they do: cards left the shoe after the error,
 * a device failed, or a card that no shoe of this table can hold. Otherwise only the people who
 * void say why (service mode always asks).
 */
function factsAgainstCorrection(hold: Hold | null): Uncorrectable | undefined {
  if (!hold) return undefined;
  if (hold.reads.length > 0) return 'cards-after-error';
  if (hold.reason === 'ledger' || hold.reason === 'default-refused') return 'device-fault';
  if (hold.reason === 'inventory' || hold.reason === 'wrong-deck') return 'card-unidentified';
  return undefined;
}

/**
 * A supervisor stops the round in play for a dealing error seen at the table (a card come out face
 * up, one laid at another hand): the table holds, journalled, until the error is corrected or, if
 * it cannot be, the round is voided.
 */
export function dealingError<S, R>(t: Turn<S, R>, by: string): void {
  if (t.state.hold) return t.refuseAct(`the table is already on hold (${t.state.hold.reason})`, { why: 'already-on-hold', hold: t.state.hold.reason });
  if (t.state.phase !== 'dealing' || t.state.round === null) return t.refuseAct('no round in play', { why: 'no-round-in-play' }, 'no-round');
  if (!by.trim()) return t.refuseAct('a dealing error is reported by a supervisor', { why: 'no-reporter' });
  putOnHold(t, 'dealing-error', null);
  t.log('warn', 'dealing error reported', { roundId: t.state.roundId, by });
}

/** The game's rule for correcting this hold this way, if its text has one. */
function ruleFor(rules: readonly CorrectionRule[], correction: Correction, hold: HoldReason): CorrectionRule | undefined {
  return rules.find((r) => r.correction === correction && r.holds.includes(hold));
}

/**
 * The game's rule that orders this correction of the hold; null once the correction is refused:
 * the text orders none or keeps the card, cards were read after the error, or one person only.
 */
function orderedRule<S, R>(t: Turn<S, R>, hold: Hold, correction: Correction, who: readonly string[]): Extract<CorrectionRule, { rule: string }> | null {
  const found = ruleFor(t.game.rules.corrections, correction, hold.reason);
  const count = hold.reads.length;
  if (!found) {
    const { kind: game, profile } = t.game;
    t.refuseAct(`${game} under ${profile}: the text orders no ${correction} correction for a ${hold.reason} hold; void the round`, {
      why: 'correction-not-ordered',
      game,
      profile,
      correction,
      hold: hold.reason,
    });
  } else if ('forbiddenBy' in found)
    t.refuseAct(`no ${correction} correction: the text keeps the card (${found.forbiddenBy})`, {
      why: 'correction-forbidden',
      correction,
      article: found.forbiddenBy,
    });
  else if (count > 0)
    t.refuseAct(`${count} more card(s) left the shoe during the hold: the deal cannot be put right; void the round`, {
      why: 'cards-after-hold',
      act: 'correction',
      count,
      sequences: hold.reads.map((r) => r.shoeSequence ?? '?').join(', '),
    });
  else if (!refusedForPeople(t, 'correction', who)) return found;
  return null;
}

/**
 * Two people correct the dealing error the table holds for, as the game's text orders
 * (`GameDefinition.corrections`), journalled as the hold's resolution with the article:
 * - `exposed-card`: the last card of the round is taken back as void and dealt again;
 * - `undue-card`: the card read out of turn, or when none was due, goes to the discards;
 * - `misdrawn-card`: that card, unseen, is kept for the next card a player asks for (or the
 *   dealer's next draw) and goes to the discards if nobody asks;
 * - `wrong-hand`: the card laid at another hand is moved to the one the table shows (its record
 *   follows the shoe's order, which is the rectified attribution);
 * - `exposed-card-stands`: the card come out face up stays valid where it was dealt and the round
 *   goes on (baccarat Art. 4): nothing moves; the record names the card and the article.
 * Refused, with why, where the text orders no such correction, forbids it, or the hold's facts
 * rule it out (cards read after the error): the round is then voided instead.
 */
export function correct<S, R>(t: Turn<S, R>, correction: Correction, supervisor: string, witness: string): void {
  const hold = t.state.hold;
  if (!hold) return t.refuseAct('the table is not on hold', { why: 'not-on-hold' });
  const who = [supervisor.trim(), witness.trim()];
  const found = orderedRule(t, hold, correction, who);
  if (!found) return;
  const dealing = t.state.phase === 'dealing' && t.state.round !== null;
  const card = hold.card ?? null;
  let journalCard: string | null = card !== null ? cardCode(card) : null;
  switch (correction) {
    case 'exposed-card': {
      const round = t.state.round;
      if (!dealing || round === null) return t.refuseAct('no round in play', { why: 'no-round-in-play' });
      const r = t.game.round.withdrawLastCard(t.state.shoe, round);
      if (!r.ok) return r.act ? t.refuseAct(r.reason, r.act) : t.refuse(r.reason);
      const i = t.state.cards.map((c) => c.card).lastIndexOf(r.card);
      t.set({ shoe: r.shoe, round: r.round, cards: t.state.cards.map((c, j) => (j === i ? { card: c.card, to: 'discard' } : c)) });
      journalCard = r.card;
      break;
    }
    case 'undue-card':
      if (card === null) return t.refuseAct('the hold names no card to discard', { why: 'no-card-to-discard' });
      if (dealing) t.set({ cards: [...t.state.cards, { card: cardCode(card), to: 'discard' }] });
      break;
    case 'misdrawn-card':
      if (!dealing) return t.refuseAct('no round in play: nobody can ask for the card', { why: 'nobody-asks' });
      if (card === null) return t.refuseAct('the hold names no card to keep', { why: 'no-card-to-keep' });
      t.set({ held: [...(t.state.held ?? []), { card, ...(hold.sequence !== null ? { sequence: hold.sequence } : {}) }] });
      break;
    case 'wrong-hand':
      if (!dealing) return t.refuseAct('no round in play', { why: 'no-round-in-play' });
      journalCard = null;
      break;
    case 'exposed-card-stands': {
      if (!dealing) return t.refuseAct('no round in play', { why: 'no-round-in-play' });
      // The card exposed is the last one dealt to the round; it stays there, valid.
      const last = t.state.cards.findLast((c) => c.to !== 'discard' && c.to !== 'burn');
      if (!last) return t.refuseAct('no card of the round has been dealt', { why: 'no-card-dealt' });
      journalCard = last.card;
      break;
    }
  }
  t.write({
    type: 'misread',
    payload: {
      tableId: t.tableId,
      // The round dealt, or the settled round whose results the hold came in.
      ...(dealing ? { roundId: t.state.roundId } : hold.roundId ? { roundId: hold.roundId } : {}),
      detail: `${hold.reason} hold: ${correction} corrected (${found.rule})`,
      resolution: 'corrected',
      correction,
      article: found.rule,
      ...(journalCard ? { card: journalCard } : {}),
      confirmedBy: who,
      ...(hold.sequence !== null ? { shoeSequence: [hold.sequence] } : {}),
    },
  });
  t.log('warn', 'dealing error corrected', { roundId: t.state.roundId, correction, rule: found.rule, card: journalCard, confirmedBy: who });
  t.set({ hold: null });
  if (dealing) advance(t);
  else if (!t.state.faults.halted) resumeCountdown(t);
}
