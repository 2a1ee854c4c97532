// A kill at every step of a rule profile switched at the shoe change (issue 49 item 6), in the
// manner of the kill-and-restart campaigns (kill-restart-harness.ts): not random points, every one.
// The live host's ledger is copied as a kill would leave it on disk (the database and its
// write-ahead log, the head marker; no shared-memory index, which SQLite rebuilds) right after each
// transaction of the switch is durable: the shoe change itself (killed before the switch's first
// entry), the change, its rule record (killed mid-rebuild: journalled, the game not yet opened
// under it), the game's open under the new identity, and the end. A host started on each copy,
// from the configuration file that still names the old profile, must verify, fold without a
// problem or a void, open the game its journal says is in force (the old before the change, the
// new from it), keep every credit, make the order once (again at the next shoe when the kill came
// before it), pay the next round under that game, and start again cleanly.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { answeredOrders, ruleRecordAt, verifyLedger } from '../../ledger/index.js';
import { BANKER_SIX_WINS, FROM, openShoeHost, profileOrder, TO, type ShoeHost } from './shoe-profile-kit.js';

/** The folder as a kill leaves it now: every file but SQLite's shared-memory index. */
function copyAsKilled(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from)) if (!f.endsWith('-shm')) copyFileSync(path.join(from, f), path.join(to, f));
}

/** What a start on `dir` must find, and the table playing on from there. */
async function restartChecks(dir: string, step: string, credit: number): Promise<void> {
  const t: ShoeHost = openShoeHost(dir);
  try {
    const before = step === 'shoe.change';
    assert.equal(verifyLedger(t.ledger).ok, true, step);
    const r = t.rt.recovery;
    assert.deepEqual([r.ledgerVerified, r.foldProblems, r.voided, r.resumedRound], [true, [], [], null], step);
    assert.equal(t.rt.table.game.profile, before ? FROM : TO, `${step}: the game the journal has in force`);
    assert.equal(ruleRecordAt(t.ledger)?.payload.profile, t.rt.table.game.profile, `${step}: the record in force is the game played`);
    assert.equal(t.ledger.credit(1), credit, `${step}: no credit moved`);
    assert.equal(answeredOrders(t.ledger).has(7), !before, `${step}: the order answered once journalled`);
    // The upstream delivers it again until the synced journal answers it: made at the next shoe, or not again.
    t.remote.receive(profileOrder(7).answer);
    assert.equal(t.remote.pending().length, before ? 1 : 0, step);
    await t.newShoe();
    assert.equal(t.rt.table.game.profile, TO, step);
    try {
      t.round();
    } catch (e) {
      throw new Error(`${step}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    assert.equal(t.ledger.credit(1), credit + BANKER_SIX_WINS[TO]!, `${step}: the round after is paid under ${TO}`);
    assert.equal(verifyLedger(t.ledger).ok, true, step);
  } finally {
    t.stop();
  }
  // And once more: what the recovered host journalled folds as cleanly.
  const again = openShoeHost(dir);
  try {
    assert.equal(again.rt.table.game.profile, TO, step);
    assert.deepEqual([again.rt.recovery.foldProblems, again.rt.recovery.voided], [[], []], step);
  } finally {
    again.stop();
  }
}

describe('a kill at every step of a rule profile switched at the shoe change', () => {
  it('comes back, from each, to one table: the old game before the change is journalled, the new one from it', { timeout: 300_000 }, async (t) => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'etg-shoe-kill-'));
    try {
      const live = path.join(root, 'live');
      mkdirSync(live);
      const host = openShoeHost(live);
      const steps: { step: string; dir: string }[] = [];
      let credit: number;
      try {
        host.round();
        host.remote.receive(profileOrder(7).answer);
        credit = host.ledger.credit(1);
        const appendMany = host.ledger.appendMany.bind(host.ledger);
        host.ledger.appendMany = (entries, then) => {
          const results = appendMany(entries, then);
          // The transaction is durable: a kill now leaves this on disk.
          // The last written, `then`'s entries too (the switch's record is made inside the transaction).
          const last = results.at(-1)?.entry;
          const step = last?.type === 'shoe.change' || !entries[0] || entries[0].type !== 'table.input' ? (last?.type ?? '?') : 'table.input';
          const dir = path.join(root, `k${steps.length}`);
          copyAsKilled(live, dir);
          steps.push({ step, dir });
          return results;
        };
        await host.newShoe();
        host.ledger.appendMany = appendMany;
        assert.equal(host.rt.table.game.profile, TO);
        const end = path.join(root, 'end');
        copyAsKilled(live, end);
        steps.push({ step: 'end', dir: end });
      } finally {
        host.stop();
      }
      // Every step of the switch, in its order: none skipped, none added unseen. The change and its
      // record are one transaction (config-changes.ts `journalSwitch`): no kill falls between them.
      assert.deepEqual(
        steps.map((s) => s.step),
        ['shoe.change', 'rules.record', 'table.input', 'end'],
      );
      for (const { step, dir } of steps) await restartChecks(dir, step, credit);
      t.diagnostic(steps.map((s) => s.step).join(' → '));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
