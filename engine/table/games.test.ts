import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ActionType } from '../blackjack/round.js';
import { ref } from '../blackjack/refs.js';
import type { WarAction } from '../war/coup.js';
import { WAR_RULES } from '../war/profiles.js';
import { gameDefaults, jackpotStake, tableGame, withTableGame } from '../games.js';
import { JACKPOT_PROGRAM_OPTION } from '../blackjack/jackpot/option.js';
import { EXAMPLE_JACKPOT_PROGRAM } from '../blackjack/jackpot/program.js';
import type { DecisionAction, LineBet } from './vocabulary.js';

// Type-checked, not run: every action an engine can ask for is one the table's vocabulary (and so
// the protocol and the catalogues, tests/locales/catalogues.test.ts) knows. A new engine action
// fails `npm run typecheck`.
type Known<T extends DecisionAction> = T;
export type EngineActionsAreKnown = [Known<ActionType>, Known<WarAction>];

describe('the games as the table plays them', () => {
  // The table display announces the last round of the shoe once the reading shoe reports the cut card.
  for (const [kind, profile] of [
    ['blackjack', 'macau-2009'],
    ['baccarat', 'macau-commission'],
    ['war', 'macau'],
  ] as const) {
    it(`${kind} ${profile}: the last round is announced only after the cut card`, () => {
      withTableGame(kind, profile, {}, (g) => {
        const shoe = g.shoe.initial();
        assert.equal(g.shoe.lastRoundOfShoe(shoe), false);
        assert.equal(g.shoe.lastRoundOfShoe(g.shoe.cutCard(shoe)), true);
        assert.equal(g.shoe.lastRoundOfShoe(shoe), false, 'the state it started from is unchanged');
      });
    });
  }

  it('blackjack: a winning additional bet, the Art. 15 special prize (own line or instead of the result), five cards at half pay', () => {
    const bj = tableGame('blackjack', 'macau-2009');
    const p = (bet: LineBet, net: number, rule = 'x') => bj.screens.prizeOf({ bet, net, rule });
    assert.equal(p('anyPair', 110_000, 'macau-2009 art.13 1)(1), art.14 n.1'), 'side-bet');
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
    const bac = tableGame('baccarat', 'macau-commission');
    assert.equal(bac.screens.prizeOf({ bet: 'playerPair', net: 110_000, rule: 'x' }), 'side-bet');
    assert.equal(bac.screens.prizeOf({ bet: 'bankerPair', net: -10_000, rule: 'x' }), undefined);
    assert.equal(bac.screens.prizeOf({ bet: 'tie', net: 80_000, rule: 'x' }), undefined);
    const war = tableGame('war', 'macau');
    assert.equal(war.screens.prizeOf({ bet: 'tie', net: 100_000, rule: 'x' }), 'side-bet');
    assert.equal(war.screens.prizeOf({ bet: 'main', net: 10_000, rule: 'x' }), undefined);
    assert.equal(WAR_RULES.tieBetWins.startsWith('macau-war'), true);
  });

  it('no table plays an analysis profile: generic is for sim and round only', () => {
    for (const kind of ['blackjack', 'baccarat', 'war'] as const) assert.throws(() => tableGame(kind, 'generic'), /for analysis \(sim, round\)/);
  });

  it('each game offers its own bets, and names its own words where they differ', () => {
    assert.deepEqual(tableGame('baccarat', 'macau-commission').rules.bets, ['banker', 'player', 'tie', 'playerPair', 'bankerPair']);
    assert.deepEqual(tableGame('war', 'macau').rules.bets, ['main', 'tie']);
    assert.deepEqual(tableGame('blackjack', 'macau-2009').rules.bets.slice(0, 1), ['main']);
    assert.deepEqual(tableGame('blackjack', 'portugal-2001').rules.bets, ['main']);
    assert.equal(tableGame('war', 'macau').presentation.actionWords?.surrender, 'action.warSurrender');
    assert.equal(tableGame('baccarat', 'macau-commission').presentation.dealerHand, false);
    assert.equal(tableGame('baccarat', 'macau-commission').presentation.panel, 'roads');
  });

  it('a game identity names its options, so a journal under other options is not folded through these', () => {
    const plain = tableGame('blackjack', 'macau-2009').identity;
    assert.notEqual(tableGame('blackjack', 'macau-2009', { perfectPairs: true, authorisation: 'TEST-DICJ' }).identity, plain);
    assert.equal(tableGame('blackjack', 'macau-2009', {}).identity, plain);
    assert.notEqual(tableGame('baccarat', 'macau-commission').identity, tableGame('baccarat', 'macau-no-commission', { authorisation: 'TEST-DICJ' }).identity);
  });
});

describe('jackpotStake: the one chip a jackpot bet is', () => {
  it("is the program's stake for a blackjack table that carries one, and nothing for a table without", () => {
    const options = gameDefaults('blackjack').jackpotExample?.options ?? {};
    const stake = jackpotStake('blackjack', options);
    assert.ok(typeof stake === 'number' && stake > 0);
    assert.equal(stake, EXAMPLE_JACKPOT_PROGRAM.stake);
    assert.equal(jackpotStake('blackjack', {}), undefined);
  });

  it('is nothing for a game without a jackpot, whatever its options say', () => {
    assert.equal(jackpotStake('baccarat', { [JACKPOT_PROGRAM_OPTION]: EXAMPLE_JACKPOT_PROGRAM }), undefined);
    assert.equal(jackpotStake('war', { [JACKPOT_PROGRAM_OPTION]: EXAMPLE_JACKPOT_PROGRAM }), undefined);
  });

  it('refuses a program that does not parse rather than guess its stake', () => {
    assert.throws(() => jackpotStake('blackjack', { [JACKPOT_PROGRAM_OPTION]: { stake: -1 } }), /program|stake/);
  });
});
