import type { ActRefusal } from '../../engine/table/act-refusal.js';
import { inEnglish, serviceSaid, type Said, type SaidValue, type ServiceRefusalName } from '../../locales/said.js';

type Why = ActRefusal['why'];

/** Each refusal's key: `needs-two` and `cards-after-hold` by the act they refuse. */
const NAMES: Record<Exclude<Why, 'needs-two' | 'cards-after-hold'>, ServiceRefusalName> = {
  'not-on-hold': 'roundNotOnHold',
  'no-round-in-play': 'roundNotInPlay',
  'none-to-void': 'roundNoneToVoid',
  'no-reporter': 'roundNoReporter',
  'same-person': 'roundSamePerson',
  'no-card-now': 'roundNoCardNow',
  'no-card-between': 'roundNoCardBetween',
  'no-card-to-discard': 'roundNoCardToDiscard',
  'no-card-to-keep': 'roundNoCardToKeep',
  'nobody-asks': 'roundNobodyAsks',
  'no-card-dealt': 'roundNoCardDealt',
  'decision-followed': 'roundDecisionFollowed',
  'card-not-of-round': 'roundCardNotOfRound',
  'hold-voids': 'roundHoldVoids',
  'already-on-hold': 'roundAlreadyOnHold',
  'beyond-inventory': 'roundBeyondInventory',
  'correction-not-ordered': 'roundCorrectionNotOrdered',
  'correction-forbidden': 'roundCorrectionForbidden',
  'card-stands': 'roundCardStands',
  'dealt-face-up': 'roundDealtFaceUp',
  'jackpot-between-rounds': 'jackpotBetweenRounds',
  'jackpot-none': 'jackpotNone',
  'not-journalled': 'actNotJournalled',
  'jackpot-no-level': 'jackpotNoLevel',
  'jackpot-below-minimum': 'jackpotBelowMinimum',
  'jackpot-below-held': 'jackpotBelowHeld',
};

const NEEDS_TWO = { 'card-entry': 'roundEntryNeedsTwo', void: 'roundVoidNeedsTwo', correction: 'roundCorrectionNeedsTwo' } as const;
const CARDS_AFTER = { 'card-entry': 'roundCardsAfterEntry', correction: 'roundCardsAfterCorrection' } as const;

/**
 * A supervisor's act the table refused (engine/table/act-refusal.ts), as service mode says it: a
 * `serviceRefusal.*` key with the refusal's facts as its parameters, amounts in the table's
 * currency. Codes stay as the engine names them: each reader says a hold's reason, a correction,
 * the game, the profile and the card's step by its noun (locales/said.ts `saidWords`); a card and
 * an article as they are.
 */
export function actSaid(a: ActRefusal, currency: string): Said {
  const { why, ...facts } = a;
  if (a.why === 'needs-two') return serviceSaid(NEEDS_TWO[a.act]);
  if (a.why === 'cards-after-hold') return serviceSaid(CARDS_AFTER[a.act], { count: a.count, sequences: a.sequences });
  const values: Record<string, SaidValue> = { ...facts };
  if (a.why === 'jackpot-below-minimum' || a.why === 'jackpot-below-held') values.currency = currency;
  return serviceSaid(NAMES[why as keyof typeof NAMES], values);
}

/**
 * A refusal of the table's to a supervisor's act, as service mode says it (`say`) and as the host's
 * log says it (`reason`). The act's why by key (`actSaid`); a table that takes nothing because it
 * is stopped (`table-halted`, host/table/runtime.ts) by its own key; each with that key's English
 * as the reason. A refusal that gives neither is said by `tableRefused`, which says nothing was
 * done and that the reason is in the host's log: the reason is then the table's own English, which
 * never reaches the screen. Which of the two the reason is, is decided here once: its callers (the
 * jackpot reset, the service backend's table and round actions) read it, never compare keys.
 */
export function tableRefusal(
  r: { readonly reason: string; readonly act?: ActRefusal; readonly refusal?: string },
  currency: string,
): { readonly say: Said; readonly reason: string } {
  if (r.act) return named(actSaid(r.act, currency));
  if (r.refusal === 'table-halted') return named(serviceSaid('tableStopped'));
  return { say: serviceSaid('tableRefused'), reason: r.reason };
}

const named = (say: Said) => ({ say, reason: inEnglish(say) });
