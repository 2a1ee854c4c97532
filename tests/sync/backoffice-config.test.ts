// Configuration from the floor end to end (issue 49 item 6): a supervisor proposes a table's new
// limits and a rule option, an administrator approves both over the back office's HTTP routes;
// the table's sync client fetches them, signed by the upstream, at its heartbeat; the table
// refuses the rule option (its guard names the article) and keeps the limits for its next shoe;
// the synced journal tells the back office both: the refusal with its reason, then the change
// made at the shoe with the entry's seq. On the embedded PGlite and on a PostgreSQL cluster of its
// own, with the same assertions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { configChanges, Ledger, SyncClient } from '../../ledger/index.js';
import { ConfigChanges } from '../../host/config/config-changes.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { RemoteConfig } from '../../host/floor/remote-config.js';
import { enrolTerminal, putUser, startUpstream, type Db } from '../../upstream/index.js';
import { postHttp, signInHttp } from './backoffice-http.js';
import { DATABASES, openDatabase, type OpenDatabase } from './upstream-databases.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';

interface Request {
  id: number;
  state: string;
  approvedBy: string | null;
  outcome: { seq: number; type: string; reason: string | null } | null;
}

for (const kind of DATABASES) {
  describe(`back office: a configuration change from the floor reaches the table at its next shoe (${kind})`, () => {
    let opened: OpenDatabase;
    let db: Db;
    let up: Awaited<ReturnType<typeof startUpstream>>;
    let credentials: { terminalId: string; key: string; receiptKey: string };
    before(async () => {
      opened = await openDatabase(kind);
      db = opened.db;
      await putUser(db, { name: 'ana', role: 'supervisor', password: PASSWORD, by: 'test' }, FAST);
      await putUser(db, { name: 'rui', role: 'administrator', password: PASSWORD, by: 'test' }, FAST);
      credentials = await enrolTerminal(db, 'T1');
      up = await startUpstream({ db, backoffice: {} });
    });
    after(async () => {
      await up?.close();
      await opened?.close();
    });

    async function session(name: string) {
      const signedIn = await signInHttp(up.url, name, PASSWORD);
      const { cookie } = signedIn;
      const post = async (path: string, body: unknown = {}) => (await postHttp(up.url, signedIn, path, body)) as Request;
      const list = async () => (await (await fetch(`${up.url}/backoffice/api/config-requests?terminal=T1`, { headers: { cookie } })).json()) as Request[];
      /** T1's row on the floor: how many approved changes its journal has not answered yet. */
      const waiting = async () => {
        const rows = (await (await fetch(`${up.url}/backoffice/api/floor`, { headers: { cookie } })).json()) as { terminalId: string; configWaiting: number }[];
        return rows.find((r) => r.terminalId === 'T1')?.configWaiting;
      };
      return { post, list, waiting };
    }

    it('proposed, approved by another, delivered signed, refused or made at the shoe change, and the page told', async () => {
      const ana = await session('ana');
      const rui = await session('rui');
      const limits = await ana.post('/tables/T1/config-requests', { key: 'limits', after: { min: 20_000, max: 1_000_000 }, authorisation: 'DICJ-2026/49' });
      const rule = await ana.post('/tables/T1/config-requests', { key: 'profileOptions', after: { evenMoney: 'none' }, authorisation: 'DICJ-2026/50' });
      await rui.post(`/config-requests/${limits.id}/approve`);
      await rui.post(`/config-requests/${rule.id}/approve`);

      const ledger = Ledger.open({ file: ':memory:', terminalId: 'T1' });
      const config = simulatedTableConfig('blackjack');
      const changes = new ConfigChanges({ config, ledger, log: pino({ level: 'silent' }), bets: ['main'], betweenRounds: () => true });
      const orders: unknown[] = [];
      const client = new SyncClient(ledger, {
        url: up.url,
        credentials: { ...credentials, upstream: up.url },
        heartbeat: { snapshot: () => ({ tableId: config.tableId, game: 'blackjack' }) },
        configOrders: (answer) => orders.push(answer),
      });
      const remote = new RemoteConfig({ terminalId: 'T1', publicKey: client.upstreamKey, ledger, changes, log: pino({ level: 'silent' }) });
      try {
        const limitsBefore = { ...config.limits };
        assert.equal(await client.sendHeartbeat(), true);
        assert.equal(orders.length, 1);
        remote.receive(orders[0]);
        assert.deepEqual(
          remote.pending().map((o) => o.id),
          [limits.id],
        );
        while ((await client.syncOnce()) === 'sent');
        let seen = await ana.list();
        const ruleSeen = seen.find((r) => r.id === rule.id);
        assert.equal(ruleSeen?.state, 'refused');
        assert.match(ruleSeen?.outcome?.reason ?? '', /art\.10 n\.3/);
        assert.equal(seen.find((r) => r.id === limits.id)?.state, 'delivered');
        assert.deepEqual(config.limits, limitsBefore, 'nothing made before the shoe');
        assert.equal(await ana.waiting(), 1, 'the floor: the limits approved and not made yet (the rule option refused)');

        ledger.append({ type: 'shoe.change', payload: { tableId: config.tableId, event: 'loaded' } });
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(config.limits, { min: 20_000, max: 1_000_000 });
        const made = configChanges(ledger);
        assert.equal(made.length, 1);
        while ((await client.syncOnce()) === 'sent');
        seen = await ana.list();
        const limitsSeen = seen.find((r) => r.id === limits.id);
        assert.deepEqual([limitsSeen?.state, limitsSeen?.approvedBy, limitsSeen?.outcome?.seq], ['applied', 'rui', made[0]?.seq]);
        assert.equal(await ana.waiting(), 0, 'the floor: nothing waits once the table made it');

        // Answered in the journal: the upstream sends it no more.
        assert.equal(await client.sendHeartbeat(), true);
        assert.deepEqual(orders.at(-1), { orders: [] });
      } finally {
        remote.close();
        await client.stop();
        ledger.close();
      }
    });
  });
}
