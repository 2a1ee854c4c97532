// A review of 6 December: an order for new limits carries amounts in minor units, and named no
// currency. A table's currency changes with its configuration file (the upstream takes it from the
// next heartbeat: upstream/table-currency.ts), so a change proposed in MOP and made after the table
// became an HKD table was applied in HKD's units. Now a request of a setting with amounts keeps the
// currency the upstream held for the table when it was proposed, and its order names it (v2), which
// the table checks against its own (host/floor/remote-config-currency.test.ts); a request without
// one (the table never named its currency, or a setting with no amounts) is sent as before (v1).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ordersFor } from '../../upstream/backoffice/index.js';
import { backofficeKit, post, signIn, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';
import { ConfigRequest } from '../../backoffice/src/api.js';
import { requestSummary } from '../../backoffice/src/config-section.js';
import { words } from '../../backoffice/src/i18n.js';
import { z } from 'zod';

const LIMITS = { key: 'limits', after: { min: 20_000, max: 1_000_000 }, authorisation: 'DICJ-2026/49', note: '' };

describe("a configuration order names the currency of its request's amounts", () => {
  let kit: BackofficeKit;
  before(async () => {
    kit = await backofficeKit();
  });
  after(() => kit?.close());

  const propose = async (terminal: string, body: unknown) => {
    const r = await post(kit.app, await signIn(kit.app, 'supervisor'), `/backoffice/api/tables/${terminal}/config-requests`, body);
    assert.equal(r.statusCode, 200, r.body);
    const id = (r.json() as { id: number }).id;
    assert.equal((await post(kit.app, await signIn(kit.app, 'administrator'), `/backoffice/api/config-requests/${id}/approve`)).statusCode, 200);
    return id;
  };
  const held = (terminal: string, code: string | null, exponent: number | null) =>
    kit.db.query('UPDATE terminals SET currency = $2, currency_exponent = $3 WHERE terminal_id = $1', [terminal, code, exponent]);
  const orders = async (terminal: string) => (await ordersFor(kit.db, terminal)).map((t) => JSON.parse(t) as Record<string, unknown>);

  it('proposed while the table was MOP, delivered after it became HKD: the order says MOP', async () => {
    await lyingTable(kit.app, kit.db, 'T1');
    await held('T1', 'MOP', 2);
    const limits = await propose('T1', LIMITS);
    const credit = await propose('T1', { key: 'creditLimit', after: 5_000, authorisation: 'DICJ-2026/50', note: '' });
    const profile = await propose('T1', { key: 'profile', after: 'macau-2004', authorisation: 'DICJ-2026/51', note: '' });
    await held('T1', 'HKD', 2);
    const sent = await orders('T1');
    assert.deepEqual(
      sent.map((o) => [o.id, o.v, o.currency]),
      [
        [limits, 2, { code: 'MOP', exponent: 2 }],
        [credit, 2, { code: 'MOP', exponent: 2 }],
        // A profile holds no amount: its order is as before.
        [profile, 1, undefined],
      ],
    );
  });

  it('the page shows a request proposed in MOP in MOP, after the table became HKD', async () => {
    await lyingTable(kit.app, kit.db, 'T3');
    await held('T3', 'MOP', 2);
    const limits = await propose('T3', LIMITS);
    const profile = await propose('T3', { key: 'profile', after: 'macau-2004', authorisation: 'DICJ-2026/52', note: '' });
    await held('T3', 'HKD', 2);
    const r = await kit.app.inject({
      method: 'GET',
      url: '/backoffice/api/config-requests',
      headers: { cookie: (await signIn(kit.app, 'supervisor')).cookie },
    });
    assert.equal(r.statusCode, 200, r.body);
    // As the page reads the list: its own schema.
    const list = z
      .array(ConfigRequest)
      .parse(r.json())
      .filter((x) => x.terminalId === 'T3');
    const of = (id: number) => list.find((x) => x.id === id);
    assert.deepEqual(of(limits)?.currency, { code: 'MOP', exponent: 2 });
    assert.equal(of(profile)?.currency, null, 'a profile holds no amount');
    const request = of(limits);
    assert.ok(request);
    const shown = requestSummary(words('en'), request, { code: 'HKD', exponent: 2 });
    assert.match(shown, /MOP/, shown);
    assert.doesNotMatch(shown, /HK\$|HKD/, shown);
  });

  it('a table that never named its currency: the order names none, as before (v1)', async () => {
    await lyingTable(kit.app, kit.db, 'T2');
    await held('T2', null, null);
    const id = await propose('T2', LIMITS);
    assert.deepEqual(
      (await orders('T2')).map((o) => [o.id, o.v, 'currency' in o]),
      [[id, 1, false]],
    );
  });
});
