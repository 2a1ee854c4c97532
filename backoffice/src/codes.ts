// The codes the upstream hands over as they are in the tables' journals and heartbeats — a fault,
// a rule profile, a journal entry's type, a decision, a bet — worded through the catalogues
// (docs/backoffice.md, "Codes in words"). A code the catalogues have no words for (a newer
// table's fault, a profile added later) is shown as itself: visible, never a crash, never a blank.
import { betWordsOf } from '../../locales/bet-key.js';
import { cardPlaceSaid } from '../../locales/card-place.js';
import { isMessageKey } from '../../locales/i18n.js';
import type { Words } from './i18n.js';

type T = Words['t'];

/** `key`'s words when the catalogues have it, else `code` as it came. */
function worded(t: T, key: string, code: string): string {
  return isMessageKey(key) ? t(key) : code;
}

/** A fault (`tilt.raise`'s kind, a heartbeat's `faults`), in the words the table's screens show it. */
export function faultWords(t: T, code: string): string {
  return worded(t, `tilt.${code}`, code);
}

/** A rule profile (`round.settle`'s `profile`): the text it plays and the option the text leaves. */
export function profileWords(t: T, code: string): string {
  return worded(t, `backoffice.profile.${code}`, code);
}

/** A journal entry's type (`jackpot.settle`, `transfer.in`…), by the name service mode's event log gives it. */
export function entryWords(t: T, type: string): string {
  return worded(t, `entryType.${type}`, type);
}

/**
 * A seat's decision, as the table's screens word it: war's `surrender` has its own words (half
 * the initial bet lost), as the engine's war game names it (`actionWords` of engine/war/table-game.ts).
 */
export function actionWords(t: T, game: string, action: string): string {
  return worded(t, game === 'war' && action === 'surrender' ? 'action.warSurrender' : `action.${action}`, action);
}

/** A bet or a settlement line's bet, as the table's screens word it: war's `tie` is its tie bet. */
export function betWords(t: T, game: string, bet: string): string {
  return betWordsOf(t, game, bet);
}

/** Where a round's card went (`seat:3:hand:0`, `banker`, `burn`…), as its recall says it; a place this version does not know, as recorded. */
export function cardPlaceWords(t: T, to: string): string {
  const said = cardPlaceSaid(to);
  return said ? t(said.key, { ...said.values }) : to;
}

/** A dealing error's correction (`exposed-card`…), in the words service mode's recall gives it. */
export function correctionWords(t: T, code: string): string {
  return worded(t, `service.correction.${code}`, code);
}

/** Why no correction could mend a round (`no-correction-in-text`…), in the words service mode's recall gives it. */
export function uncorrectableWords(t: T, code: string): string {
  return worded(t, `service.uncorrectable.${code}`, code);
}
