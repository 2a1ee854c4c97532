// A round voided after some of its cards are out (a card hold resolved by a void) must leave the
// game as if it had never been dealt: the next round starts from an empty coup or hand, live and
// after a restart that rebuilds the shoe from the journal.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { openLedger, verifyLedger } from '../../ledger/index.js';
import { BaccaratGame } from '../games/baccarat.js';
import { BlackjackGame } from '../games/blackjack.js';
import { recoverTable } from '../recovery/recover.js';
import { credit, floorTable, manualTimers, silent, type FloorTable } from '../testing/floor-kit.js';
import { RoundController } from './round-controller.js';

const GAMES = [
  { game: 'baccarat', bet: 'banker', dealt: ['9S', '8H'] },
  { game: 'blackjack', bet: 'main', dealt: ['9S', '8H', '7D'] },
] as const;

function burnShoeStart(rounds: RoundController): void {
  for (let i = 0; i < 30 && rounds.cue()?.kind === 'card'; i++) rounds.onCard(parseCard('2C'));
}

const place = (t: FloorTable, bet: string) => t.host.apply('station/1', t.host.version('station/1'), { name: 'place-bet', bet, amount: 10_000 });
const cardsOnTable = (rounds: RoundController) => (rounds.view().hands ?? []).flatMap((h) => h.cards);

/** Bets, deals `dealt`, voids the round by two people; the table is back in betting. */
function voidAfter(t: FloorTable, bet: string, dealt: readonly string[]): void {
  credit(t.ledger, 1, 100_000);
  t.rounds.onNewShoe(); // a replay starts at the journalled shoe load
  burnShoeStart(t.rounds);
  assert.equal(place(t, bet).ok, true);
  t.clock.runOut(t.rounds.view().endsAt);
  for (const c of dealt) t.rounds.onCard(parseCard(c));
  assert.deepEqual(cardsOnTable(t.rounds).sort(), [...dealt].sort());
  assert.equal(t.rounds.voidRound('test: a card hold', ['Ana Lei (1001)', 'Bo Chan (1002)']).ok, true);
  assert.equal(t.ledger.credit(1), 100_000, 'every bet returned');
}

describe('a round voided after some of its cards', () => {
  for (const { game, bet, dealt } of GAMES) {
    it(`${game}: the next round starts from no card, live`, () => {
      const t = floorTable({ game });
      try {
        voidAfter(t, bet, dealt);
        t.clock.runOut(t.rounds.view().endsAt); // results held, then betting
        assert.equal(t.rounds.view().phase, 'betting');
        assert.equal(place(t, bet).ok, true);
        t.clock.runOut(t.rounds.view().endsAt);
        assert.equal(t.rounds.view().phase, 'dealing');
        assert.deepEqual(cardsOnTable(t.rounds), [], 'none of the voided round\'s cards');
        assert.equal(t.rounds.cue()?.kind, 'card');
        assert.equal(verifyLedger(t.ledger).ok, true);
      } finally {
        t.close();
      }
    });

    it(`${game}: the next round starts from no card after a restart that replays the void`, () => {
      const t = floorTable({ game });
      try {
        voidAfter(t, bet, dealt);
        t.stop();
        const ledger = openLedger(t.dir, 'T-FLOOR');
        try {
          const live = game === 'baccarat' ? new BaccaratGame(t.config.profile) : new BlackjackGame(t.config.profile, t.config.profileOptions);
          const { report, replayed } = recoverTable({ ledger, game: live, config: t.config, log: silent });
          assert.deepEqual(report.voided, []);
          const clock = manualTimers();
          const rounds = new RoundController({ config: t.config, game: live, ledger, log: silent, timers: clock.timers, timings: t.config.timings });
          if (replayed) rounds.resume(replayed.shoe, replayed.round);
          rounds.start();
          const bets = rounds.placeBet(1, bet, 10_000);
          assert.equal(bets.ok, true, bets.ok ? '' : bets.reason);
          clock.runOut(rounds.view().endsAt);
          assert.equal(rounds.view().phase, 'dealing');
          assert.deepEqual(cardsOnTable(rounds), []);
          rounds.stop();
        } finally {
          ledger.close();
        }
      } finally {
        rmSync(t.dir, { recursive: true, force: true });
      }
    });
  }
});
