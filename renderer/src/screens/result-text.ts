import type { TFunction } from 'i18next';
import {
  OFFER_ACTIONS,
  type Currency,
  type Language,
  type Presentation,
  type PrizeWin,
  type ResultLine,
  type StationDecision,
} from '../../../protocol/index.js';
import { formatMoney } from '../../../locales/money.js';

export type Outcome = 'win' | 'lose' | 'push';

export function outcomeOf(net: number): Outcome {
  return net > 0 ? 'win' : net < 0 ? 'lose' : 'push';
}

/** `+MOP$200`, `−MOP$100`, `±MOP$0`: a result's amount with its sign always written. */
export function signedMoney(net: number, currency: Currency, language: Language): string {
  const sign = net > 0 ? '+' : net < 0 ? '−' : '±';
  return `${sign}${formatMoney(Math.abs(net), currency, language)}`;
}

/** A result as a word and an amount: 「贏 +MOP$200」, «Perde −100 MOP$», "Push ±MOP$0". */
export function resultText(t: TFunction, net: number, currency: Currency, language: Language): string {
  return t('result.line', { outcome: t(`result.${outcomeOf(net)}`), amount: signedMoney(net, currency, language) });
}

/**
 * Each seat's own result, in seat order: the lines of the seated player only. Bets behind a seat
 * are other players' money; each sees its own result on its station (docs/screens.md).
 */
export function seatResults(lines: readonly ResultLine[]): { seat: number; net: number }[] {
  const bySeat = new Map<number, number>();
  for (const l of lines) if (l.owner === 'seat') bySeat.set(l.seat, (bySeat.get(l.seat) ?? 0) + l.net);
  return [...bySeat].sort((a, b) => a[0] - b[0]).map(([seat, net]) => ({ seat, net }));
}

/** The prize lines of each seat's own player, for the table's celebration at the seat. */
export function seatPrizes(lines: readonly ResultLine[]): Map<number, PrizeWin[]> {
  const out = new Map<number, PrizeWin[]>();
  for (const l of lines) {
    if (l.owner !== 'seat' || !l.prize || l.net <= 0) continue;
    const list = out.get(l.seat) ?? [];
    list.push({ seat: l.seat, bet: l.bet, ...(l.hand !== undefined ? { hand: l.hand } : {}), net: l.net, prize: l.prize });
    out.set(l.seat, list);
  }
  return out;
}

/** The prize or bet a celebration names, in the regulation's words. */
export function prizeName(t: TFunction, words: Presentation['betWords'], win: Pick<PrizeWin, 'bet' | 'prize'>): string {
  if (win.prize === 'special-prize') return t('prize.special');
  if (win.prize === 'five-card') return t('prize.fiveCard');
  // A bet its game names its own way (war's tie bet is not baccarat's tie), else the bet's own name.
  const own = words?.[win.bet];
  if (own) return t(own);
  return t(`bet.${win.bet}`);
}

/** One celebration line per prize: 「任何對子勝出 +MOP$1,100」. */
export function prizeText(t: TFunction, words: Presentation['betWords'], win: PrizeWin, currency: Currency, language: Language): string {
  return t('prize.won', { name: prizeName(t, words, win), amount: signedMoney(win.net, currency, language) });
}

/**
 * The question an offer is asked as, before its buttons (insurance, even money, five cards, war,
 * and to a bettor behind whether to follow the seat's double or split: naming the seat and what
 * following costs); null otherwise.
 */
export function offerText(
  t: TFunction,
  decision: (Pick<StationDecision, 'legal'> & Partial<Pick<StationDecision, 'seat' | 'cost'>>) | null,
  currency?: Currency,
): string | null {
  const offer = decision?.legal.find((a): a is (typeof OFFER_ACTIONS)[number] => (OFFER_ACTIONS as readonly string[]).includes(a));
  return offer ? t(`desk.offer.${offer}`, { n: decision?.seat, amount: decision?.cost ?? 0, currency }) : null;
}

/**
 * When to celebrate: the first time a round's results are seen with prizes in them. A language
 * change or any later snapshot of the same results does not start it again.
 */
export class PrizeWatch<T> {
  private seen = '';

  next(roundId: string | undefined, settled: boolean, prizes: T | null): T | null {
    if (!roundId || !settled || roundId === this.seen) return null;
    this.seen = roundId;
    return prizes;
  }
}
