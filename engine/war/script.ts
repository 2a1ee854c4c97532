/**
 * A scripted coup of «Desafio ao Casino»: seats and bets, the coup's cards in shoe order (the
 * war's burns included) and the decisions of tied seats. The caller checks the input's shape;
 * this refuses what only the game knows: bad or surplus cards, a missing, unexpected or repeated
 * decision, too few cards, cards left over.
 */
import { cardCode, type Card } from '../cards/card.js';
import { ScriptError, scriptCards, seatTotals, type SeatTotal } from '../baccarat/script.js';
import type { SettlementLine } from '../settlement/settlement-line.js';
import { newWarCoup, warDecide, warExpected, WarInputError, warTakeCard, type WarAction, type WarCoup, type WarSeat } from './coup.js';
import type { WarProfile } from './profiles.js';
import { settleWarCoup } from './settle.js';

export { ScriptError };

export interface WarScript {
  readonly seats: readonly WarSeat[];
  readonly cards: readonly string[];
  readonly decisions?: readonly { readonly seat: number; readonly action: WarAction }[];
}

export interface WarHandOut {
  seat: number;
  /** The first card, then the war card if the seat went to war. */
  cards: string[];
  decision?: WarAction;
}

/** Same shape as the blackjack runner: `hands` per seat, the house's cards, burns in shoe order. */
export interface WarScriptOutput {
  readonly game: 'war';
  readonly rules: string;
  readonly hands: WarHandOut[];
  /** The croupier's first card and the card drawn against each seat at war. */
  readonly croupier: { card: string; war: { seat: number; card: string }[] };
  readonly burns: string[];
  readonly settlements: SettlementLine[];
  readonly totals: SeatTotal[];
}

function describe(e: ReturnType<typeof warExpected>): string {
  if (e.kind === 'burn') return `a burn card (${e.remaining} more before the ${e.before === 'croupier' ? "croupier's" : `seat ${e.before}`} war card)`;
  if (e.kind === 'card') return `the ${e.phase} card of ${e.to === 'croupier' ? 'the croupier' : `seat ${e.to}`}`;
  return e.kind;
}

export function runWarScript(profile: WarProfile, input: WarScript): WarScriptOutput {
  const cards = scriptCards(input.cards, profile.decks);
  const bySeat = new Map<number, WarAction>();
  for (const d of input.decisions ?? []) {
    if (bySeat.has(d.seat)) throw new ScriptError(`seat ${d.seat} has two decisions`);
    bySeat.set(d.seat, d.action);
  }
  let coup: WarCoup;
  let used = 0;
  try {
    coup = newWarCoup(input.seats, profile);
    for (let e = warExpected(coup); e.kind !== 'complete'; e = warExpected(coup)) {
      if (e.kind === 'decisions') {
        for (const seat of e.seats) {
          const action = bySeat.get(seat);
          if (action === undefined)
            throw new ScriptError(`seat ${seat} tied the croupier and must decide: add {"seat":${seat},"action":"war"} or "surrender" to "decisions"`);
          coup = warDecide(coup, seat, action);
        }
        continue;
      }
      const c = cards[used];
      if (c === undefined) throw new ScriptError(`too few cards: ${cards.length} given, the coup expects ${describe(e)} next`);
      coup = warTakeCard(coup, c);
      used++;
    }
  } catch (e) {
    if (e instanceof WarInputError) throw new ScriptError(e.message);
    throw e;
  }
  if (used < cards.length)
    throw new ScriptError(`${cards.length - used} card(s) left over after the coup completed with ${used}: ${input.cards.slice(used).join(' ')}`);
  for (const seat of bySeat.keys()) {
    if (coup.decisions[seat] === undefined) throw new ScriptError(`seat ${seat} has no decision to make (no tie on a main bet it may take to war)`);
  }
  const settlements = settleWarCoup(coup, profile);
  return {
    game: 'war',
    rules: profile.id,
    hands: coup.seats.map((s, i) => {
      const out: WarHandOut = { seat: s.seat, cards: [cardCode(coup.cards[i] as Card)] };
      const w = coup.wars[s.seat];
      if (w?.seatCard) out.cards.push(cardCode(w.seatCard));
      const d = coup.decisions[s.seat];
      if (d) out.decision = d;
      return out;
    }),
    croupier: {
      card: cardCode(coup.croupier as Card),
      war: coup.seats.flatMap((s) => {
        const c = coup.wars[s.seat]?.croupierCard;
        return c ? [{ seat: s.seat, card: cardCode(c) }] : [];
      }),
    },
    // Shoe order: each war in seat order, the seat's burns then the croupier's.
    burns: coup.seats.flatMap((s) => {
      const w = coup.wars[s.seat];
      return w ? [...w.seatBurns, ...w.croupierBurns].map(cardCode) : [];
    }),
    settlements,
    totals: seatTotals(coup.seats, settlements),
  };
}
