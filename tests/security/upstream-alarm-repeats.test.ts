// A table that repeats a refused request (a review of what grows over weeks): every refusal the
// upstream alarms on (a foreign stream, a batch it refuses, a ticket request for another table) was
// one new alarm row, never merged nor deleted. A table holding its key and looping on one was bound
// only by the rate limits (600 ingests and 1,200 ticket requests a minute: ~2.6 M rows a day, the
// floor's real alarms buried under them); an honest table stuck on a refused batch retries with a
// backoff capped at a minute (~2,900 rows a day). A repeat within the hour goes into the alarm it
// repeats while nobody has acknowledged it: counted, its time, and the first few repeats' details.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ledger, signRequest } from '../../ledger/index.js';
import { billCredit } from '../../ledger/fixtures.js';
import { migrateUpstream, openPglite, startUpstream, type Db, type RunningUpstream } from '../../upstream/index.js';
import { REPEAT_DETAILS_KEPT } from '../../upstream/alarm.js';

const ADMIN = 'admin-token-for-tests-0123456789';
let db: Db;
let up: RunningUpstream;

before(async () => {
  db = await openPglite();
  await migrateUpstream(db);
  // The ingest limit raised so the test is quick: the defence is not the limit.
  up = await startUpstream({ db, tokens: { admin: ADMIN }, limits: { admin: 1000, ingest: 100_000 } });
});
after(async () => {
  await up.close();
  await db.close();
});

async function enrol(terminalId: string): Promise<Buffer> {
  const r = await fetch(`${up.url}/v1/admin/terminals`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ terminalId }),
  });
  return Buffer.from(String(((await r.json()) as { key: string }).key), 'base64');
}

/** F-A, with its own key, sends F-B's stream `times` times. */
async function foreignStreams(key: Buffer, times: number, from = 0): Promise<void> {
  const l = Ledger.open({ file: ':memory:', terminalId: 'F-B' });
  l.append(billCredit(1, 10_000, 'n1'));
  const e = l.entry(1)!;
  const body = JSON.stringify({ terminalId: 'F-B', prevHash: e.prevHash, entries: [{ seq: e.seq, hash: e.hash, body: e.body }] });
  const t0 = Date.now() + from;
  for (let i = 1; i <= times; i++) {
    const ts = t0 + i;
    const r = await fetch(`${up.url}/v1/ingest`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-etg-terminal': 'F-A',
        'x-etg-timestamp': String(ts),
        'x-etg-signature': signRequest(key, 'POST', '/v1/ingest', 'F-A', ts, body),
      },
      body,
    });
    assert.equal(r.status, 403);
    await r.body?.cancel();
  }
  l.close();
}

type Row = { id: number; detail: { claimed?: string; repeated?: { count: number; lastAt: string; later: unknown[] } } };
const rows = async () => (await db.query<Row>("SELECT id, detail FROM alarms WHERE terminal_id = 'F-A' AND kind = 'foreign-stream' ORDER BY id")).rows;

describe('a refused request repeated by one table', () => {
  it('300 foreign streams: one alarm, counting the 299 repeats, the first few kept', async () => {
    const key = await enrol('F-A');
    await foreignStreams(key, 300);
    const got = await rows();
    assert.equal(got.length, 1, `${got.length} alarm rows`);
    assert.equal(got[0]?.detail.claimed, 'F-B');
    assert.equal(got[0]?.detail.repeated?.count, 299);
    assert.equal(got[0]?.detail.repeated?.later.length, REPEAT_DETAILS_KEPT);
    assert.ok(!Number.isNaN(Date.parse(got[0]?.detail.repeated?.lastAt ?? '')));

    // Acknowledged by a person: the next refusal is a new alarm, which a person sees again.
    await db.query("INSERT INTO alarm_acks (alarm_id, user_name, note) VALUES ($1, 'supervisor', 'seen')", [got[0]!.id]);
    await foreignStreams(key, 3, 10_000);
    const after = await rows();
    assert.equal(after.length, 2);
    assert.equal(after[0]?.detail.repeated?.count, 299, 'the acknowledged alarm stays as it was');
    assert.equal(after[1]?.detail.repeated?.count, 2);
  });
});
