// A data folder written by an earlier build opens on this one, verifies and goes on (docs/ledger.md,
// "Upgrades"). The folders in tests/fixtures/upgrade/ were recorded by the table host of build
// d7a140c (tests/fixtures/upgrade/record-folder.ts, killed mid-shoe): that build cited every
// baccarat settlement line as the bare regulation ("macau-baccarat") and journalled a hold in a
// settled round's results without the round's id; this one cites the bet's article and names the
// round. The facts and the money are the same, so the table must come back as it was — the round
// in play resumed, the hold held — rather than open afresh and void the round.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { CardCode } from '../../engine/cards/card.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { openExistingLedger, verifyLedger, type EntryBody } from '../../ledger/index.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/upgrade');

/** A copy of the fixture to start on (a start writes to its folder). */
function copyOf(fixture: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'upgrade-'));
  cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
  return dir;
}

/** What the earlier build left: the stations' credits, the open round, the entries. */
function before(dir: string): { credits: [number, number]; open: string[]; head: number } {
  const l = openExistingLedger(dir);
  try {
    return { credits: [l.credit(1), l.credit(2)], open: l.rounds.open().map((r) => r.roundId), head: l.headOf().seq };
  } finally {
    l.close();
  }
}

const start = (dataDir: string) =>
  startHost({
    dataDir,
    rendererDir: path.join(dataDir, 'none'),
    logger: pino({ level: 'silent' }),
    // As recorded: the simulated baccarat table, its shoe a one-way stream.
    config: { ...simulatedTableConfig('baccarat'), shoeProtocol: 'ascii' },
    simulatedDealer: false,
    timings: { bettingMs: 400, decisionMs: 5_000, resultsMs: 200 },
  });

async function until(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1500 && !test(); i++) await sleep(10);
  assert.ok(test(), `timed out waiting for ${what}`);
}

async function draw(running: RunningHost, card: CardCode): Promise<void> {
  await until(() => running.table.reads.expectsCard(), `a card cue for ${card}`);
  const handled = running.devices.shoe.cardsHandled;
  assert.equal(running.devices.shoe.simulator()?.drawCard({ card }), card);
  await until(() => running.devices.shoe.cardsHandled > handled, `${card} handled`);
}

function settlement(running: RunningHost, roundId: string) {
  const e = [...running.ledger.entries(1)].find((x) => x.type === 'round.settle' && x.roundId === roundId);
  assert.ok(e, `round ${roundId} settled`);
  return (JSON.parse(e.body) as EntryBody).payload as { lines: { station: number; bet: string; stake: number; net: number; rule: string }[] };
}

// The folder as recorded (its checkpoint at the start holds the table, the coups after it), and
// the same with its checkpoints deleted (the start verifies and folds from the first entry).
const IN_ROUND = [
  { fixture: 'baccarat-d7a140c-in-round', name: 'its checkpoint holding the table' },
  { fixture: 'baccarat-d7a140c-in-round-no-checkpoint', name: 'no checkpoint' },
];

describe('a data folder of build d7a140c (baccarat, killed mid-shoe)', () => {
  for (const { fixture, name } of IN_ROUND) {
    it(
      `a coup in play, ${name}: verified, the coup resumed (not voided), dealt to its end and settled under this build's articles`,
      { timeout: 90_000 },
      async () => {
        const dir = copyOf(fixture);
        try {
          const old = before(dir);
          assert.equal(old.open.length, 1, 'the fixture holds one coup in play');
          const roundId = old.open[0] ?? '';
          const running = await start(dir);
          try {
            assert.equal(running.recovery.ledgerVerified, true, running.recovery.problems.join('; '));
            assert.deepEqual(running.recovery.voided, [], 'nothing voided');
            assert.equal(running.recovery.resumedRound, roundId, 'the coup in play goes on');
            assert.deepEqual(running.recovery.foldProblems, []);
            assert.equal(running.recovery.entriesByFacts, 3, "the earlier build's three settlements, read by their facts");
            assert.deepEqual([running.ledger.credit(1), running.ledger.credit(2)], old.credits);
            assert.deepEqual(running.table.state.credits[1], old.credits[0], "the table's credits are the ledger's");
            // Two of its cards were dealt before the kill (player 6H, banker 7C): player 2D, banker KC.
            await draw(running, '2D');
            await draw(running, 'KC');
            await until(() => running.ledger.rounds.record(roundId)?.status === 'settled', 'the settlement');
            const lines = settlement(running, roundId).lines.map((l) => [l.station, l.bet, l.stake, l.net, l.rule]);
            // Player 6H 2D (8, a natural), banker 7C KC (7): the player wins 1:1, the pair and the banker lose.
            assert.deepEqual(lines, [
              [1, 'banker', 10_000, -10_000, 'macau-baccarat art.13 n.1 2)'],
              [2, 'player', 20_000, 20_000, 'macau-baccarat art.13 n.1 1), art.17'],
              [2, 'playerPair', 10_000, -10_000, 'macau-baccarat art.13 n.1 4)(1), art.17'],
            ]);
            assert.deepEqual([running.ledger.credit(1), running.ledger.credit(2)], [old.credits[0], old.credits[1] + 40_000]);
            const full = verifyLedger(running.ledger);
            assert.deepEqual(full.problems, []);
            // The next coup plays too.
            await until(() => running.table.reads.station(1).betting.open, 'the next betting window');
            assert.deepEqual(running.table.commands.placeBet(1, { bet: 'banker' }, 10_000), { ok: true });
          } finally {
            await running.close();
          }
          // The start wrote a checkpoint of this build: the next start folds from it, the old entries not read again.
          const again = await start(dir);
          try {
            assert.equal(again.recovery.ledgerVerified, true);
            assert.ok(again.recovery.foldedFrom > old.head, `folded from this build's checkpoint (${again.recovery.foldedFrom})`);
            assert.equal(again.recovery.entriesByFacts, 0, 'every entry of this build compared byte for byte');
          } finally {
            await again.close();
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );
  }

  it("a hold in a settled coup's results: held again, lifted by two people, and play goes on", { timeout: 90_000 }, async () => {
    const dir = copyOf('baccarat-d7a140c-hold');
    try {
      const old = before(dir);
      assert.deepEqual(old.open, [], 'the coups are settled');
      const running = await start(dir);
      try {
        assert.equal(running.recovery.ledgerVerified, true, running.recovery.problems.join('; '));
        assert.deepEqual(running.recovery.voided, []);
        assert.equal(running.recovery.tableHold, 'extra-card', 'the hold is back');
        assert.equal(running.table.reads.view().hold, 'extra-card');
        assert.equal(running.table.commands.placeBet(1, { bet: 'banker' }, 10_000).ok, false, 'no bet on hold');
        assert.ok(running.recovery.entriesByFacts > 0, 'the earlier build’s settlements were read by their facts');
        assert.deepEqual([running.ledger.credit(1), running.ledger.credit(2)], old.credits);
        assert.deepEqual(running.table.supervisor.voidRound('card drawn after the coup: checked', ['sup-1', 'wit-2']), { ok: true });
        assert.deepEqual([running.ledger.credit(1), running.ledger.credit(2)], old.credits, 'a settled coup is not touched');
        await until(() => running.table.reads.station(1).betting.open, 'a betting window once the hold is lifted');
        assert.deepEqual(running.table.commands.placeBet(1, { bet: 'banker' }, 10_000), { ok: true });
        assert.deepEqual(verifyLedger(running.ledger).problems, []);
      } finally {
        await running.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
