// A table's rule profile changed from the floor end to end (issue 49 item 6): a supervisor proposes
// Macau 2004 for a blackjack table playing Macau 2009 and the no-commission alternative for a
// baccarat table with commission (Art. 18, under the DICJ's authorisation, Art. 19); an
// administrator approves both over the back office's HTTP routes; each table's sync client
// fetches its order, signed by the upstream, at its heartbeat; each table journals the change at
// its next shoe, and opens under the new profile at its next start; the synced journal tells the
// back office both were made, with the entries' seqs. The tables here are their journals and
// configuration changes with no game behind them (no rule switch): a host's own switch of its game
// at the shoe is tests/host/shoe-profile-switch.test.ts, and through the upstream's page
// tests/browser/backoffice.spec.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { configChanges, Ledger, SyncClient } from '../../ledger/index.js';
import { ConfigChanges, restoreRestartChanges } from '../../host/config/config-changes.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { RemoteConfig } from '../../host/floor/remote-config.js';
import { openTableGame } from '../../host/table/table-game.js';
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

describe("back office: a table's rule profile changed from the floor, made at its next shoe", () => {
  let db: Db;
  let up: Awaited<ReturnType<typeof startUpstream>>;
  const credentials: Record<string, { terminalId: string; key: string; receiptKey: string }> = {};
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    await putUser(db, { name: 'ana', role: 'supervisor', password: PASSWORD, by: 'test' }, FAST);
    await putUser(db, { name: 'rui', role: 'administrator', password: PASSWORD, by: 'test' }, FAST);
    for (const t of ['BJ1', 'BAC1']) credentials[t] = await enrolTerminal(db, t);
    up = await startUpstream({ db, backoffice: {} });
  });
  after(async () => {
    await up.close();
    await db.close();
  });

  async function session(name: string) {
    const signedIn = await signInHttp(up.url, name, PASSWORD);
    const { cookie } = signedIn;
    const post = async (path: string, body: unknown = {}) => (await postHttp(up.url, signedIn, path, body)) as Request;
    const list = async (terminal: string) =>
      (await (await fetch(`${up.url}/backoffice/api/config-requests?terminal=${terminal}`, { headers: { cookie } })).json()) as Request[];
    return { post, list };
  }

  /** A table of `game` under its default profile, its sync client and the orders it receives. */
  function host(terminal: 'BJ1' | 'BAC1', game: 'blackjack' | 'baccarat') {
    const c = credentials[terminal];
    assert.ok(c);
    const ledger = Ledger.open({ file: ':memory:', terminalId: terminal });
    const config = simulatedTableConfig(game);
    const changes = new ConfigChanges({ config, ledger, log: silent, bets: [], betweenRounds: () => true });
    const orders: unknown[] = [];
    const client = new SyncClient(ledger, {
      url: up.url,
      credentials: { ...c, upstream: up.url },
      heartbeat: { snapshot: () => ({ tableId: config.tableId, game }) },
      configOrders: (answer) => orders.push(answer),
    });
    const remote = new RemoteConfig({ terminalId: terminal, publicKey: client.upstreamKey, ledger, changes, log: silent });
    const sync = async () => {
      while ((await client.syncOnce()) === 'sent');
    };
    const newShoe = async () => {
      ledger.append({ type: 'shoe.change', payload: { tableId: config.tableId, event: 'loaded' } });
      await new Promise((r) => setImmediate(r));
    };
    const close = async () => {
      remote.close();
      await client.stop();
      ledger.close();
    };
    return { ledger, config, client, remote, orders, sync, newShoe, close };
  }

  it('proposed, approved by another, delivered signed, journalled at the shoe, in effect at the next start, and the page told', async () => {
    const ana = await session('ana');
    const rui = await session('rui');
    const bj = await ana.post('/tables/BJ1/config-requests', { key: 'profile', after: 'macau-2004', authorisation: 'DICJ-2026/70', note: 'Macau 2004' });
    const bac = await ana.post('/tables/BAC1/config-requests', { key: 'profile', after: 'macau-no-commission', authorisation: 'DICJ-2026/71' });
    assert.deepEqual([bj.key, bj.after, bj.state], ['profile', 'macau-2004', 'proposed']);
    await rui.post(`/config-requests/${bj.id}/approve`);
    await rui.post(`/config-requests/${bac.id}/approve`);

    const tables = [
      { terminal: 'BJ1', t: host('BJ1', 'blackjack'), request: bj, from: 'macau-2009', to: 'macau-2004', reference: 'DICJ-2026/70' },
      { terminal: 'BAC1', t: host('BAC1', 'baccarat'), request: bac, from: 'macau-commission', to: 'macau-no-commission', reference: 'DICJ-2026/71' },
    ];
    try {
      for (const { terminal, t, request, from, to, reference } of tables) {
        assert.equal(await t.client.sendHeartbeat(), true);
        assert.equal(t.orders.length, 1);
        t.remote.receive(t.orders[0]);
        assert.deepEqual(
          t.remote.pending().map((o) => [o.id, o.key, o.after]),
          [[request.id, 'profile', to]],
        );
        await t.sync();
        assert.equal(configChanges(t.ledger).length, 0, 'nothing made before the shoe');
        await t.newShoe();
        const made = configChanges(t.ledger);
        assert.deepEqual(
          made.map((c) => [c.key, c.before, c.after, c.who, c.witness]),
          [['profile', from, to, 'ana', 'rui']],
        );
        assert.equal(t.config.profile, from, 'the running game keeps its rules until the next start');
        await t.sync();
        const seen = (await ana.list(terminal)).find((r) => r.id === request.id);
        assert.deepEqual([seen?.state, seen?.outcome?.type, seen?.outcome?.seq], ['applied', 'config.change', made[0]?.seq]);

        // The next start: the file still says the old profile; the journal's change wins and the game opens under it.
        const file = simulatedTableConfig(t.config.game);
        assert.equal(restoreRestartChanges(t.ledger, file, silent), 1);
        assert.deepEqual([file.profile, file.profileAuthorisation], [to, reference]);
        assert.equal(
          openTableGame(file, (g) => g.profile),
          to,
        );

        // Answered in the journal: the upstream sends it no more.
        assert.equal(await t.client.sendHeartbeat(), true);
        assert.deepEqual(t.orders.at(-1), { orders: [] });
      }
    } finally {
      for (const { t } of tables) await t.close();
    }
  });
});
