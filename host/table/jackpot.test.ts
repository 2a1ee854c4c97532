// Portugal's progressive jackpot at the live table (rules 38–50): the chip, the pools, the money
// path through the ledger (a liability per level, double entry), the handpay above the table's
// amount, and the same state after a restart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXAMPLE_JACKPOT_PROGRAM } from '../../engine/blackjack/jackpot/program.js';
import { isCardCode, parseCard } from '../../engine/cards/card.js';
import { foldJournal } from '../../engine/table/fold.js';
import { account, entryCount, jackpotHits, jackpotMovements, jackpotPools, latestCheckpoint, tableJournal, verifyLedger } from '../../ledger/index.js';
import type { Spot } from '../../protocol/index.js';
import { resetJackpotLevel } from '../floor/jackpot-reset.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';
import { openTableGame } from './table-game.js';

const PROGRAM = EXAMPLE_JACKPOT_PROGRAM;
const portugal = (handpayTwoPersonAbove = 5_000_000) => ({
  game: 'blackjack' as const,
  config: {
    profile: 'portugal-2001',
    profileAuthorisation: 'TEST-IGJ',
    profileOptions: { jackpot: true, jackpotCards: 3, jackpotProgram: PROGRAM },
    handpayTwoPersonAbove,
  },
});
const place = (t: TestTable, station: number, spot: Spot, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot, amount }));
const decide = (t: TestTable, station: number, action: string) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action } as never));
const pool = (t: TestTable, level: string) => -t.ledger.balance(account.jackpotPool(level));

function burnShoeStart(t: TestTable) {
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
}

/** One round at seat 1: main 10,000 (the table's minimum, rule 14) and the jackpot chip; the cards and decisions as scripted. */
function playRound(t: TestTable, script: string) {
  assert.equal(place(t, 1, { bet: 'main' }, 10_000).ok, true);
  assert.equal(place(t, 1, { bet: 'jackpot' }, PROGRAM.stake).ok, true);
  t.clock.runOut(t.table.reads.view().endsAt);
  assert.equal(t.table.reads.view().phase, 'dealing');
  for (const x of script.split(' ')) {
    if (isCardCode(x)) t.table.shoe.onCard(parseCard(x));
    else assert.equal(decide(t, 1, x).ok, true, x);
  }
}

describe('Portugal progressive jackpot at the table (rules 38–50)', () => {
  it("rule 47: the chip is the program's amount, no other", () => {
    const t = testTable(portugal());
    try {
      credit(t.ledger, 1, 1_000_000);
      burnShoeStart(t);
      assert.ok(t.table.game.rules.bets.includes('jackpot'));
      assert.equal(place(t, 1, { bet: 'jackpot' }, PROGRAM.stake * 2).ok, false, 'two chips are refused');
    } finally {
      t.close();
    }
  });

  it('rule 48: the chip is placed before the deal and taken at the close, journalled with the bets before the first card; none is taken after', () => {
    // «As apostas no jackpot deverão ser colocadas antes de o pagador iniciar a distribuição das
    // cartas. De seguida, o pagador pronuncia «jogo feito, nada mais» e retira … as fichas».
    const t = testTable(portugal());
    try {
      credit(t.ledger, 1, 1_000_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, { bet: 'main' }, 10_000).ok, true);
      assert.equal(place(t, 1, { bet: 'jackpot' }, PROGRAM.stake).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing');
      assert.equal(t.ledger.credit(1), 1_000_000 - 10_000 - PROGRAM.stake, 'the chip left the credit at the close');
      const journal = [...t.ledger.entries(1)].map((e) => ({
        type: e.type,
        body: JSON.parse(e.body) as { payload: { bets?: { bet: string; amount: number }[] } },
      }));
      const taken = journal.findIndex(
        (e) => e.type === 'bet.place' && (e.body.payload.bets ?? []).some((b) => b.bet === 'jackpot' && b.amount === PROGRAM.stake),
      );
      assert.ok(taken >= 0, 'the chip is journalled with the bets');
      t.table.shoe.onCard(parseCard('9S'));
      const firstCard = [...t.ledger.entries(1)].findIndex((e) => e.type === 'card.read' && e.body.includes('"9S"'));
      assert.ok(firstCard > taken, 'taken before the first card');
      assert.equal(place(t, 1, { bet: 'jackpot' }, PROGRAM.stake).ok, false, 'no chip once the deal began');
      assert.equal(t.ledger.credit(1), 1_000_000 - 10_000 - PROGRAM.stake);
    } finally {
      t.close();
    }
  });

  it('rule 45: a jackpot chip without a main bet does not play: it stays credit, and the station is told why', () => {
    const t = testTable(portugal());
    try {
      credit(t.ledger, 1, 1_000_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, { bet: 'jackpot' }, PROGRAM.stake).ok, true);
      credit(t.ledger, 2, 1_000_000);
      assert.equal(place(t, 2, { bet: 'main' }, 10_000).ok, true, 'station 2 plays: the round is dealt');
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing');
      assert.equal(t.ledger.credit(1), 1_000_000, 'nothing moved');
      const s = t.hub.state('station/1');
      assert.ok(s.kind === 'station');
      assert.deepEqual(
        (s.betting.unplayed ?? []).map((u) => [u.bet, u.amount, u.reason]),
        [['jackpot', PROGRAM.stake, 'needs-initial-bet']],
      );
    } finally {
      t.close();
    }
  });

  it('rules 40, 42, 50: contributions and a hit move between the house and the pools, journalled with the settlement', () => {
    const t = testTable(portugal());
    try {
      credit(t.ledger, 1, 1_000_000);
      burnShoeStart(t);
      // A losing round: the chip goes, 20% of it to the pools (16 main, 4 minor) and the start values are journalled.
      playRound(t, '9S TD 8H 9C stand');
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(pool(t, 'main'), 1_000_016);
      assert.equal(pool(t, 'minor'), 1_000_004);
      assert.equal(t.ledger.credit(1), 1_000_000 - 10_100);
      // 7-7 split, 7D to the first hand: three sevens among the player's first three cards (20,000 from minor).
      t.clock.runOut(t.table.reads.view().endsAt);
      playRound(t, '7S TD 7H 9C split 7D stand 5S stand');
      const m = t.ledger.meters('table');
      assert.equal(m['progressiveContributions.main'], 32);
      assert.equal(m['progressiveContributions.minor'], 8);
      assert.equal(m['progressiveHits.minor'], 1);
      assert.equal(m['progressiveWins.minor'], 20_000);
      assert.equal(m['progressiveSeeds.minor'], 1_000_000 + 19_992, 'the start value, then the seed back to the reset value');
      assert.equal(pool(t, 'minor'), 1_000_000);
      assert.equal(pool(t, 'main'), 1_000_032);
      assert.deepEqual(jackpotPools(t.ledger), [
        { level: 'main', pool: 1_000_032 },
        { level: 'minor', pool: 1_000_000 },
      ]);
      assert.deepEqual(
        jackpotHits(t.ledger).map((h) => [h.station, h.seat, h.combination, h.level, h.amount]),
        [[1, 1, 'three-sevens', 'minor', 20_000]],
      );
      // Main: 7-7 split: 7-7 (14) and 7-5 (12) against 19 lose both; the jackpot pays 20,000 whatever the main result (rule 43).
      assert.equal(t.ledger.credit(1), 1_000_000 - 10_100 - 20_100 + 20_000);
      assert.equal(verifyLedger(t.ledger).ok, true);
      assert.equal(entryCount(t.ledger, ['tilt.raise']), 0, 'the controller check never saw the table and the ledger apart');
    } finally {
      t.close();
    }
  });

  it("a hit above the table's handpay amount goes to an attendant, two people, not to the credit meter", () => {
    const t = testTable(portugal(10_000));
    try {
      credit(t.ledger, 1, 1_000_000);
      burnShoeStart(t);
      playRound(t, '7S TD 7H 9C split 7D stand 5S stand');
      assert.equal(t.ledger.credit(1), 1_000_000 - 20_100, 'the award is not on the meter');
      const pending = t.ledger.balance(account.handpayPending(1));
      assert.equal(pending, -20_000, 'owed by an attendant');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('the controller check: pools the ledger disagrees with stop the jackpot chip (a tilt), a two-person reset on the reference brings them back', () => {
    const t = testTable(portugal());
    try {
      credit(t.ledger, 1, 1_000_000);
      burnShoeStart(t);
      assert.deepEqual(
        t.tilts.list().map((x) => x.kind),
        [],
        'the table opens with its start values committed, unjournalled: in agreement',
      );
      // Someone else's pool in the ledger (a database from another program): 2,000,000 journalled, the table's 1,000,000 unfunded.
      t.ledger.append({
        type: 'jackpot.reset',
        txId: 'elsewhere',
        payload: { tableId: 'OTHER', level: 'main', to: 2_000_000, unfunded: 0, who: 'a', witness: 'b', authorisation: 'R' },
      });
      assert.deepEqual(
        t.tilts.list().map((x) => [x.kind, x.disables]),
        [['jackpot-controller', 'jackpot']],
      );
      const refused = place(t, 1, { bet: 'jackpot' }, PROGRAM.stake);
      assert.equal(refused.ok, false, 'the chip is refused');
      assert.equal(place(t, 1, { bet: 'main' }, 10_000).ok, true, 'the rest of the table plays on');
      const reset = (to: number, witness = 'W1', level = 'main') =>
        resetJackpotLevel(t, { level, to, supervisor: 'S1', witness, authorisation: 'IGJ-2026-17' });
      const reason = (r: ReturnType<typeof reset>) => (r.ok ? 'taken' : r.reason);
      assert.match(reason(reset(1_500_000)), /holds MOP\$20,000 in the ledger/, 'never below what the ledger holds');
      assert.match(reason(reset(2_000_000, 'S1')), /two different people/);
      // The table's own refusals said by key too (serviceRefusal.*), their English the en catalogue's, amounts as money.
      const below = reset(999_999, 'W1', 'minor');
      assert.match(
        reason(below),
        /^MOP\$9,999\.99 is below 10,000 × the chip of MOP\$1 = MOP\$10,000 \(Portaria 1364\/2001, rule 44, the house's reading: the «valor de arranque» \(starting value\) again after an award\)$/,
      );
      assert.equal(!below.ok && below.say?.key, 'serviceRefusal.jackpotBelowMinimum');
      const grand = reset(1_000_000, 'W1', 'grand');
      assert.match(reason(grand), /no level "grand"/);
      assert.equal(!grand.ok && grand.say?.key, 'serviceRefusal.jackpotNoLevel');
      assert.equal(t.table.state.hold, null, 'a refused reset leaves the table as it was');
      const ok = reset(2_000_000);
      assert.equal(ok.ok, true, JSON.stringify(ok));
      assert.deepEqual(t.tilts.list(), [], 'in agreement again: the fault clears by itself');
      assert.equal(place(t, 1, { bet: 'jackpot' }, PROGRAM.stake).ok, true);
      assert.equal(t.ledger.meters('table')['progressiveResets.main'], 2);
      assert.deepEqual(
        jackpotMovements(t.ledger).map((m) => [m.roundId, m.level, m.before, m.seed, m.after]),
        [
          [null, 'main', 2_000_000, 0, 2_000_000],
          [null, 'main', 0, 2_000_000, 2_000_000],
        ],
        'the resets, newest first: the second added nothing to what the ledger held',
      );
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('two resets of one level in one millisecond journal two entries, and the journal still folds', () => {
    // Both were taken (two people, the authority's reference each time): each is journalled under a
    // transaction id of its own, else the ledger keeps one as a duplicate while the table's input
    // says it wrote two, and the fold of the journal stops there.
    const t = testTable(portugal());
    try {
      burnShoeStart(t);
      const at = 1_780_000_000_000;
      const reset = (to: number) =>
        t.table.input({ kind: 'jackpot-reset', at, level: 'main', to, supervisor: 'S1', witness: 'W1', authorisation: 'IGJ-2026-18' });
      assert.deepEqual(reset(2_000_000), { ok: true });
      assert.deepEqual(reset(2_000_000), { ok: true });
      assert.deepEqual(reset(2_500_000), { ok: true });
      const resets = [...t.ledger.entries(1)].filter((e) => e.type === 'jackpot.reset');
      assert.equal(resets.length, 3, 'three resets, three entries');
      assert.equal(new Set(resets.map((e) => e.txId)).size, 3, 'each its own transaction id');
      assert.equal(t.ledger.meters('table')['progressiveResets.main'], 3);
      const folded = openTableGame(t.config, (game) => {
        const f = foldJournal(tableJournal(t.ledger), game, t.table.state.params);
        return { problems: f.problems, state: JSON.stringify(f.state) };
      });
      assert.deepEqual(folded.problems, [], 'the fold goes on past them');
      assert.deepStrictEqual(JSON.parse(folded.state), JSON.parse(JSON.stringify(t.table.state)));
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('reset ids stay unique across a restart and a clock set back (the count is part of the table state, checkpoint included)', () => {
    const first = testTable(portugal());
    const dir = first.dir;
    const at = 1_780_000_000_000;
    const reset = (t: typeof first, when: number) =>
      t.table.input({ kind: 'jackpot-reset', at: when, level: 'main', to: 2_000_000, supervisor: 'S1', witness: 'W1', authorisation: 'IGJ-2026-18' });
    burnShoeStart(first);
    assert.deepEqual(reset(first, at), { ok: true });
    assert.deepEqual(reset(first, at), { ok: true });
    first.stop();
    // The first restart folds the journal and writes a checkpoint at the head; the second starts from it.
    const again = testTable({ ...portugal(), dir });
    const ck = latestCheckpoint(again.ledger, { withTable: true });
    assert.ok(ck.status === 'ok' && ck.checkpoint.seq === again.ledger.headOf().seq, 'a checkpoint of the table at the head');
    again.stop();
    const t = testTable({ ...portugal(), dir });
    try {
      // After the restart: the same millisecond again, then a clock set back a second, then that earlier millisecond again.
      assert.deepEqual(reset(t, at), { ok: true });
      assert.deepEqual(reset(t, at - 1000), { ok: true });
      assert.deepEqual(reset(t, at - 1000), { ok: true });
      const ids = [...t.ledger.entries(1)].filter((e) => e.type === 'jackpot.reset').map((e) => e.txId);
      assert.equal(ids.length, 5, 'five resets, five entries');
      assert.equal(new Set(ids).size, 5, `each its own transaction id: ${ids.join(', ')}`);
      assert.equal(t.ledger.meters('table')['progressiveResets.main'], 5);
      const folded = openTableGame(t.config, (game) => foldJournal(tableJournal(t.ledger), game, t.table.state.params).problems);
      assert.deepEqual(folded, [], 'the fold goes on past them');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a restart folds the pools back exactly: the table and the ledger agree, and the next hit settles', () => {
    const first = testTable(portugal());
    const dir = first.dir;
    credit(first.ledger, 1, 1_000_000);
    burnShoeStart(first);
    playRound(first, '9S TD 8H 9C stand');
    const pools = first.table.reads.progressive()?.levels.map((l) => [l.level, l.pool]);
    first.stop();
    const t = testTable({ ...portugal(), dir });
    try {
      assert.deepEqual(
        t.table.reads.progressive()?.levels.map((l) => [l.level, l.pool]),
        pools,
      );
      assert.deepEqual(t.tilts.list(), []);
      t.clock.runOut(t.table.reads.view().endsAt);
      playRound(t, '7S TD 7H 9C split 7D stand 5S stand');
      assert.equal(pool(t, 'minor'), 1_000_000);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});
