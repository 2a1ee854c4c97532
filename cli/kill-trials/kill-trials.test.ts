// A short slice of the OS-level SIGKILL campaign (cli/kill-trials/): real processes on real
// ledger files, killed at seeded moments, each kill followed by a restart that recovers and the
// invariants. `etg soak --campaign` runs 1,000 and more.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readDeviceTruth, DeviceRecordError } from './device-record.js';
import { withTableGame } from '../../engine/games.js';
import { killCampaign, killCampaignTable } from './campaign.js';
import { checkAfterRestart, JournalTally } from './invariants.js';
import { deviceFile, openTableHost } from './table-host.js';

describe('OS-level SIGKILL trials', () => {
  it('20 kills over the three games and both blackjack jurisdictions lose and duplicate nothing', async () => {
    const r = await killCampaign({ trials: 20, seed: 3 });
    assert.deepEqual(r.violations, []);
    assert.equal(r.trials, 20);
    assert.deepEqual(Object.values(r.byTable), [5, 5, 5, 5]);
    assert.equal(r.kills['sigkill-during-start'] + r.kills['sigkill-during-play'], 20, 'every trial ended in our SIGKILL');
    assert.equal(r.earlyExits, 0);
    assert.equal(r.lostCredits, 0);
    assert.equal(r.duplicatedCredits, 0);
    assert.equal(r.ledgerFailures, 0);
    assert.ok(r.upstreamExact, 'the upstream holds exactly each journal');
    // The trials did something: notes went into stackers and rounds closed between the kills.
    assert.ok(r.notesStacked > 0 && r.roundsClosed > 0, `${r.notesStacked} notes, ${r.roundsClosed} rounds`);
    assert.ok(r.recoverMs.p99 >= r.recoverMs.p50 && r.recoverMs.p50 > 0);
    const table = killCampaignTable(r);
    for (const row of ['SIGKILL trials', 'lost credits', 'duplicated credits', 'ledger failures', 'recover p50 / p99', 'fault sigkill-during-play'])
      assert.match(table, new RegExp(`^${row}`, 'm'), row);
  });
});

describe("the acceptor's record file", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'device-record-'));
  const file = path.join(dir, 'a.jsonl');

  it('drops a torn last line (the kill landed inside its write) and keeps what came before', () => {
    writeFileSync(file, '{"e":"escrow","id":"N1","amount":10000}\n{"e":"stack","id":"N1"}\n{"e":"ack","id":"N1"}\n{"e":"escrow","id":"N2","amou');
    const t = readDeviceTruth(file, 'BA-1');
    assert.deepEqual([...t.notes], [['N1', { amount: 10000, where: 'stacker' }]]);
    assert.deepEqual(t.owed, []);
    assert.equal(t.nextNote, 2);
  });

  it('owes the credit of a stacked note never acknowledged', () => {
    writeFileSync(file, '{"e":"escrow","id":"N1","amount":10000}\n{"e":"stack","id":"N1"}\n');
    assert.deepEqual(readDeviceTruth(file, 'BA-1').owed, ['N1']);
  });

  it('refuses a damaged line that is not the last, and a note stacked without an escrow, with a typed error', () => {
    writeFileSync(file, 'garbage\n{"e":"escrow","id":"N1","amount":10000}\n');
    assert.throws(() => readDeviceTruth(file, 'BA-1'), DeviceRecordError);
    writeFileSync(file, '{"e":"stack","id":"N9"}\n');
    assert.throws(() => readDeviceTruth(file, 'BA-1'), DeviceRecordError);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('the checks after a restart', () => {
  it('report a note the device stacked and acknowledged that the journal never credited', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kill-check-'));
    try {
      // The device says N1 went into the stacker and its credit was acknowledged; the journal has no credit.
      writeFileSync(deviceFile(dir, 1), '{"e":"escrow","id":"N1","amount":50000}\n{"e":"stack","id":"N1"}\n{"e":"ack","id":"N1"}\n');
      await withTableGame('war', 'macau', {}, async (def) => {
        const host = openTableHost(def, { dir, game: 'war', profile: 'macau' });
        const c = checkAfterRestart({
          ledger: host.ledger,
          dir,
          stations: host.stations,
          tally: new JournalTally(),
          verifiedAtStart: true,
          problems: [],
          full: true,
        });
        await host.close();
        assert.equal(c.lost, 1);
        assert.equal(c.duplicated, 0);
        assert.ok(
          c.violations.some((v) => v.startsWith('money not conserved')),
          c.violations.join('\n'),
        );
      });
      // Owed instead (no ack): the restart's power-up delivers it, credited once. The host
      // journalled the escrow before it answered "stack" (the credit rule credits only such a note).
      await withTableGame('war', 'macau', {}, async (def) => {
        const host = openTableHost(def, { dir, game: 'war', profile: 'macau' });
        host.ledger.append({ type: 'bill.escrow', payload: { station: 2, device: 'BA-2', denomination: 10_000, currency: 'MOP' }, txId: 'BA-2:N1:escrow' });
        await host.close();
      });
      writeFileSync(deviceFile(dir, 2), '{"e":"escrow","id":"N1","amount":10000}\n{"e":"stack","id":"N1"}\n');
      await withTableGame('war', 'macau', {}, async (def) => {
        const host = openTableHost(def, { dir, game: 'war', profile: 'macau' });
        const tally = new JournalTally();
        const c = checkAfterRestart({ ledger: host.ledger, dir, stations: host.stations, tally, verifiedAtStart: true, problems: [], full: true });
        await host.close();
        assert.equal(tally.credits.get('BA-2:N1:credit'), 1);
        assert.equal(c.lost, 1, 'station 1 is still lost; station 2 was delivered');
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
