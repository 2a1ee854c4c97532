// The floor's figures (the gaming day's totals, the ticket liability) add every table's figure in
// JavaScript numbers. Each table's is held to 2^41 minor units (upstream/figure-bound.ts), "and
// 4,096 tables of it still total under 2^53" said the code: 4,096 of it total 2^53 itself, which is
// not a safe integer, and the routes' and pages' schemas refuse it; nor did anything hold the floor
// to any number of tables (a review of 8 December): the 4,097th was enrolled like any other. Now
// the upstream enrols at most MAX_TABLES (4,095: 2^53 − 2^41 at the bound) and refuses the next,
// revoked ones counted (their journal and tickets stay in the floor's figures), by the admin route
// and `etg upstream enroll` alike.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { COUNTS, MONEY, totalsByCurrency, type ReportLine } from '../../backoffice/src/report-model.js';
import { floorOutstanding, MAX_TABLES, TABLE_FIGURE_BOUND } from '../../upstream/figure-bound.js';
import { EnrolError, enrolTerminal, openUpstreamDb, startUpstream, type RunningUpstream } from '../../upstream/index.js';

const ADMIN = 'a'.repeat(32);
const asAdmin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
const BOUND = BigInt(TABLE_FIGURE_BOUND);
/** The sum a double made is the exact one, and one the schemas take. */
const exact = (n: number, each: bigint, count: number) => Number.isSafeInteger(n) && BigInt(n) === each * BigInt(count);
const LIMIT = MAX_TABLES.toLocaleString('en');
const NEXT = `T${MAX_TABLES + 1}`;

const ZERO: ReportLine = {
  terminalId: '',
  scope: 'table',
  currency: { code: 'MOP', exponent: 2 },
  notes: {},
  ...Object.fromEntries([...MONEY, ...COUNTS].map((k) => [k, 0])),
} as ReportLine;

/** `count` tables each with `amount` out on tickets, as the register sums them (exact text). */
const outstanding = (count: number, amount: bigint) =>
  Array.from({ length: count }, (_, i) => ({ terminal_id: `T${i}`, currency: 'MOP', tickets: 1, amount: String(amount) }));

/** A ticket of `amount` out from each of `terminals`, straight into the register. */
const TICKETS_SQL = `INSERT INTO tickets (validation, terminal_id, station, machine_id, sequence, amount, currency, issued_at, expires_at, state)
  SELECT lpad(row_number() OVER (ORDER BY t)::text, 18, '0'), t, 1, row_number() OVER (ORDER BY t), 1, $2, 'MOP', now(), now() + interval '1 day', 'issued'
  FROM unnest($1::text[]) t`;

describe('the floor is at most MAX_TABLES tables, so its totals stay exact', () => {
  let up: RunningUpstream;
  before(async () => {
    const db = await openUpstreamDb({});
    // All but one table already enrolled (straight into the table: enrolling them one by one proves nothing more), one revoked.
    await db.query(`INSERT INTO terminals (terminal_id, key) SELECT 'S' || lpad(i::text, 4, '0'), '\\x00' FROM generate_series(1, ${MAX_TABLES - 1}) i`);
    await db.query("UPDATE terminals SET revoked_at = now() WHERE terminal_id = 'S0001'");
    up = await startUpstream({ db, tokens: { admin: ADMIN } });
  });
  after(async () => {
    await up.close();
    await up.db.close();
  });

  it('why: one table more at the bound and the liability is past the safe integers; one avo more and it is rounded', () => {
    const past = floorOutstanding(outstanding(MAX_TABLES + 1, BOUND)).currencies[0]?.amount ?? 0;
    assert.equal(Number.isSafeInteger(past), false, `${past}`);
    const rounded = floorOutstanding([...outstanding(MAX_TABLES + 1, BOUND), { terminal_id: 'X', currency: 'MOP', tickets: 1, amount: '1' }]);
    assert.notEqual(BigInt(rounded.currencies[0]?.amount ?? 0), BOUND * BigInt(MAX_TABLES + 1) + 1n);
  });

  it("the report's floor totals of MAX_TABLES tables at the bound, either way, are exact safe integers", () => {
    for (const each of [BOUND, -BOUND, BOUND - 1n]) {
      const line = (i: number): ReportLine => ({
        ...ZERO,
        ...Object.fromEntries(['drop', 'wagered', 'win', 'rounds'].map((k) => [k, Number(each)])),
        terminalId: `T${i}`,
        notes: { '100': Number(each) },
      });
      const [total] = totalsByCurrency(Array.from({ length: MAX_TABLES }, (_, i) => line(i)));
      for (const k of ['drop', 'wagered', 'win', 'rounds'] as const) assert.ok(exact(total?.[k] ?? 0, each, MAX_TABLES), `${k} of ${each}: ${total?.[k]}`);
      assert.ok(exact(total?.notes['100'] ?? 0, each, MAX_TABLES));
    }
  });

  it('the last table is enrolled, the next refused (409, saying why), by the route and by enrolTerminal; the liability of them all at the bound is answered, exact', async () => {
    const enrol = (terminalId: string) => fetch(`${up.url}/v1/admin/terminals`, { method: 'POST', headers: asAdmin, body: JSON.stringify({ terminalId }) });
    const last = await enrol(`T${MAX_TABLES}`);
    assert.equal(last.status, 200, await last.text());
    const past = await enrol(NEXT);
    assert.equal(past.status, 409);
    const body = (await past.json()) as { error: string; message: string };
    assert.equal(body.error, 'enrol');
    assert.ok(body.message.startsWith(`${LIMIT} tables are enrolled`), body.message);
    await assert.rejects(enrolTerminal(up.db, `T${MAX_TABLES + 2}`), (e) => e instanceof EnrolError && e.message.startsWith(`${LIMIT} tables`));
    const all = await up.db.query<{ terminal_id: string }>('SELECT terminal_id FROM terminals');
    assert.equal(all.rows.length, MAX_TABLES, 'nothing past the limit was written');
    await up.db.query(TICKETS_SQL, [all.rows.map((r) => r.terminal_id), String(BOUND)]);
    const liability = await fetch(`${up.url}/v1/tickets/liability`, { headers: asAdmin });
    assert.equal(liability.status, 200, await liability.clone().text());
    const l = (await liability.json()) as { currencies: { currency: string; tickets: number; amount: number }[]; outOfRange: string[] };
    assert.deepEqual(l.outOfRange, []);
    assert.equal(l.currencies.length, 1);
    assert.ok(exact(l.currencies[0]?.amount ?? 0, BOUND, MAX_TABLES), `${l.currencies[0]?.amount}`);
  });

  it('a new key for an enrolled table, a revoked one too, is still issued at the limit', async () => {
    const rotate = await fetch(`${up.url}/v1/admin/terminals/S0001/rotate-key`, { method: 'POST', headers: asAdmin, body: '{}' });
    assert.equal(rotate.status, 200, await rotate.text());
    assert.equal((await enrolTerminal(up.db, `T${MAX_TABLES}`, true)).terminalId, `T${MAX_TABLES}`);
  });
});
