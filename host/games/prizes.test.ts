import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ref } from '../../engine/blackjack/refs.js';
import type { ActionType } from '../../engine/blackjack/round.js';
import { parseCard } from '../../engine/cards/card.js';
import type { WarAction } from '../../engine/war/coup.js';
import { WAR_RULES } from '../../engine/war/profiles.js';
import { StationState, TableState, type DecisionAction } from '../../protocol/index.js';
import { credit, floorTable } from '../testing/floor-kit.js';
import { BaccaratGame } from './baccarat.js';
import { BlackjackGame } from './blackjack.js';
import { WarGame } from './war.js';

// Type-checked, not run: every action an engine can ask for is one the protocol (and so the
// catalogues, tests/locales/catalogues.test.ts) knows. A new engine action fails `npm run typecheck`.
type Known<T extends DecisionAction> = T;
export type EngineActionsAreKnown = [Known<ActionType>, Known<WarAction>];

describe('prizes the screens celebrate', () => {
  it('blackjack: a winning additional bet, the Art. 15 special prize (own line or instead of the result), five cards at half pay', () => {
    const bj = new BlackjackGame('macau-2009');
    const p = (bet: string, net: number, rule = 'x') => bj.prizeOf({ bet, net, rule });
    assert.equal(p('anyPair', 110_000, ref('macau-2009', 'anyPair')), 'side-bet');
    assert.equal(p('sevens', 500_000), 'side-bet');
    assert.equal(p('over13', 10_000), 'side-bet');
    assert.equal(p('anyPair', -10_000), undefined, 'a lost additional bet is not celebrated');
    assert.equal(p('bonus678', 30_000, ref('macau-2009', 'special678')), 'special-prize');
    assert.equal(p('main', 30_000, ref('macau-2009', 'special678')), 'special-prize');
    assert.equal(p('main', 5_000, ref('macau-2009', 'fiveCard')), 'five-card');
    assert.equal(p('main', 15_000, ref('macau-2009', 'blackjack')), undefined, 'an ordinary win is the result, not a prize');
    assert.equal(p('main', 10_000, `${ref('macau-2009', 'win')}; art.20 silent, as portugal-2001 rule 30`), undefined);
  });

  it('baccarat: the pairs, not the tie (a main bet); war: the tie bet', () => {
    const bac = new BaccaratGame('macau-commission');
    assert.equal(bac.prizeOf({ bet: 'playerPair', net: 110_000 }), 'side-bet');
    assert.equal(bac.prizeOf({ bet: 'bankerPair', net: -10_000 }), undefined);
    assert.equal(bac.prizeOf({ bet: 'tie', net: 80_000 }), undefined);
    const war = new WarGame('macau');
    assert.equal(war.prizeOf({ bet: 'tie', net: 100_000 }), 'side-bet');
    assert.equal(war.prizeOf({ bet: 'main', net: 10_000 }), undefined);
    assert.equal(WAR_RULES.tieBetWins.startsWith('macau-war'), true);
  });

  it('the table sees whose line each is and which are prizes; each station sees only its own prizes', () => {
    const t = floorTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      for (let i = 0; i < 20 && t.rounds.cue()?.kind === 'card'; i++) t.rounds.onCard(parseCard('2C'));
      const place = (station: number, bet: string, amount: number) =>
        t.host.apply(`station/${station}`, t.host.version(`station/${station}`), { name: 'place-bet', bet, amount });
      assert.equal(place(1, 'main', 10_000).ok, true);
      assert.equal(place(1, 'anyPair', 10_000).ok, true);
      assert.equal(place(2, 'behind:1', 10_000).ok, true);
      t.clock.runOut(t.rounds.view().endsAt);
      t.rounds.onCard(parseCard('5S')); // seat 1
      t.rounds.onCard(parseCard('6H')); // dealer
      t.rounds.onCard(parseCard('5D')); // seat 1: a pair of fives
      assert.equal(t.host.apply('station/1', t.host.version('station/1'), { name: 'decide', action: 'stand' }).ok, true);
      t.rounds.onCard(parseCard('TH')); // dealer 16
      t.rounds.onCard(parseCard('8S')); // dealer busts
      const table = TableState.parse(t.host.state('table'));
      assert.equal(table.round?.phase, 'results');
      const lines = table.round?.results ?? [];
      assert.deepEqual(
        lines.map((l) => [l.bet, l.owner, l.net, l.prize ?? null]).sort(),
        [
          ['anyPair', 'seat', 110_000, 'side-bet'],
          ['main', 'behind', 10_000, null],
          ['main', 'seat', 10_000, null],
        ],
      );
      assert.ok(!JSON.stringify(table).includes('station:2'), 'the public view does not say which station bets behind');
      const one = StationState.parse(t.host.state('station/1'));
      const two = StationState.parse(t.host.state('station/2'));
      assert.deepEqual(one.betting.prizes, [{ seat: 1, bet: 'anyPair', hand: 0, net: 110_000, prize: 'side-bet' }]);
      assert.equal(one.betting.roundNet, 120_000);
      assert.equal(two.betting.prizes, undefined, 'station 2 is not told of seat 1’s additional bet');
      assert.equal(two.betting.roundNet, 10_000);
    } finally {
      t.close();
    }
  });
});
