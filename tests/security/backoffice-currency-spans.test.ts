// A table whose key leaked sends heartbeats that change its currency back and forth, each naming
// a journal head of its choosing (a review of the upstream, F5). Each change added a span of the
// table's currency by seq, and every report, plot and transfer query compares every journal row
// of the day with every span of its table: 1,999 spans took the report from 52 ms to 667 ms at
// 4,000 entries, 2,865 ms at 16,000. The head was taken as said, past anything the upstream holds
// (a span from seq 10^15). Now the head is held to the upstream's head and the lag the heartbeat
// reports, and a change of currency is taken only once a person has acknowledged the last one's
// `currency-changed` alarm: until then the currency held stands, and the journal is read against it.
// The cases share one back office (an upstream each cost a second of set-up), each its own table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kitOfSuite, post, type BackofficeKit } from './backoffice-kit.js';
import { TableConfig } from '../../host/config/table-config.js';
import { MAX_LAG_ENTRIES } from '../../upstream/table-currency.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';

const TS = '2026-11-25T02:00:00.000Z';
const MOP = { code: 'MOP', exponent: 2 };
const HKD = { code: 'HKD', exponent: 2 };
const note = (currency: string): LyingEntry => ({
  type: 'bill.credit',
  ts: TS,
  payload: { station: 1, amount: 100, currency },
  meters: [['table', 'totalBillsIn', 100]],
});

async function spans(kit: BackofficeKit, terminal: string): Promise<[number, string][]> {
  const r = await kit.db.query<{ from_seq: string; code: string }>(
    `SELECT s.from_seq::text AS from_seq, s.code FROM currency_spans s WHERE s.terminal_id = $1 ORDER BY s.from_seq`,
    [terminal],
  );
  return r.rows.map((x) => [Number(x.from_seq), x.code]);
}

async function changes(kit: BackofficeKit, terminal: string): Promise<number[]> {
  const r = await kit.db.query<{ id: number }>(`SELECT id FROM alarms WHERE terminal_id = $1 AND kind = 'currency-changed' ORDER BY id`, [terminal]);
  return r.rows.map((x) => Number(x.id));
}

describe('heartbeats that change a table’s currency without end', () => {
  const suite = kitOfSuite('supervisor');
  it('a head past what the upstream holds and the table’s lag: the change starts after them', async () => {
    const { kit } = suite;
    const terminal = 'T9-head';
    const liar = await lyingTable(kit.app, kit.db, terminal);
    assert.equal((await liar.send(Array.from({ length: 10 }, () => note('MOP')))).statusCode, 200);
    assert.equal((await liar.heartbeat({ currency: MOP, sync: { lagEntries: 0 }, ledger: { head: 10 } })).statusCode, 200);
    assert.equal((await liar.heartbeat({ currency: HKD, sync: { lagEntries: 3 }, ledger: { head: 10 ** 15 } })).statusCode, 200);
    assert.deepEqual(await spans(kit, terminal), [
      [1, 'MOP'],
      [14, 'HKD'],
    ]);
  });

  // A lag is the table's word too (the schema takes any safe integer): 2^53 − 1 with no head put the
  // change past every seq a table will reach, and the check of the journal with it (an upstream review).
  it('a lag past any table’s and no head: the change starts at most MAX_LAG_ENTRIES past the upstream’s head', async () => {
    const { kit } = suite;
    const terminal = 'T9-lag';
    const liar = await lyingTable(kit.app, kit.db, terminal);
    assert.equal((await liar.send(Array.from({ length: 10 }, () => note('MOP')))).statusCode, 200);
    assert.equal((await liar.heartbeat({ currency: MOP, sync: { lagEntries: 0 }, ledger: { head: 10 } })).statusCode, 200);
    for (const lagEntries of [-1, 1.5, 2 ** 53])
      assert.equal((await liar.heartbeat({ currency: HKD, sync: { lagEntries } })).statusCode, 400, String(lagEntries));
    assert.equal((await liar.heartbeat({ currency: HKD, sync: { lagEntries: Number.MAX_SAFE_INTEGER } })).statusCode, 200);
    const at = await spans(kit, terminal);
    console.log('spans after a lag of 2^53 − 1:', JSON.stringify(at));
    assert.deepEqual(at, [
      [1, 'MOP'],
      [10 + MAX_LAG_ENTRIES + 1, 'HKD'],
    ]);
    const checked = await kit.db.query<{ c: string }>(`SELECT currency_checked_seq::text AS c FROM terminals WHERE terminal_id = $1`, [terminal]);
    assert.equal(Number(checked.rows[0]?.c), 10 + MAX_LAG_ENTRIES);
  });

  it('MAX_LAG_ENTRIES is twice the most a table may be configured to hold unsent', () => {
    const limit = TableConfig.shape.offlineLimit.unwrap();
    assert.equal(limit.safeParse({ maxUnsyncedEntries: MAX_LAG_ENTRIES / 2, maxUnsyncedSeconds: 60 }).success, true);
    assert.equal(limit.safeParse({ maxUnsyncedEntries: MAX_LAG_ENTRIES / 2 + 1, maxUnsyncedSeconds: 60 }).success, false);
  });

  it('100 changes back and forth: one taken until its alarm is acknowledged, then the next', async () => {
    const { kit, who } = suite;
    const terminal = 'T9-flips';
    const liar = await lyingTable(kit.app, kit.db, terminal);
    assert.equal((await liar.send([note('MOP')])).statusCode, 200);
    assert.equal((await liar.heartbeat({ currency: MOP, ledger: { head: 1 } })).statusCode, 200);
    for (let i = 0; i < 100; i++) {
      // Reconfigured after entry 1 + i, then an entry in the new currency.
      const r = await liar.heartbeat({ currency: i % 2 ? MOP : HKD, ledger: { head: 1 + i } });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal((await liar.send([note(i % 2 ? 'MOP' : 'HKD')])).statusCode, 200);
    }
    assert.deepEqual(await spans(kit, terminal), [
      [1, 'MOP'],
      [2, 'HKD'],
    ]);
    const [first, ...more] = await changes(kit, terminal);
    assert.deepEqual(more, []);
    // The MOP notes journalled after the change to HKD was taken do not fit it: one alarm says so.
    const mismatch = await kit.db.query(`SELECT 1 FROM alarms WHERE terminal_id = $1 AND kind = 'currency-mismatch'`, [terminal]);
    assert.equal(mismatch.rows.length, 1);
    const ack = await post(kit.app, who, `/backoffice/api/alarms/${first}/acknowledge`, { note: 'reconfigured' });
    assert.equal(ack.statusCode, 200, ack.body);
    assert.equal((await liar.heartbeat({ currency: MOP, ledger: { head: 101 } })).statusCode, 200);
    // From where the table last said MOP (its heartbeat at head 100): entry 101 is its first MOP.
    assert.deepEqual(await spans(kit, terminal), [
      [1, 'MOP'],
      [2, 'HKD'],
      [101, 'MOP'],
    ]);
    assert.equal((await changes(kit, terminal)).length, 2);
  });

  // A review of the change: while a change waited, each heartbeat moved the check on to the head, and
  // the change once acknowledged began at the head then. An honest table set to HKD by mistake and put
  // back to MOP had every MOP entry until the acknowledgement read as HKD, in every report, for good.
  it('an honest table put back to its currency before the first change is acknowledged: its entries in it from where it said so', async () => {
    const { kit, who } = suite;
    const terminal = 'T9-back';
    const table = await lyingTable(kit.app, kit.db, terminal);
    assert.equal((await table.send([note('MOP')])).statusCode, 200);
    assert.equal((await table.heartbeat({ currency: MOP, ledger: { head: 1 } })).statusCode, 200);
    assert.equal((await table.heartbeat({ currency: HKD, ledger: { head: 1 } })).statusCode, 200);
    assert.equal((await table.send([note('HKD')])).statusCode, 200);
    assert.equal((await table.heartbeat({ currency: MOP, ledger: { head: 2 } })).statusCode, 200);
    for (let i = 0; i < 5; i++) {
      assert.equal((await table.send([note('MOP')])).statusCode, 200);
      assert.equal((await table.heartbeat({ currency: MOP, ledger: { head: 3 + i } })).statusCode, 200);
    }
    const [first] = await changes(kit, terminal);
    assert.equal((await post(kit.app, who, `/backoffice/api/alarms/${first}/acknowledge`, { note: 'set back' })).statusCode, 200);
    assert.equal((await table.heartbeat({ currency: MOP, ledger: { head: 7 } })).statusCode, 200);
    assert.deepEqual(await spans(kit, terminal), [
      [1, 'MOP'],
      [2, 'HKD'],
      [3, 'MOP'],
    ]);
    // Every entry fits the span it is in: nothing was read against the wrong currency.
    const mismatch = await kit.db.query(`SELECT 1 FROM alarms WHERE terminal_id = $1 AND kind = 'currency-mismatch'`, [terminal]);
    assert.equal(mismatch.rows.length, 0);
  });
});
