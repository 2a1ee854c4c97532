import type { CardCode } from '../cards/card.js';
import type { GameLine, HandView, Pending, ProgressiveView } from '../table/game.js';
import type { Prize } from '../table/vocabulary.js';
import { handTotal, isNaturalPair } from './hand.js';
import { ref } from './refs.js';
import { dealerView, type ActionType } from './round.js';
import {
  DECLINE_FOLLOW,
  FOLLOW_OFFERS,
  nextToAnswer,
  roundOf,
  type BlackjackTableRound,
  type BlackjackTableSetup,
  type BlackjackTableShoe,
} from './table-setup.js';

// What a blackjack table shows and waits for (engine/blackjack/table-game.ts): the pending card or
// decision, the hands, the progressive's pools, the prizes to celebrate. Reads only.

/**
 * What happens when a seat lets its decision time run out: stand, or hit where the profile
 * forbids standing (Portugal rule 18: standing only above 11); offers are declined.
 */
export function blackjackDefault(legal: readonly ActionType[], offer: string): ActionType {
  if (offer === 'insurance') return 'decline-insurance';
  if (offer === 'even-money') return 'decline-even-money';
  if (offer === 'five-card') return 'continue';
  return legal.includes('stand') ? 'stand' : 'hit';
}

/**
 * The dealer's cards a misdrawn card kept unseen may become. Portugal rule 18: the next player
 * who asks, else «será para o jogo da banca», its next draw. Macau Art. 5 n.1 2): «atribuindo-se
 * a carta ou cartas ao jogador a quem ela deve caber», so under procedures 1 and 2 (the dealer's
 * second card dealt after the players) the card is the dealer's second, in the shoe's order.
 */
const takesKeptCard = (g: BlackjackTableSetup, step: string) => step === 'dealer-draw' || (step === 'dealer-second' && g.profileId !== 'portugal-2001');

/** What the round waits for: a bettor behind's answer to a staged double or split, a seat's decision, or a card. */
export function blackjackPending(g: BlackjackTableSetup, s: BlackjackTableShoe, r: BlackjackTableRound): Pending {
  const st = r.staged;
  const next = st ? nextToAnswer(st) : undefined;
  if (st && next) {
    return {
      kind: 'decision',
      seat: st.seat,
      hand: st.hand,
      legal: [FOLLOW_OFFERS[st.action], DECLINE_FOLLOW],
      default: DECLINE_FOLLOW,
      decider: { kind: 'behind', station: next.station },
      cost: next.cost,
    };
  }
  const x = roundOf(s).expected;
  if (x.kind === 'done') return { kind: 'done' };
  if (x.kind === 'decision') {
    const bettor = r.owners[x.decider];
    return {
      kind: 'decision',
      seat: x.seat,
      hand: x.hand,
      legal: [...x.legal],
      default: blackjackDefault(x.legal, x.offer),
      decider: bettor !== undefined ? { kind: 'behind', station: bettor } : { kind: 'seat' },
    };
  }
  const t = x.target;
  if (t.to === 'burn') return { kind: 'card', cue: { kind: 'card', to: 'burn' } };
  if (t.to === 'dealer')
    return {
      kind: 'card',
      cue: { kind: 'card', to: 'dealer', ...(x.step === 'dealer-hole' ? { faceDown: true } : {}), ...(takesKeptCard(g, x.step) ? { asked: true } : {}) },
    };
  return {
    kind: 'card',
    cue: { kind: 'card', to: 'seat', seat: t.seat, hand: t.hand, ...(x.step === 'hit' || x.step === 'double' ? { asked: true } : {}) },
  };
}

/** The dealer's hand and every seat's, the hole card hidden until the dealer plays (or the round ends). */
export function blackjackHands(g: BlackjackTableSetup, s: BlackjackTableShoe, r: BlackjackTableRound | null): HandView[] {
  if (!r) return [];
  const round = roundOf(s);
  const x = round.expected;
  const dealer = dealerView(round);
  const revealed = x.kind === 'done' || (x.kind === 'card' && x.target.to === 'dealer' && x.step !== 'dealer-hole');
  const hidden = g.rules.holeCard !== 'none' && !revealed && dealer.cards.length >= 2;
  const cards = dealer.cards.map((c, i): CardCode | 'XX' => (hidden && i === 1 ? 'XX' : c));
  const shown = hidden ? handTotal(round.dealer.slice(0, 1)) : { total: dealer.total, soft: dealer.soft };
  const natural = { natural: true } as const;
  return [
    { owner: 'dealer', cards, total: cards.length ? shown.total : null, soft: shown.soft, ...(!hidden && isNaturalPair(round.dealer) ? natural : {}) },
    ...round.hands.map((h): HandView => ({
      owner: 'seat',
      seat: h.seat,
      hand: h.hand,
      cards: h.cards,
      total: h.total,
      soft: h.soft,
      status: h.status,
      ...(h.natural ? natural : {}),
    })),
  ];
}

/** The progressive's levels as they stand; null where the table plays none. */
export function blackjackProgressive(g: BlackjackTableSetup, s: BlackjackTableShoe, r: BlackjackTableRound | null): ProgressiveView | null {
  const program = g.program;
  if (!program) return null;
  const t = s.table;
  const round = r ? t.round : undefined;
  // While a round is in play its chips are in the pools already (rule 41); once it is done the table holds the result.
  const pools = round && !round.done ? round.jackpotPools : t.jackpot?.pools;
  return {
    reference: program.reference,
    stake: program.stake,
    levels: program.levels.map((l) => ({
      level: l.level,
      pool: pools?.[l.level] ?? 0,
      held: t.jackpot?.pools[l.level] ?? 0,
      unfunded: t.jackpot?.unfunded[l.level] ?? 0,
    })),
  };
}

/**
 * Additional bets and streaks (Art. 13–14) that win; the Art. 15 special prize, whether it is
 * its own line (`bonus678`, on top of the result) or replaces the main result (the main line
 * quotes Art. 15); five cards taken at half pay (Art. 19), known by the rule its line quotes.
 */
export function blackjackPrizeOf(g: BlackjackTableSetup, line: Pick<GameLine, 'bet' | 'rule' | 'net'>): Prize | undefined {
  if (line.net <= 0) return undefined;
  if (g.additional.has(line.bet)) return 'side-bet';
  if (line.bet === 'bonus678') return 'special-prize';
  if (line.bet !== 'main') return undefined;
  if (g.rules.bonus678 !== 'none' && line.rule.startsWith(ref(g.profileId, 'special678'))) return 'special-prize';
  if (g.rules.fiveCardHalfPay && line.rule.startsWith(ref(g.profileId, 'fiveCard'))) return 'five-card';
  return undefined;
}
