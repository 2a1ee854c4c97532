// Each table's currency at the back office (issue 49): a table sends its ISO 4217 code and
// minor-unit exponent with its heartbeat (the host's own `tableCurrency`, from its configuration);
// the upstream keeps it per table (migration 8) and every amount is labelled by it: the floor's
// row, the table's page, the gaming day's lines, whose totals are one per currency (MOP is never
// added to HKD). A table that changes currency, or whose journal moves money in another currency
// than the one held for it, raises an alarm; a malformed currency, or an exponent that is not ISO
// 4217's for a code the upstream's runtime knows, is refused with nothing changed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reportCsv } from '../../backoffice/src/csv.js';
import { GamingDayReport, totalsByCurrency } from '../../backoffice/src/report-model.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { tableCurrency } from '../../host/start/health.js';
import { Ledger, SyncClient, type Credentials } from '../../ledger/index.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { createI18n } from '../../locales/i18n.js';
import { enrolTerminal, migrateUpstream, openPglite, putUser, startUpstream, UPSTREAM_LATEST, type Db } from '../../upstream/index.js';
import { signInHttp } from './backoffice-http.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';

interface Money {
  code: string;
  exponent: number;
}
interface Alarm {
  id: number;
  kind: string;
  terminalId: string;
  detail: Record<string, unknown>;
}

describe('migration 8: each table its currency', () => {
  it('adds the held currency, its exponent and when it was taken to every terminal, on a database at 7', async () => {
    const db = await openPglite();
    try {
      assert.deepEqual(await migrateUpstream(db, 7), [1, 2, 3, 4, 5, 6, 7]);
      await db.query("INSERT INTO terminals (terminal_id, key) VALUES ('OLD', '\\x00')");
      assert.deepEqual(await migrateUpstream(db, 8), [8]);
      assert.ok(UPSTREAM_LATEST >= 8);
      const r = await db.query<{ currency: string | null; currency_exponent: number | null }>(
        "SELECT currency, currency_exponent FROM terminals WHERE terminal_id = 'OLD'",
      );
      assert.deepEqual(r.rows[0], { currency: null, currency_exponent: null }, 'a table not heard from since holds no currency');
      await assert.rejects(db.query("UPDATE terminals SET currency = 'mop' WHERE terminal_id = 'OLD'"), /check/i);
      await assert.rejects(db.query("UPDATE terminals SET currency = 'MOP', currency_exponent = 12 WHERE terminal_id = 'OLD'"), /check/i);
    } finally {
      await db.close();
    }
  });
});

describe("the host's heartbeat names its currency", () => {
  it('is the configuration’s ISO 4217 code with its minor-unit exponent', () => {
    assert.deepEqual(tableCurrency(simulatedTableConfig('blackjack')), { code: 'MOP', exponent: 2 });
    assert.deepEqual(tableCurrency({ ...simulatedTableConfig('baccarat'), currency: 'HKD' }), { code: 'HKD', exponent: 2 });
  });
});

describe('back office: every amount by its table’s currency', () => {
  let db: Db;
  let up: Awaited<ReturnType<typeof startUpstream>>;
  let cookie = '';
  const tables = new Map<string, { ledger: Ledger; client: SyncClient; said: { currency: unknown } }>();
  const get = async <T>(path: string): Promise<T> => {
    const r = await fetch(`${up.url}/backoffice/api${path}`, { headers: { cookie } });
    assert.equal(r.status, 200, path);
    return (await r.json()) as T;
  };
  const alarms = (kind: string) => get<Alarm[]>('/alarms').then((l) => l.filter((a) => a.kind === kind));
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    await putUser(db, { name: 'cash', role: 'accounting', password: PASSWORD, by: 'test' }, FAST);
    up = await startUpstream({ db, backoffice: {} });
    const config = simulatedTableConfig('blackjack');
    for (const [id, currency] of [
      ['T1', tableCurrency(config)],
      ['T2', tableCurrency({ ...config, currency: 'HKD' })],
    ] as const) {
      const cred: Credentials = { ...(await enrolTerminal(db, id, false)), upstream: up.url };
      const ledger = Ledger.open({ file: ':memory:', terminalId: id });
      const said: { currency: unknown } = { currency };
      const client = new SyncClient(ledger, {
        url: up.url,
        credentials: cred,
        heartbeat: { snapshot: () => ({ tableId: id, game: 'blackjack', currency: said.currency, table: { phase: 'betting', faults: [] } }) },
      });
      const t = { ledger, client, said };
      tables.set(id, t);
      const code = currency.code;
      for (const s of [1, 2]) ledger.append(billCredit(s, 50_000, `${id}-b${s}`, code));
      const { bets, settle } = settledRound(`${id}-r1`, [1, 2], id === 'T1' ? 1_000 : 3_000);
      ledger.appendMany([...bets, settle]);
      while ((await t.client.syncOnce()) === 'sent');
      assert.equal(await t.client.sendHeartbeat(), true);
    }
    ({ cookie } = await signInHttp(up.url, 'cash', PASSWORD));
  });
  after(async () => {
    for (const t of tables.values()) t.ledger.close();
    await up.close();
    await db.close();
  });

  it('holds each table’s currency and shows it on the floor and the table’s page', async () => {
    const rows = await get<{ terminalId: string; currency: Money | null }[]>('/floor');
    assert.deepEqual(
      rows.map((r) => [r.terminalId, r.currency]),
      [
        ['T1', { code: 'MOP', exponent: 2 }],
        ['T2', { code: 'HKD', exponent: 2 }],
      ],
    );
    assert.deepEqual((await get<{ currency: Money | null }>('/tables/T2')).currency, { code: 'HKD', exponent: 2 });
    assert.deepEqual(await alarms('currency-changed'), [], 'a first currency is no change');
    assert.deepEqual(await alarms('currency-mismatch'), []);
  });

  it('labels every line of the gaming day by its table’s currency and totals each currency apart', async () => {
    const report = GamingDayReport.parse(await get('/reports/gaming-day'));
    const byTable = new Map(report.lines.filter((l) => l.scope === 'table').map((l) => [l.terminalId, l]));
    assert.deepEqual(byTable.get('T1')?.currency, { code: 'MOP', exponent: 2 });
    assert.deepEqual(byTable.get('T2')?.currency, { code: 'HKD', exponent: 2 });
    for (const l of report.lines.filter((x) => x.scope.startsWith('station:')))
      assert.deepEqual(l.currency, byTable.get(l.terminalId)?.currency, `${l.terminalId} ${l.scope}`);
    const totals = totalsByCurrency(report.lines);
    assert.deepEqual(
      totals.map((t) => [t.currency?.code, t.drop, t.wagered]),
      [
        ['HKD', tables.get('T2')?.ledger.meters('table').totalBillsIn, tables.get('T2')?.ledger.meters('table').creditsWagered],
        ['MOP', tables.get('T1')?.ledger.meters('table').totalBillsIn, tables.get('T1')?.ledger.meters('table').creditsWagered],
      ],
    );
    const csv = reportCsv(createI18n('en'), report)
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n')
      .map((l) => l.split(','));
    const total = createI18n('en').t('backoffice.report.total');
    const rowsOf = (table: string) => csv.filter((c) => c[0] === table && c[1] === '');
    assert.equal(rowsOf('T1')[0]?.[2], 'MOP');
    assert.equal(rowsOf('T2')[0]?.[2], 'HKD');
    assert.deepEqual(
      rowsOf(total).map((c) => [c[2], c[3]]),
      [
        ['HKD', '1000.00'],
        ['MOP', '1000.00'],
      ],
      'one total per currency, each its own tables’ drop',
    );
  });

  it('raises an alarm when a table changes currency, and labels it by the new one', async () => {
    const t1 = tables.get('T1');
    assert.ok(t1);
    t1.said.currency = { code: 'HKD', exponent: 2 };
    assert.equal(await t1.client.sendHeartbeat(), true);
    const changed = await alarms('currency-changed');
    assert.equal(changed.length, 1);
    assert.equal(changed[0]?.terminalId, 'T1');
    assert.deepEqual(changed[0]?.detail, { before: { code: 'MOP', exponent: 2 }, after: { code: 'HKD', exponent: 2 } });
    assert.deepEqual((await get<{ currency: Money }>('/tables/T1')).currency, { code: 'HKD', exponent: 2 });
    assert.equal(await t1.client.sendHeartbeat(), true);
    assert.equal((await alarms('currency-changed')).length, 1, 'the same currency again is no new change');
    assert.deepEqual(await alarms('currency-mismatch'), [], 'the notes journalled before the change were in the currency then held');
  });

  it('raises an alarm when a table’s journal moves money in another currency than the one held', async () => {
    const t2 = tables.get('T2');
    assert.ok(t2);
    t2.ledger.append(billCredit(3, 10_000, 'T2-foreign', 'MOP'));
    while ((await t2.client.syncOnce()) === 'sent');
    assert.equal(await t2.client.sendHeartbeat(), true);
    const mismatch = await alarms('currency-mismatch');
    assert.equal(mismatch.length, 1);
    assert.equal(mismatch[0]?.terminalId, 'T2');
    assert.equal(mismatch[0]?.detail.held, 'HKD');
    assert.equal(mismatch[0]?.detail.journal, 'MOP');
    assert.equal(mismatch[0]?.detail.type, 'bill.credit');
    assert.equal(await t2.client.sendHeartbeat(), true);
    assert.equal((await alarms('currency-mismatch')).length, 1, 'one alarm, not one per heartbeat');
  });

  it('refuses a heartbeat with a malformed currency and keeps the one held', async () => {
    const t2 = tables.get('T2');
    assert.ok(t2);
    for (const bad of [{ code: 'hkd', exponent: 2 }, { code: 'HKD', exponent: 12 }, 'HKD']) {
      t2.said.currency = bad;
      assert.equal(await t2.client.sendHeartbeat(), false, JSON.stringify(bad));
    }
    assert.deepEqual((await get<{ currency: Money }>('/tables/T2')).currency, { code: 'HKD', exponent: 2 });
    assert.equal((await alarms('currency-changed')).length, 1);
  });

  it('refuses a heartbeat whose exponent is not ISO 4217’s for a code it knows, and keeps the one held', async () => {
    const t2 = tables.get('T2');
    assert.ok(t2);
    // Before, any exponent 0–4 was taken for any code: HKD in whole dollars, then the floor's
    // "all tables" plot added it to the tables counting cents.
    for (const lie of [
      { code: 'HKD', exponent: 0 },
      { code: 'HKD', exponent: 3 },
      { code: 'MOP', exponent: 4 },
      { code: 'JPY', exponent: 2 },
    ]) {
      t2.said.currency = lie;
      assert.equal(await t2.client.sendHeartbeat(), false, JSON.stringify(lie));
      assert.match(t2.client.status().heartbeat?.error ?? '', /400/, JSON.stringify(lie));
      assert.deepEqual((await get<{ currency: Money }>('/tables/T2')).currency, { code: 'HKD', exponent: 2 });
    }
    assert.equal((await alarms('currency-changed')).length, 1, 'nothing taken, so no change');
    t2.said.currency = { code: 'HKD', exponent: 2 };
    assert.equal(await t2.client.sendHeartbeat(), true);
  });
});
