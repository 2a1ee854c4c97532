// The round state machine's loop, shared by bench/blackjack.bench.ts and
// bench/round-speed-old-new.ts (which runs it on two trees' modules in one process): rounds
// dealt from one pre-shuffled shoe through openRound / dealCard / decideRound, every decision the
// same simple choice, so that both trees play the same rounds.
import type * as Round from '../engine/blackjack/round.js';
import type * as Rules from '../engine/blackjack/rules.js';
import type * as Shoe from '../engine/cards/shoe.js';
import type * as SeededRng from '../engine/random/seeded-rng.js';

export interface RoundModules {
  readonly round: Pick<typeof Round, 'openRound' | 'dealCard' | 'decideRound'>;
  readonly rules: Pick<typeof Rules, 'resolveRules'>;
  readonly shoe: Pick<typeof Shoe, 'freshCards' | 'shuffled'>;
  readonly rng: Pick<typeof SeededRng, 'Rng'>;
}

export interface RoundScenario {
  readonly name: string;
  /** Seats 1..n, each with a main bet and these additional bets. */
  readonly seats: number;
  readonly sides: Readonly<Record<string, number>>;
}

export const SCENARIOS: readonly RoundScenario[] = [
  { name: 'round state machine, macau-2009, 1 seat, stand on everything', seats: 1, sides: {} },
  { name: 'round state machine, macau-2009, 7 seats with 4 side bets, hit to 17', seats: 7, sides: { anyPair: 100, sevens: 100, over13: 100, under13: 100 } },
];

/** Rounds a second of the scenario over about `seconds`, on these modules. */
export function roundsPerSecond(m: RoundModules, s: RoundScenario, seconds: number): number {
  const rules = m.rules.resolveRules('macau-2009', { oneSideBetPerPlayer: false, authorisation: 'BENCH' });
  const shoe = m.shoe.shuffled(m.shoe.freshCards(rules.decks), m.rng.Rng.fromSeed(3));
  const seats = Array.from({ length: s.seats }, (_, i) => ({ seat: i + 1, bets: { main: 100, ...s.sides } }));
  const hitTo17 = s.seats > 1;
  const t0 = performance.now();
  let rounds = 0;
  while (performance.now() - t0 < seconds * 1000) {
    let r = m.round.openRound({ rules, seats, firstRoundOfShoe: true });
    let i = (rounds * 17) % 200;
    while (!r.done) {
      const x = r.expected;
      if (x.kind === 'card') r = m.round.dealCard(r, shoe[i++ % shoe.length]!);
      else if (x.kind === 'decision') {
        const total = r.hands.find((h) => h.seat === x.seat && h.hand === x.hand)?.total ?? 21;
        const hit = x.legal.includes('hit') && (hitTo17 ? total < 17 : !x.legal.includes('stand'));
        const type = hit
          ? 'hit'
          : x.legal.includes('stand')
            ? 'stand'
            : x.legal.includes('continue')
              ? 'continue'
              : x.legal.includes('decline-insurance')
                ? 'decline-insurance'
                : 'decline-even-money';
        r = m.round.decideRound(r, { type });
      }
    }
    rounds++;
  }
  return rounds / ((performance.now() - t0) / 1000);
}
