// A station credit limit changed from the floor end to end (docs/backoffice.md): a supervisor
// proposes a baccarat table's new limit, an administrator approves it over the back office's HTTP
// routes; the table's sync client fetches the order, signed by the upstream, at its heartbeat; the
// table makes it as it arrives, a round in play (the limit bears on credit in, not on a round),
// and the synced journal tells the back office it was made, with the entry's seq. A value the table
// cannot hold is refused by the upstream before anyone approves it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { configChanges, Ledger, SyncClient } from '../../ledger/index.js';
import { ConfigChanges } from '../../host/config/config-changes.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { creditRoom } from '../../host/devices/credit-rule/credit-limit.js';
import { RemoteConfig } from '../../host/floor/remote-config.js';
import { enrolTerminal, migrateUpstream, openPglite, putUser, startUpstream, type Db } from '../../upstream/index.js';
import { postHttp, signInHttp } from './backoffice-http.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';
const silent = pino({ level: 'silent' });

interface Request {
  id: number;
  key: string;
  after: unknown;
  state: string;
  outcome: { seq: number; type: string; reason: string | null } | null;
}

describe("back office: a table's station credit limit changed from the floor, made as it arrives", () => {
  let db: Db;
  let up: Awaited<ReturnType<typeof startUpstream>>;
  let credentials: { terminalId: string; key: string; receiptKey: string };
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    await putUser(db, { name: 'ana', role: 'supervisor', password: PASSWORD, by: 'test' }, FAST);
    await putUser(db, { name: 'rui', role: 'administrator', password: PASSWORD, by: 'test' }, FAST);
    credentials = await enrolTerminal(db, 'BAC1');
    up = await startUpstream({ db, backoffice: {} });
  });
  after(async () => {
    await up.close();
    await db.close();
  });

  async function session(name: string) {
    const signedIn = await signInHttp(up.url, name, PASSWORD);
    const post = async (path: string, body: unknown = {}) => postHttp(up.url, signedIn, path, body);
    const list = async () =>
      (await (await fetch(`${up.url}/backoffice/api/config-requests?terminal=BAC1`, { headers: { cookie: signedIn.cookie } })).json()) as Request[];
    return { post, list, signedIn };
  }

  it('proposed, approved by another, delivered signed, made mid-round, the room measured by it, the page told', async () => {
    const ana = await session('ana');
    const rui = await session('rui');
    const request = (await ana.post('/tables/BAC1/config-requests', { key: 'creditLimit', after: 300_000, authorisation: 'DICJ-2026/CL' })) as Request;
    assert.deepEqual([request.key, request.after, request.state], ['creditLimit', 300_000, 'proposed']);
    await rui.post(`/config-requests/${request.id}/approve`);

    const ledger = Ledger.open({ file: ':memory:', terminalId: 'BAC1' });
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), creditLimit: 1_000_000 });
    // A round in play throughout: the limit does not wait for it.
    const changes = new ConfigChanges({ config, ledger, log: silent, bets: [], betweenRounds: () => false });
    const orders: unknown[] = [];
    const client = new SyncClient(ledger, {
      url: up.url,
      credentials: { ...credentials, upstream: up.url },
      heartbeat: { snapshot: () => ({ tableId: config.tableId, game: 'baccarat' }) },
      configOrders: (answer) => orders.push(answer),
    });
    const remote = new RemoteConfig({ terminalId: 'BAC1', publicKey: client.upstreamKey, ledger, changes, log: silent });
    const sync = async () => {
      while ((await client.syncOnce()) === 'sent');
    };
    try {
      ledger.append({ type: 'bill.credit', payload: { station: 1, device: 'BA-1', denomination: 200_000, currency: 'MOP' }, txId: 'note-1' });
      assert.equal(await client.sendHeartbeat(), true);
      assert.equal(orders.length, 1);
      remote.receive(orders[0]);
      assert.deepEqual(remote.pending(), [], 'made at once, not held for a shoe');
      const made = configChanges(ledger);
      assert.deepEqual(
        made.map((c) => [c.key, c.before, c.after, c.who, c.witness]),
        [['creditLimit', 1_000_000, 300_000, 'ana', 'rui']],
      );
      assert.equal(config.creditLimit, 300_000);
      assert.equal(creditRoom(ledger, 1, config.creditLimit), 100_000);
      await sync();
      const seen = (await ana.list()).find((r) => r.id === request.id);
      assert.deepEqual([seen?.state, seen?.outcome?.type, seen?.outcome?.seq], ['applied', 'config.change', made[0]?.seq]);
      assert.equal(await client.sendHeartbeat(), true);
      assert.deepEqual(orders.at(-1), { orders: [] });
    } finally {
      remote.close();
      await client.stop();
      ledger.close();
    }
  });

  for (const [what, after] of [
    ['negative', -1],
    ['zero', 0],
    ['not whole', 1.5],
    ['a string', '300000'],
    ['above what SAS 0x1A can say', 100_000_000],
  ] as const) {
    it(`a proposal the table could not hold is refused by the upstream: ${what}`, async () => {
      const ana = await session('ana');
      const r = await fetch(`${up.url}/backoffice/api/tables/BAC1/config-requests`, {
        method: 'POST',
        headers: { cookie: ana.signedIn.cookie, 'content-type': 'application/json', 'x-csrf-token': ana.signedIn.csrf },
        body: JSON.stringify({ key: 'creditLimit', after, authorisation: 'DICJ-2026/CL' }),
      });
      assert.equal(r.status, 400);
      // Refused for its value (the field `after`), not because the setting is unknown.
      const said = await r.text();
      assert.match(said, /after/, said);
      assert.doesNotMatch(said, /key/, said);
    });
  }
});
