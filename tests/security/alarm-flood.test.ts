// One table's alarms must not hide another's. A review: T1 raised a real `ledger-integrity` alarm,
// then a table whose credentials leaked sent one batch of 4,000 `tilt.raise` entries of that kind;
// the upstream raised an alarm for each, and the back office's list (the newest 200, every table
// together) showed 200 of the liar's and none of T1's, with `?open=1` too. Now a batch's faults of
// one kind past the first 10 are one alarm (their count and every entry's seq in it: the journal
// keeps the entries), and the list holds each table's newest alarms, however many another table has, with the number of
// that table's alarms it leaves to the table's own page.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backofficeKit, signIn, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';
import { FAULT_ALARMS_EACH } from '../../upstream/ingest/kiosk-faults.js';

const TS = '2026-11-26T02:00:00.000Z';
const tilt = (detail: string): LyingEntry => ({ type: 'tilt.raise', ts: TS, payload: { kind: 'ledger-integrity', detail } });

interface Listed {
  id: number;
  terminalId: string | null;
  kind: string;
  detail: Record<string, unknown>;
  more?: number;
}

async function listed(kit: BackofficeKit, cookie: string, url: string): Promise<Listed[]> {
  const r = await kit.app.inject({ method: 'GET', url, headers: { cookie } });
  assert.equal(r.statusCode, 200, r.body.slice(0, 300));
  return r.json() as Listed[];
}

describe("one table's flood of alarms", () => {
  it("a batch of 4,000 faults is 11 alarms, and the list still shows T1's", async () => {
    const kit = await backofficeKit();
    try {
      const honest = await lyingTable(kit.app, kit.db, 'T1');
      assert.equal((await honest.send([tilt('records fail their check')])).statusCode, 200);
      const liar = await lyingTable(kit.app, kit.db, 'T9');
      assert.equal((await liar.send(Array.from({ length: 4_000 }, (_, i) => tilt(`lie ${i}`)))).statusCode, 200);
      const who = await signIn(kit.app, 'viewer');
      for (const url of ['/backoffice/api/alarms', '/backoffice/api/alarms?open=1']) {
        const list = await listed(kit, who.cookie, url);
        const t1 = list.filter((a) => a.terminalId === 'T1');
        assert.equal(t1.length, 1, `${url}: T1's alarm among ${list.length}`);
        assert.equal(t1[0]?.kind, 'kiosk-integrity');
        // Newest first: the rest of the batch as one, then the first 10 each an alarm.
        const t9 = list.filter((a) => a.terminalId === 'T9');
        assert.equal(t9.length, FAULT_ALARMS_EACH + 1, `${url}: the liar's batch is ${FAULT_ALARMS_EACH + 1} alarms, not ${t9.length}`);
        const rest = Array.from({ length: 4_000 - FAULT_ALARMS_EACH }, (_, i) => FAULT_ALARMS_EACH + 1 + i);
        assert.deepEqual(t9[0]?.detail, {
          seq: FAULT_ALARMS_EACH + 1,
          fault: 'ledger-integrity',
          detail: `lie ${FAULT_ALARMS_EACH}`,
          count: rest.length,
          seqs: rest,
        });
        assert.deepEqual(
          t9.slice(1).map((a) => a.detail.seq),
          Array.from({ length: FAULT_ALARMS_EACH }, (_, i) => FAULT_ALARMS_EACH - i),
        );
      }
    } finally {
      await kit.close();
    }
  });

  it("batch after batch: the list holds each table's newest, and says how many more the table's page has", async () => {
    const kit = await backofficeKit();
    try {
      const honest = await lyingTable(kit.app, kit.db, 'T1');
      assert.equal((await honest.send([tilt('records fail their check')])).statusCode, 200);
      const liar = await lyingTable(kit.app, kit.db, 'T9');
      // 300 refused batches are one alarm (the repeats counted in it: upstream-alarm-repeats.test.ts);
      // its faults, batch after batch, are alarms each: 28 batches of 12, 11 alarms each.
      for (let i = 0; i < 300; i++) assert.equal((await liar.send([{ type: 'x', ts: 'not a time' }])).statusCode, 422);
      for (let b = 0; b < 28; b++)
        assert.equal((await liar.send(Array.from({ length: FAULT_ALARMS_EACH + 2 }, (_, i) => tilt(`lie ${b}.${i}`)))).statusCode, 200);
      const total = 1 + 28 * (FAULT_ALARMS_EACH + 1);
      const who = await signIn(kit.app, 'viewer');
      const list = await listed(kit, who.cookie, '/backoffice/api/alarms');
      assert.equal(list.filter((a) => a.terminalId === 'T1').length, 1, 'T1 is listed');
      const t9 = list.filter((a) => a.terminalId === 'T9');
      assert.ok(t9.length > 0 && t9.length < total, `T9's listed: ${t9.length}`);
      const ids = list.map((a) => a.id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
        'newest first',
      );
      // The oldest of T9's listed says how many of T9's are left to its page, and its page has them.
      assert.equal(t9.at(-1)?.more, total - t9.length);
      assert.equal(t9.slice(0, -1).filter((a) => a.more !== undefined).length, 0);
      const own = await listed(kit, who.cookie, '/backoffice/api/alarms?terminal=T9');
      assert.ok(own.length >= t9.length);
    } finally {
      await kit.close();
    }
  });

  // A review of 6 December: each table was cut to its newest 20, but the list to the newest 200 of
  // those: eleven busy tables (220) pushed a quiet table's one older alarm off the page entirely.
  it('eleven busy tables: a quiet table with one older alarm is still listed, and every count of more is right', async () => {
    const kit = await backofficeKit();
    try {
      const raise = (terminal: string, n: number) =>
        kit.db.query(`INSERT INTO alarms (terminal_id, kind, detail) SELECT $1, 'kiosk-integrity', '{}'::jsonb FROM generate_series(1, $2::int)`, [
          terminal,
          n,
        ]);
      await raise('Q1', 1);
      const busy = Array.from({ length: 11 }, (_, i) => `B${i + 1}`);
      for (const b of busy) await raise(b, 25);
      const who = await signIn(kit.app, 'viewer');
      for (const url of ['/backoffice/api/alarms', '/backoffice/api/alarms?open=1']) {
        const list = await listed(kit, who.cookie, url);
        assert.equal(list.filter((a) => a.terminalId === 'Q1').length, 1, `${url}: the quiet table's alarm among ${list.length}`);
        assert.ok(list.length <= 200 + 12, `${url}: bounded (${list.length})`);
        const ids = list.map((a) => a.id);
        assert.deepEqual(
          ids,
          [...ids].sort((a, b) => b - a),
          'newest first',
        );
        for (const b of busy) {
          const mine = list.filter((a) => a.terminalId === b);
          assert.ok(mine.length > 0 && mine.length <= 20, `${b}: ${mine.length} listed`);
          assert.equal(mine.at(-1)?.more, 25 - mine.length, `${b}: the oldest listed says how many more`);
          assert.equal(mine.slice(0, -1).filter((a) => a.more !== undefined).length, 0);
        }
      }
    } finally {
      await kit.close();
    }
  });
});
