// A review of 7 December: an upstream acknowledgement (a 200, or a 409 gap) below the one recorded AND
// naming a hash this journal does not hold raised `ack-backwards` ("its copy lost N entries; they are
// sent again") before the refusal. Nothing was sent again: the answer was refused, the acknowledgement
// left where it stood. A wrong hash is an `ack-mismatch`, and only that.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger, SyncClient, syncAnchor } from '../../ledger/index.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const TERMINAL = 'AB1';
const WRONG = 'f'.repeat(64);

/** A journal of 10 notes, acknowledged up to entry 8 by an honest first answer. */
async function acknowledgedTo8(answer: () => Response): Promise<{ ledger: Ledger; client: SyncClient; alarms: { kind: string; message: string }[] }> {
  const ledger = Ledger.open({ file: ':memory:', terminalId: TERMINAL });
  for (let i = 1; i <= 10; i++) ledger.append(billCredit(1 + (i % 7), 10_000, `n${i}`));
  let n = 0;
  const alarms: { kind: string; message: string }[] = [];
  const client = new SyncClient(ledger, {
    url: 'http://127.0.0.1:1',
    credentials: { terminalId: TERMINAL, key: KEY },
    maxBatchEntries: 8,
    fetch: async () => (n++ === 0 ? new Response(JSON.stringify({ ackedSeq: 8, headHash: ledger.entry(8)!.hash }), { status: 200 }) : answer()),
    onAlarm: (a) => alarms.push(a),
  });
  assert.equal(await client.syncOnce(), 'sent');
  assert.equal(syncAnchor(ledger).ackedSeq, 8);
  return { ledger, client, alarms };
}

describe('an acknowledgement that goes back with a hash this journal does not hold', () => {
  it('a 200 at entry 3 with a wrong hash: ack-mismatch only, the acknowledgement stays at 8', async () => {
    const { ledger, client, alarms } = await acknowledgedTo8(() => new Response(JSON.stringify({ ackedSeq: 3, headHash: WRONG }), { status: 200 }));
    assert.equal(await client.syncOnce(), 'failed');
    assert.deepEqual(
      alarms.map((a) => a.kind),
      ['ack-mismatch'],
      alarms.map((a) => `${a.kind}: ${a.message}`).join('\n'),
    );
    assert.equal(syncAnchor(ledger).ackedSeq, 8, 'nothing queued again');
    assert.equal(client.status().lastErrorReason?.reason, 'ackMismatch');
  });

  it('a 409 gap at entry 3 with a wrong hash: ack-mismatch only, the acknowledgement stays at 8', async () => {
    const { ledger, client, alarms } = await acknowledgedTo8(
      () => new Response(JSON.stringify({ error: 'gap', ackedSeq: 3, headHash: WRONG }), { status: 409 }),
    );
    assert.equal(await client.syncOnce(), 'failed');
    assert.deepEqual(
      alarms.map((a) => a.kind),
      ['ack-mismatch'],
      alarms.map((a) => `${a.kind}: ${a.message}`).join('\n'),
    );
    assert.equal(syncAnchor(ledger).ackedSeq, 8, 'nothing queued again');
    assert.equal(client.status().lastErrorReason?.reason, 'ackMismatch');
  });

  it('an honest one that goes back (the right hash) still raises ack-backwards and queues the entries again', async () => {
    let ledgerRef: Ledger | null = null;
    const { ledger, client, alarms } = await acknowledgedTo8(
      () => new Response(JSON.stringify({ ackedSeq: 3, headHash: ledgerRef!.entry(3)!.hash }), { status: 200 }),
    );
    ledgerRef = ledger;
    await client.syncOnce();
    assert.deepEqual(
      alarms.map((a) => a.kind),
      ['ack-backwards'],
    );
    assert.equal(syncAnchor(ledger).ackedSeq, 3);
  });
});
