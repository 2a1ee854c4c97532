// The dispute tool on the rounds most likely to be disputed (issue 51 item 5): Portugal jackpot
// rounds played at the live table are read back from the journal alone (the bets taken at the
// close, the cards in shoe order, the decisions, the pools before the chips and the fractions
// carried in), written as round files, and replayed by `etg round` as a user runs it. The replay
// must give every settlement line and every level's move the live table journalled.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EXAMPLE_JACKPOT_PROGRAM, type JackpotProgram } from '../../engine/blackjack/jackpot/program.js';
import { parseCard } from '../../engine/cards/card.js';
import type { JournalEntry } from '../../ledger/index.js';
import type { Spot } from '../../protocol/index.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';
import { jackpotProblem } from '../tilts/jackpot-controller.js';
import { openLedger, verifyLedger } from '../../ledger/index.js';
import { tableParams } from '../config/table-params.js';
import { silent } from '../testing/table-kit.js';
import { recoverTable, type Recovered } from './recover.js';
import { openTableGame } from './table-game.js';

// The example's awards under an increment that leaves fractions of a unit (rule 40): 100 × 11.11%
// is 7.777 units to `main` and 3.333 to `minor`, so every round carries a fraction to the next.
const PROGRAM: JackpotProgram = {
  ...EXAMPLE_JACKPOT_PROGRAM,
  reference: 'TEST-IGJ-REPLAY',
  incrementBasisPoints: 1_111,
  levels: [
    { level: 'main', start: 1_000_000, reset: 1_000_000, share: 7_000 },
    { level: 'minor', start: 1_000_000, reset: 1_000_000, share: 3_000 },
  ],
};
const OPTIONS = { jackpot: true, jackpotCards: 3 };
const AUTHORISATION = 'TEST-IGJ';

const dir = mkdtempSync(path.join(tmpdir(), 'jackpot-replay-'));
const place = (t: TestTable, station: number, spot: Spot, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot, amount }));
const decide = (t: TestTable, station: number, action: string) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action } as never));

interface Payload {
  roundId?: string;
  station?: number;
  bets?: { seat: number; bet: string; amount: number }[];
  cards?: { card: string; to: string }[];
  decisions?: { seat: number; hand?: number; action: string }[];
  lines?: { seat: number; bet: string; hand?: number; stake: number; net: number; rule: string }[];
  levels?: {
    level: string;
    before: number;
    contribution: number;
    carryIn?: number;
    award: number;
    hits: number;
    rounding?: number;
    seed: number;
    after: number;
  }[];
}
/** A level's move as the replay gives it (`funded` is the journal's alone: the replay starts from `before`). */
const move = (l: NonNullable<Payload['levels']>[number]) => [
  l.level,
  l.before,
  l.contribution,
  l.carryIn ?? 0,
  l.award,
  l.hits,
  l.rounding ?? 0,
  l.seed,
  l.after,
];
const payloadOf = (e: JournalEntry) => (JSON.parse(e.body) as { payload: Payload }).payload;

/** The round file of a settled round, from the journal only; the program is the table's configured one. */
function roundFile(entries: readonly JournalEntry[], roundId: string, program: JackpotProgram) {
  const mine = entries.filter((e) => payloadOf(e).roundId === roundId);
  const seats = new Map<number, Record<string, number>>();
  // The bets taken when betting closed (`<round>:bet:<station>`), not the raises of later decisions.
  for (const e of mine.filter((x) => x.type === 'bet.place' && x.txId === `${roundId}:bet:${payloadOf(x).station}`))
    for (const b of payloadOf(e).bets ?? []) seats.set(b.seat, { ...seats.get(b.seat), [b.bet]: b.amount });
  const settle = payloadOf(mine.find((e) => e.type === 'round.settle') ?? assert.fail(`no settlement of ${roundId}`));
  const jackpot = payloadOf(mine.find((e) => e.type === 'jackpot.settle') ?? assert.fail(`no jackpot.settle of ${roundId}`));
  const carry = Object.fromEntries((jackpot.levels ?? []).flatMap((l) => (l.carryIn ? [[l.level, l.carryIn]] : [])));
  return {
    file: {
      seats: [...seats].sort(([a], [b]) => a - b).map(([seat, bets]) => ({ seat, bets })),
      cards: (settle.cards ?? []).filter((c) => c.to !== 'burn').map((c) => c.card),
      decisions: (settle.decisions ?? []).map((d) => ({ seat: d.seat, hand: d.hand ?? 0, action: d.action })),
      jackpot: {
        program,
        pools: Object.fromEntries((jackpot.levels ?? []).map((l) => [l.level, l.before])),
        ...(Object.keys(carry).length > 0 ? { carry } : {}),
      },
    },
    lines: settle.lines ?? [],
    levels: jackpot.levels ?? [],
  };
}

function replay(file: unknown) {
  const input = path.join(dir, `r${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(input, JSON.stringify(file));
  const sets = [...Object.entries(OPTIONS).flatMap(([k, v]) => ['--set', `${k}=${v}`]), '--set', `authorisation=${AUTHORISATION}`];
  const r = spawnSync(process.execPath, ['bin/etg.js', 'round', '--game', 'blackjack', '--rules', 'portugal-2001', ...sets, '--input', input, '--json'], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { settlements: Payload['lines']; jackpot?: { moves: Payload['levels'] } };
}

describe('etg round replays the live table’s Portugal jackpot rounds (rules 38–50)', () => {
  it('every settlement line and every level’s move, as the live table journalled them, from the journal alone', () => {
    const t = testTable({
      game: 'blackjack',
      config: { profile: 'portugal-2001', profileAuthorisation: AUTHORISATION, profileOptions: { ...OPTIONS, jackpotProgram: PROGRAM } },
    });
    try {
      credit(t.ledger, 1, 1_000_000);
      credit(t.ledger, 2, 1_000_000);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      const rounds: string[] = [];
      /** One round: both seats bet main and the chip; the cards and decisions (`1:stand`) as scripted. */
      const play = (script: string) => {
        for (const s of [1, 2]) {
          assert.equal(place(t, s, { bet: 'main' }, 10_000).ok, true);
          assert.equal(place(t, s, { bet: 'jackpot' }, PROGRAM.stake).ok, true);
        }
        t.clock.runOut(t.table.reads.view().endsAt);
        const roundId = t.table.reads.view().roundId ?? assert.fail('no round');
        for (const x of script.split(' ')) {
          const d = /^([12]):(.+)$/.exec(x);
          if (d) assert.equal(decide(t, Number(d[1]), d[2] ?? '').ok, true, x);
          else t.table.shoe.onCard(parseCard(x));
        }
        assert.equal(t.table.reads.view().phase, 'results', script);
        rounds.push(roundId);
        t.clock.runOut(t.table.reads.view().endsAt);
      };
      // Seat 1 17, seat 2 18, against 19: both lose; the chips only feed the pools.
      play('9S 8D TD TH 8H 9C 1:stand 2:stand');
      // Seat 1 splits 7-7 and its third card is a 7 (three sevens, 20,000 from minor); seat 2 has A-K suited (2,500 from minor): rule 50 a).
      play('7S AH TD 7H KH 9C 1:split 7D 1:stand 5S 1:stand');
      // After two rounds the carried fractions have moved: seat 1 doubles 10 to 20, seat 2 hits 10 to 19, against 17.
      play('5S 6D 9D 5H 4C 8C 1:double TS 2:hit 9H 2:stand');
      assert.equal(rounds.length, 3);
      const entries = [...t.ledger.entries(1)];
      let carried = 0;
      let hits = 0;
      for (const roundId of rounds) {
        const { file, lines, levels } = roundFile(entries, roundId, PROGRAM);
        const out = replay(file);
        const key = (l: NonNullable<Payload['lines']>[number]) => [l.seat, l.bet, l.hand ?? 0, l.stake, l.net, l.rule];
        assert.deepEqual((out.settlements ?? []).map(key), lines.map(key), `round ${roundId}: the same lines`);
        assert.deepEqual((out.jackpot?.moves ?? []).map(move), levels.map(move), `round ${roundId}: the same moves of the pools`);
        carried += Object.keys(file.jackpot.carry ?? {}).length;
        hits += levels.reduce((n, l) => n + l.hits, 0);
      }
      assert.ok(carried > 0, 'fractions were carried into a replayed round');
      assert.equal(hits, 2, 'two hits replayed');
    } finally {
      t.close();
    }
  });

  it('a pool shared by two suited Black Jacks that does not divide: equal shares rounded up, the house’s unit journalled and replayed (rule 50 b))', () => {
    // The pool taken by a suited Black Jack (figures of a test): two in one round share it.
    const program: JackpotProgram = { ...PROGRAM, awards: [{ combination: 'suited-blackjack', level: 'main', pays: 'pool' }] };
    const t = testTable({
      game: 'blackjack',
      config: { profile: 'portugal-2001', profileAuthorisation: AUTHORISATION, profileOptions: { ...OPTIONS, jackpotProgram: program } },
    });
    try {
      credit(t.ledger, 1, 1_000_000);
      credit(t.ledger, 2, 1_000_000);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      for (const s of [1, 2]) {
        assert.equal(place(t, s, { bet: 'main' }, 10_000).ok, true);
        assert.equal(place(t, s, { bet: 'jackpot' }, program.stake).ok, true);
      }
      t.clock.runOut(t.table.reads.view().endsAt);
      const roundId = t.table.reads.view().roundId ?? assert.fail('no round');
      // A-K of spades and A-K of diamonds against 17: 1,000,000 + 15 (7.777 a chip, two chips) to share.
      for (const c of 'AS AD 9C KS KD 8C'.split(' ')) t.table.shoe.onCard(parseCard(c));
      assert.equal(t.table.reads.view().phase, 'results');
      const { file, lines, levels } = roundFile([...t.ledger.entries(1)], roundId, program);
      const main = levels.find((l) => l.level === 'main') ?? assert.fail('no main level');
      assert.deepEqual(
        [main.before, main.contribution, main.award, main.hits, main.rounding, main.seed, main.after],
        [1_000_000, 15, 1_000_016, 2, 1, 1_000_000, 1_000_000],
        '500,008 each: the house adds the unit that does not divide',
      );
      assert.deepEqual(
        lines.filter((l) => l.bet === 'jackpot').map((l) => [l.seat, l.stake + l.net]),
        [
          [1, 500_008],
          [2, 500_008],
        ],
      );
      const out = replay(file);
      assert.deepEqual((out.jackpot?.moves ?? []).map(move), levels.map(move), 'the replay gives the same moves, the rounding included');
      assert.equal(t.ledger.meters('table')['progressiveRounding.main'], 1);
      assert.equal(jackpotProblem(t.ledger, t.table), null, 'the table and the ledger hold the same pools');
      const v = verifyLedger(t.ledger);
      assert.equal(v.ok, true, v.problems.join('; '));
      // Started again with the round on the table: the checkpoint the restart writes holds its move,
      // rounding included, and the next start folds from it rather than refusing it.
      t.stop();
      testTable({ game: 'blackjack', config: t.config, dir: t.dir }).stop();
      const ledger = openLedger(t.dir, 'T-FLOOR');
      try {
        const recovered = openTableGame(t.config, (game): Recovered<unknown, unknown> =>
          recoverTable({ ledger, game, params: tableParams(t.config), log: silent }),
        );
        assert.equal(recovered.report.checkpointRefused, null);
        assert.ok(recovered.report.foldedFrom > 0, 'folded from the checkpoint');
      } finally {
        ledger.close();
      }
    } finally {
      rmSync(t.dir, { recursive: true, force: true });
    }
  });
});
