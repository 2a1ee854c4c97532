// A Macau house may let a seat split to 99 hands (Art. 16 n.1: "four or more", the casino's
// choice; engine/blackjack/option-table.ts maxHands), and Art. 19 lets every hand of five cards
// take half its bet, split hands too: each such hand is a prize line of its station (five-card,
// engine/blackjack/table-views.ts blackjackPrizeOf). StationBetting.prizes holds 32: a seat of 33
// five-card hands made its station's own part fail its schema at the results, and its screen
// refused every view of the round as malformed. Past 32 the prizes are now said once per seat, bet
// and prize, their amounts summed (engine/table/views.ts prizesShown).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { ViewState, type DecisionAction } from '../../protocol/index.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';

const decide = (t: TestTable, station: number, action: DecisionAction) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action }));

const HANDS = 33;
// Each hand a ten, then four small cards to 21 (none reaching 21 before the fifth): 33 hands from an
// eight-deck shoe's 32 of each small rank (an ace never second: ten and ace would stand on 21).
const PLANS = [
  ...Array.from({ length: 16 }, () => ['4', 'A', 'A', '5']),
  ...Array.from({ length: 7 }, () => ['2', '2', '2', '5']),
  ['2', '2', '3', '4'],
  ...Array.from({ length: 9 }, () => ['2', '3', '3', '3']),
];

describe('a seat split to 33 hands, each taking half its bet on five cards (Macau 2009 Art. 16 n.1, Art. 19)', () => {
  it('celebrates them on its station, whose view passes the protocol schema at each step', () => {
    const t = testTable({
      game: 'blackjack',
      config: { profile: 'macau-2009', profileOptions: { maxHands: 99, decks: 8 }, profileAuthorisation: 'DICJ-BJ-2026' },
    });
    try {
      credit(t.ledger, 1, 10_000_000);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard(`7${'HDSC'[i % 4]}`));
      const min = t.table.reads.station(1).betting.spots.find((s) => s.bet === 'main')?.min ?? 0;
      const stake = Math.max(min, 10_000);
      assert.equal(
        submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'place-bet', spot: { bet: 'main' }, amount: stake })).ok,
        true,
      );
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing');
      let splits = 0;
      let tens = 0;
      let dealer = 0;
      const used = new Map<string, number>();
      const given = new Map<number, number>();
      const small = (rank: string) => {
        const n = used.get(rank) ?? 0;
        used.set(rank, n + 1);
        return `${rank}${'HDSC'[n % 4]}`;
      };
      const next = (to: string, hand: number): string => {
        if (to === 'dealer') return `${dealer++ % 2 ? '8' : '9'}S`;
        if (splits < HANDS - 1) return `${'TJQK'[tens % 4]}${'HDSC'[Math.floor(tens++ / 4) % 4]}`;
        const k = given.get(hand) ?? 0;
        given.set(hand, k + 1);
        return small(PLANS[hand]![k]!);
      };
      let taken = 0;
      for (let i = 0; i < 1500 && t.table.reads.view().phase === 'dealing'; i++) {
        const decision = t.table.reads.station(1).decision;
        const cue = t.table.reads.cue();
        if (decision !== null) {
          const legal = decision.legal;
          const action: DecisionAction = legal.includes('take-five-card-half')
            ? 'take-five-card-half'
            : legal.includes('split') && splits < HANDS - 1
              ? 'split'
              : legal.includes('hit')
                ? 'hit'
                : 'stand';
          if (action === 'split') splits++;
          if (action === 'take-five-card-half') taken++;
          const r = decide(t, 1, action);
          assert.equal(r.ok, true, r.ok ? '' : `${action}: ${r.error.refusal} ${r.error.detail}`);
        } else if (cue?.kind === 'card') {
          // A card before the first split (the seat's first two) goes to hand 0.
          const to = cue.to === 'dealer' ? 'dealer' : 'seat';
          t.table.shoe.onCard(parseCard(next(to, cue.hand ?? 0)));
        } else t.clock.advance(1_000);
        const r = ViewState.safeParse(t.hub.state('station/1'));
        assert.equal(
          r.success,
          true,
          `station/1 after ${splits} splits, ${taken} taken: ${r.error?.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
        );
      }
      assert.equal(splits, HANDS - 1, `the seat split ${HANDS - 1} times`);
      assert.equal(taken, HANDS, 'every hand took half its bet on five cards');
      assert.equal(t.table.reads.view().phase, 'results');
      const view = t.hub.state('station/1');
      assert.equal(view.kind, 'station');
      const prizes = view.kind === 'station' ? (view.betting.prizes ?? []) : [];
      assert.ok(prizes.length > 0 && prizes.length <= 32, `${prizes.length} prizes`);
      // Every minor unit won is said: half of each hand's stake.
      assert.equal(
        prizes.filter((p) => p.prize === 'five-card').reduce((a, p) => a + p.net, 0),
        HANDS * (stake / 2),
      );
    } finally {
      t.close();
    }
  });
});
