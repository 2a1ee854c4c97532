import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { entriesOfTypes, openExistingLedger } from '../../ledger/index.js';
import { tamperJournalBody } from '../../ledger/testing/tamper.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const cli = [path.resolve('bin/etg.js'), 'ledger'];

function ledger(...args: string[]) {
  const r = spawnSync(process.execPath, [...cli, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('etg ledger', () => {
  const dir = path.join(tmp, 'kiosk');
  it('demo, verify, export, recall, evidence, meters and status work on one data folder', () => {
    const demo = ledger('demo', '--data-dir', dir, '--terminal-id', 'K-1', '--rounds', '3', '--json');
    assert.equal(demo.code, 0, demo.err);
    const written = JSON.parse(demo.out) as { terminalId: string; rounds: number; lastRound: string | null };
    assert.equal(written.terminalId, 'K-1');
    assert.equal(written.rounds, 3);
    const last = written.lastRound;
    assert.ok(last);
    const v = ledger('verify', '--data-dir', dir, '--json');
    assert.equal(v.code, 0, v.out + v.err);
    assert.equal((JSON.parse(v.out) as { ok: boolean }).ok, true);
    // No checkpoint yet (a short journal): from the first entry either way.
    const full = ledger('verify', '--data-dir', dir, '--full', '--json');
    assert.equal(full.code, 0, full.out + full.err);
    assert.deepEqual((JSON.parse(full.out) as { mode: string; fromSeq: number }).mode, 'full');
    const e = ledger('export', '--data-dir', dir, '--from', '5', '--json');
    assert.equal(e.code, 0, e.err);
    const exported = JSON.parse(e.out) as { terminalId: string; entries: { seq: number; hash: string }[] };
    assert.equal(exported.terminalId, 'K-1');
    assert.equal(exported.entries[0]?.seq, 5);
    const r = ledger('recall', '--data-dir', dir, '--station', '3', '--json');
    assert.equal((JSON.parse(r.out) as unknown[]).length, 3);
    const ev = ledger('evidence', '--data-dir', dir, '--round', last);
    assert.equal(ev.code, 0, ev.err);
    assert.equal((JSON.parse(ev.out) as { round: { roundId: string } }).round.roundId, last);
    assert.equal(ledger('meters', '--data-dir', dir, '--scope', 'table', '--json').code, 0);
    assert.equal((JSON.parse(ledger('status', '--data-dir', dir, '--json').out) as { lagEntries: number }).lagEntries, exported.entries.length + 4);
    const copy = path.join(tmp, 'copy');
    const b = ledger('backup', '--data-dir', dir, '--out', path.join(copy, 'ledger.sqlite'));
    assert.equal(b.code, 2, 'the target folder does not exist yet');
    assert.match(b.err, new RegExp(`no folder ${copy} to write the copy in: make it first`), 'named (before: SQLite’s "the directory does not exist")');
    mkdirSync(copy);
    const backedUp = ledger('backup', '--data-dir', dir, '--out', path.join(copy, 'ledger.sqlite'), '--json');
    assert.equal(backedUp.code, 0, backedUp.err);
    assert.deepEqual(JSON.parse(backedUp.out), { terminalId: 'K-1', entries: exported.entries.length + 4, out: path.join(copy, 'ledger.sqlite') });
    assert.equal(ledger('backup', '--data-dir', dir, '--out', path.join(copy, 'ledger.sqlite')).code, 2, 'never overwrites');
    const vc = ledger('verify', '--data-dir', copy, '--json');
    assert.equal(vc.code, 0, vc.out);
    assert.equal((JSON.parse(vc.out) as { headHash: string }).headHash, (JSON.parse(v.out) as { headHash: string }).headHash);
  });

  it('exits 1 when the journal was altered, 2 on usage errors, 1 on a missing ledger', () => {
    const l = openExistingLedger(dir);
    try {
      const settles = [...entriesOfTypes(l, ['round.settle'])];
      assert.ok(settles.map((e) => tamperJournalBody(l, e.seq, '"net":-1000', '"net":-900')).includes(true), 'a settlement altered');
    } finally {
      l.close();
    }
    const v = ledger('verify', '--data-dir', dir);
    assert.equal(v.code, 1);
    assert.match(v.out, /MISMATCH/);
    // The kiosk itself refuses to open it; the diagnostic tools still can.
    const status = ledger('status', '--data-dir', dir);
    assert.equal(status.code, 1);
    assert.match(status.err, /integrity failure/);
    assert.equal(ledger('export', '--data-dir', dir, '--json').code, 0);
    assert.equal(ledger('verify').code, 2);
    assert.equal(ledger('export', '--data-dir', dir).code, 2);
    assert.equal(ledger('frobnicate').code, 2);
    assert.equal(ledger('verify', '--data-dir', path.join(tmp, 'none')).code, 1);
  });
});
