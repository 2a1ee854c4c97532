// A checkpoint's game part (the shoe and the round) is parsed with the game's own schemas (issue
// 53 item 7e), not taken as any object: whoever holds the key file beside the database can sign
// any JSON. A round with a malformed card, a negative stake or a field missing is refused with
// the path of what is wrong, and the table is folded from the first entry instead: the same
// table, nothing lost. One table of each game, stopped mid-round and started again once.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import type { BetId, GameKind } from '../../engine/table/vocabulary.js';
import { latestCheckpoint, openLedger } from '../../ledger/index.js';
import { checkpointStateText, resignCheckpointState } from '../../ledger/testing/tamper.js';
import { tableParams } from '../config/table-params.js';
import { recoverTable, type Recovered } from './recover.js';
import { openTableGame } from './table-game.js';
import { credit, silent, submitted, testTable } from '../testing/table-kit.js';

type Json = Record<string, unknown> & Record<number, unknown>;
const at = (o: unknown, ...keys: (string | number)[]): Json => keys.reduce<Json>((v, k) => v[k] as Json, o as Json);

/** What each game's table is bet on, and how its game part is attacked: [what, edit, the path the refusal names]. */
const games: Record<GameKind, { spot: BetId; attacks: [string, (s: Json) => void, string][] }> = {
  war: {
    spot: 'main',
    attacks: [
      ['a malformed card in the round', (s) => (at(s, 'round', 'cards', 0).rank = '1'), 'round.cards.0.rank'],
      ['a negative stake in the round', (s) => (at(s, 'round', 'seats', 0, 'bets').main = -10_000), 'round.seats.0.bets.main'],
      ['a field missing from the round', (s) => delete at(s, 'round').decisions, 'round.decisions'],
      ['a negative count in the shoe', (s) => (at(s, 'shoe', 'shoe').coups = -1), 'shoe.shoe.coups'],
    ],
  },
  baccarat: {
    spot: 'banker',
    attacks: [
      ['a malformed card in the coup', (s) => (at(s, 'shoe', 'coup', 'player', 0).suit = 'X'), 'shoe.coup.player.0.suit'],
      ['a negative stake in the round', (s) => (at(s, 'round', 'seats', 0, 'bets').banker = -10_000), 'round.seats.0.bets.banker'],
      ['a fractional stake in the round', (s) => (at(s, 'round', 'seats', 0, 'bets').banker = 10_000.5), 'round.seats.0.bets.banker'],
      ['a field missing from the round', (s) => delete at(s, 'round').result, 'round.result'],
    ],
  },
  blackjack: {
    spot: 'main',
    attacks: [
      ['a malformed card in the round', (s) => (at(s, 'shoe', 'table', 'round', 'log', 0, 'card').rank = 'Z'), 'shoe.table.round.log.0'],
      [
        'a negative stake in the round',
        (s) => (at(s, 'shoe', 'table', 'round', 'setup', 'seats', 0, 'bets').main = -10_000),
        'shoe.table.round.setup.seats.0.bets.main',
      ],
      ['a field missing from the round', (s) => delete at(s, 'shoe', 'table', 'round').expected, 'shoe.table.round.expected'],
      ['a field missing from the host round', (s) => delete at(s, 'round').notFollowed, 'round.notFollowed'],
      ['a rule option out of its type', (s) => (at(s, 'shoe', 'table', 'round', 'setup', 'rules').decks = 0), 'shoe.table.round.setup.rules.decks'],
    ],
  },
};

/** A table of `game` stopped mid-round (one card dealt), started again once: the restart writes a checkpoint holding the round. */
function playedAndRestarted(game: GameKind) {
  const t = testTable({ game });
  credit(t.ledger, 1, 100_000);
  t.table.shoe.onNewShoe();
  for (let i = 0; i < 30 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
  const bet = t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'place-bet', spot: { bet: games[game].spot }, amount: 10_000 });
  assert.equal(submitted(bet).ok, true);
  t.clock.runOut(t.table.reads.view().endsAt);
  t.table.shoe.onCard(parseCard('7S'));
  t.stop();
  const again = testTable({ game, dir: t.dir });
  again.stop();
  return { dir: t.dir, config: again.config, close: () => again.close() };
}

const closers: (() => void)[] = [];
after(() => closers.forEach((close) => close()));

function recover(p: ReturnType<typeof playedAndRestarted>, edit: (state: Json) => void) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ckpt-game-'));
  cpSync(p.dir, dir, { recursive: true });
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  const ledger = openLedger(dir, 'T-FLOOR');
  try {
    const ck = latestCheckpoint(ledger, { withTable: true });
    assert.ok(ck.status === 'ok', 'the restart wrote a checkpoint holding the table');
    const seq = ck.checkpoint.seq;
    const state = JSON.parse(checkpointStateText(ledger, seq)) as { table: { state: Json } };
    edit(state.table.state);
    resignCheckpointState(ledger, seq, JSON.stringify(state));
    const recovered = openTableGame(p.config, (game): Recovered<unknown, unknown> =>
      recoverTable({ ledger, game, params: tableParams(p.config), log: silent }),
    );
    return { recovered, seq };
  } finally {
    ledger.close();
  }
}

const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

for (const game of Object.keys(games) as GameKind[]) {
  describe(`a ${game} table's checkpoint: its shoe and round parsed with the game's schemas`, () => {
    const p = playedAndRestarted(game);
    closers.push(p.close);
    const clean = recover(p, () => {});

    it('folds from the checkpoint as written (the baseline the refusals are held to)', () => {
      assert.equal(clean.recovered.report.checkpointRefused, null);
      assert.equal(clean.recovered.report.foldedFrom, clean.seq);
      assert.equal(clean.recovered.state.phase, 'dealing');
      assert.notEqual(clean.recovered.state.round, null, 'the round in play came back');
    });

    for (const [what, edit, where] of games[game].attacks) {
      it(`refuses one signed again with ${what}, naming ${where}, and folds the same table from the first entry`, () => {
        const { recovered, seq } = recover(p, edit);
        assert.equal(recovered.report.ledgerVerified, true, 'the signature holds: only the parse refuses it');
        const refused = recovered.report.checkpointRefused ?? '';
        assert.ok(refused.startsWith(`checkpoint ${seq}: the table's state is refused at ${where}`), refused);
        assert.equal(recovered.report.foldedFrom, 0, 'folded from the first entry');
        assert.deepEqual(asJson(recovered.state), asJson(clean.recovered.state), 'the same table as the checkpoint gave: nothing lost');
        assert.equal(recovered.state.credits[1], 90_000);
      });
    }
  });
}
