// The upstream as the second witness of a lost WAL (docs/ledger.md, "A lost WAL"): a journal that
// lost its newest entries, once the head mark is gone too (removed, or never fsynced before a
// power cut), opens; the next entries it journals take seqs the upstream already holds with other
// hashes, and the sync client stops with an alarm instead of sending on.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { FakeUpstream } from '../../cli/sim-faults/fake-upstream.js';
import { Ledger, SyncClient } from '../../ledger/index.js';
import { appendSynthetic } from '../../ledger/testing/synthetic.js';

const TERMINAL = 'WAL-2';
const KEY = Buffer.alloc(32, 3).toString('base64');
const root = mkdtempSync(path.join(os.tmpdir(), 'lost-wal-upstream-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function syncAll(ledger: Ledger, upstream: FakeUpstream, alarms: string[]): Promise<SyncClient> {
  const client = new SyncClient(ledger, {
    url: 'http://127.0.0.1:9',
    credentials: { terminalId: TERMINAL, key: KEY },
    fetch: upstream.fetchWith(() => null),
    onAlarm: (a) => alarms.push(`${a.kind}: ${a.message}`),
  });
  for (let i = 0; i < 200; i++) if ((await client.syncOnce()) !== 'sent') break;
  return client;
}

describe('a lost WAL, seen from the upstream', () => {
  it('a journal behind the upstream that journals again is stopped with an alarm at its next sync', async () => {
    const dir = path.join(root, 'kiosk');
    mkdirSync(dir);
    const file = path.join(dir, 'ledger.sqlite');
    const upstream = new FakeUpstream(TERMINAL);
    const ledger = Ledger.open({ file, terminalId: TERMINAL });
    appendSynthetic(ledger, 60);
    // What the database file would hold after losing the WAL: the journal as it was here.
    ledger.close();
    const older = path.join(root, 'older');
    mkdirSync(older);
    copyFileSync(file, path.join(older, 'ledger.sqlite'));
    const again = Ledger.open({ file, terminalId: TERMINAL });
    appendSynthetic(again, 40, { from: 10_000 });
    const head = again.headOf().seq;
    await syncAll(again, upstream, []);
    again.close();
    assert.equal(upstream.entries.length, head, 'the upstream holds the whole journal');

    // The older copy in place, with no head mark (the loss accepted, or never fsynced): it opens.
    const rolledBack = Ledger.open({ file: path.join(older, 'ledger.sqlite'), terminalId: TERMINAL });
    assert.ok(rolledBack.headOf().seq < head);
    appendSynthetic(rolledBack, 10, { from: 20_000 });
    const alarms: string[] = [];
    const client = await syncAll(rolledBack, upstream, alarms);
    // Not started (syncOnce by hand), so its state stays 'stopped'; the alarm and the refusal are what a started client blocks on.
    assert.ok(alarms.length > 0, 'an alarm for a technician');
    assert.match(alarms[0] ?? '', /^upstream-409: .*divergence/, alarms.join('\n'));
    assert.equal(await client.syncOnce(), 'failed', 'it does not send on');
    assert.equal(upstream.entries.length, head, 'the upstream kept its copy; nothing of the rolled-back journal replaced it');
    rolledBack.close();
  });
});
