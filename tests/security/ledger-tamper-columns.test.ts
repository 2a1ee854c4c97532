// Issue 29: a `round_id` edited at or before the newest checkpoint (no hash covers the column; recall
// and evidence read it) was caught by `etg ledger verify --full` only; the default verify and the
// host's start (both from the checkpoint) passed it. Done with the kiosk user's file access, the
// update trigger lifted and put back word for word. Both modes must exit 1 naming the entry.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { latestCheckpoint, Ledger, openExistingLedger, verifyLedger } from '../../ledger/index.js';
import { appendSynthetic } from '../../ledger/testing/synthetic.js';
import { setRoundIdInFile } from '../../ledger/testing/tamper.js';

const root = mkdtempSync(path.join(tmpdir(), 'ledger-columns-'));
after(() => rmSync(root, { recursive: true, force: true }));

function verify(dir: string, full: boolean): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, ['bin/etg.js', 'ledger', 'verify', '--data-dir', dir, ...(full ? ['--full'] : [])], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

describe('a non-hashed column edited before the checkpoint (issue 29)', () => {
  it('a round_id moved at or before the newest checkpoint fails verify in both modes and the start-time verification', () => {
    const dir = path.join(root, 'a');
    const ledger = Ledger.open({ dataDir: dir, terminalId: 'T1', checkpointEvery: 50 });
    appendSynthetic(ledger, 200, { batch: 3 });
    const c = latestCheckpoint(ledger);
    ledger.close();
    assert.equal(c.status, 'ok', 'the ledger has a checkpoint');
    const ckSeq = c.status === 'ok' ? c.checkpoint.seq : 0;
    assert.equal(verify(dir, false).code, 0, 'the untouched ledger verifies (the control)');

    // An entry of a round at or before the checkpoint: the first bet.place.
    const probe = openExistingLedger(dir, { tailCheck: false });
    let target = 0;
    for (let seq = 1; seq <= ckSeq && target === 0; seq++) if (probe.entry(seq)?.type === 'bet.place') target = seq;
    probe.close();
    assert.ok(target > 0 && target <= ckSeq, `a bet at or before checkpoint ${ckSeq}`);
    setRoundIdInFile(dir, target, 'moved-round');

    for (const full of [false, true]) {
      const r = verify(dir, full);
      assert.equal(r.code, 1, `verify${full ? ' --full' : ''} exits 1: ${r.out}`);
      assert.match(r.out, new RegExp(`seq ${target}: .*round_id`), r.out);
    }
    // The host's start verifies from the checkpoint (host/table/recover.ts): the same refusal.
    const start = openExistingLedger(dir);
    try {
      const v = verifyLedger(start, { from: 'checkpoint' });
      assert.equal(v.ok, false, 'the start-time verification refuses');
      assert.ok(
        v.problems.some((p) => p.startsWith(`seq ${target}:`)),
        v.problems.join('\n'),
      );
    } finally {
      start.close();
    }
  });
});
