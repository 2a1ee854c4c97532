// A table's checkpoint is read back, not believed (issue 53): its table state is JSON the ledger
// signed, and whoever holds the key file beside the database can sign any JSON. A checkpoint whose
// state does not parse as this build's table is refused with where it is wrong, and the table is
// folded from the first entry instead: the same table, nothing lost. A cut one fails its
// signature (or its JSON) and holds the table, the ledger untouched.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { latestCheckpoint, openLedger, type Ledger } from '../../ledger/index.js';
import { checkpointStateText, resignCheckpointState, tamperCheckpoint } from '../../ledger/testing/tamper.js';
import { tableParams } from '../config/table-params.js';
import { recoverTable, type Recovered } from './recover.js';
import { openTableGame } from './table-game.js';
import { credit, silent, submitted, testTable } from '../testing/table-kit.js';

/** A war table stopped mid-round, started again once (which writes a checkpoint holding the round at the head). */
function playedAndRestartedOnce() {
  const t = testTable({ game: 'war' });
  credit(t.ledger, 1, 100_000);
  credit(t.ledger, 2, 50_000);
  t.table.shoe.onNewShoe();
  for (let i = 0; i < 30 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
  assert.equal(
    submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 })).ok,
    true,
  );
  assert.equal(
    submitted(t.hub.commands.submit('station/2', t.hub.version('station/2'), { name: 'place-bet', spot: { bet: 'main' }, amount: 20_000 })).ok,
    true,
  );
  t.clock.runOut(t.table.reads.view().endsAt);
  t.table.shoe.onCard(parseCard('7S'));
  t.stop();
  const again = testTable({ game: 'war', dir: t.dir });
  again.stop();
  return { dir: t.dir, config: again.config, close: () => again.close() };
}

let base: ReturnType<typeof playedAndRestartedOnce> | undefined;
/** A copy of that table's folder (played once, copied for each case: each edits its own). */
function playedAndRestarted() {
  base ??= playedAndRestartedOnce();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ckpt-parse-'));
  cpSync(base.dir, dir, { recursive: true });
  return { dir, config: base.config, close: () => rmSync(dir, { recursive: true, force: true }) };
}

const dirs: (() => void)[] = [];
after(() => {
  dirs.forEach((close) => close());
  base?.close();
});

function recover(dir: string, config: ReturnType<typeof playedAndRestartedOnce>['config'], edit: (l: Ledger, seq: number) => void) {
  const ledger = openLedger(dir, 'T-FLOOR');
  try {
    const ck = latestCheckpoint(ledger, { withTable: true });
    assert.ok(ck.status === 'ok', 'the restart wrote a checkpoint holding the table');
    edit(ledger, ck.checkpoint.seq);
    const head = ledger.headOf().seq;
    const recovered = openTableGame(config, (game): Recovered<unknown, unknown> => recoverTable({ ledger, game, params: tableParams(config), log: silent }));
    assert.equal(ledger.headOf().seq, head, 'recovery wrote nothing');
    return { recovered, seq: ck.checkpoint.seq, stationCredits: ledger.stationCredits() };
  } finally {
    ledger.close();
  }
}

type Json = Record<string, unknown>;
const tamperings: [string, (table: Json) => void][] = [
  ['a phase no table has', (t) => (t.phase = 'paused')],
  ['a credit written as text', (t) => ((t.credits as Json)['1'] = '90000')],
  ['a bet in play with its amount gone', (t) => delete ((t.placed as Json[])[0] as Json).amount],
  ['a field this build does not know', (t) => (t.bonusCredits = { 1: 1_000_000 })],
  ['its chips replaced by a number', (t) => (t.chips = 3)],
];

describe("a table's checkpoint read back at a start", () => {
  it('folds from a checkpoint that parses (the baseline the refusals are held to)', () => {
    const p = playedAndRestarted();
    dirs.push(p.close);
    const { recovered, seq } = recover(p.dir, p.config, () => {});
    assert.equal(recovered.report.foldedFrom, seq);
    assert.equal(recovered.report.checkpointRefused, null);
    assert.equal(recovered.state.phase, 'dealing');
  });

  for (const [what, edit] of tamperings) {
    it(`refuses one signed again with ${what}, and folds the same table from the first entry`, () => {
      const p = playedAndRestarted();
      dirs.push(p.close);
      const clean = recover(p.dir, p.config, () => {}).recovered;
      const { recovered, seq } = recover(p.dir, p.config, (ledger, at) => {
        const state = JSON.parse(checkpointStateText(ledger, at)) as { table: { state: Json } };
        edit(state.table.state);
        resignCheckpointState(ledger, at, JSON.stringify(state));
      });
      assert.equal(recovered.report.ledgerVerified, true, 'the signature holds: only the parse refuses it');
      assert.match(recovered.report.checkpointRefused ?? '', new RegExp(`^checkpoint ${seq}: the table's state is refused at `));
      assert.equal(recovered.report.foldedFrom, 0, 'folded from the first entry');
      assert.deepEqual(recovered.state, clean.state, 'the same table as the checkpoint gave: nothing lost');
      assert.equal(recovered.state.credits[1], 90_000);
      assert.deepEqual(
        recovered.state.placed.map((b) => [b.station, b.amount]),
        [
          [1, 10_000],
          [2, 20_000],
        ],
      );
    });
  }

  it('names the field a refusal is about', () => {
    const p = playedAndRestarted();
    dirs.push(p.close);
    const { recovered } = recover(p.dir, p.config, (ledger, at) => {
      const state = JSON.parse(checkpointStateText(ledger, at)) as { table: { state: Json } };
      (state.table.state.credits as Json)['2'] = -0.5;
      resignCheckpointState(ledger, at, JSON.stringify(state));
    });
    assert.match(recovered.report.checkpointRefused ?? '', /refused at credits\.2: /);
  });

  for (const signed of [false, true]) {
    it(`holds the table on a cut checkpoint${signed ? ' signed again' : ''}, the ledger and its credits untouched`, () => {
      const p = playedAndRestarted();
      dirs.push(p.close);
      const { recovered, stationCredits } = recover(p.dir, p.config, (ledger, at) => {
        const text = checkpointStateText(ledger, at);
        const cut = text.slice(0, Math.floor(text.length / 2));
        if (signed) resignCheckpointState(ledger, at, cut);
        else tamperCheckpoint(ledger, at, 'state', cut);
      });
      assert.equal(recovered.report.ledgerVerified, false);
      const problems = recovered.report.problems.join('\n');
      assert.match(problems, /state is not JSON/);
      if (!signed) assert.match(problems, /signature does not match/);
      assert.equal(recovered.state.hold?.reason, 'ledger', 'the table holds and takes no bets');
      assert.deepEqual(recovered.state.credits, stationCredits, "the stations' credits as the ledger holds them");
      assert.equal(stationCredits[1], 90_000);
      assert.equal(stationCredits[2], 30_000);
    });
  }
});
