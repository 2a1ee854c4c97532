// Configuration requests at the upstream under attack (issue 49 item 6; a review of the
// configuration orders): a lone supervisor proposing what no table can read or flooding the list
// every viewer loads, and a table whose key leaked answering requests that were never approved,
// were withdrawn or do not exist yet. Each against the real routes and schema, on the embedded
// PGlite and on a PostgreSQL cluster of its own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ORDER_AFTER_MAX, ORDER_TEXT_MAX } from '../../terms/config-order-terms.js';
import { ordersFor } from '../../upstream/backoffice/index.js';
import { backofficeKit, post, signIn, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';
import { DATABASES } from '../sync/upstream-databases.js';

const LIMITS = { key: 'limits', after: { min: 20_000, max: 1_000_000 }, authorisation: 'DICJ-2026/49', note: '' };

/** A bet-limits change naming `n` bets. */
function betLimits(n: number) {
  const after: Record<string, { min: number; max: number }> = {};
  for (let i = 0; i < n; i++) after[`bet${i}`] = { min: 100, max: 9_007_199_254_740_991 };
  return { key: 'betLimits', after, authorisation: 'DICJ-2026/51', note: '' };
}

type Listed = { id: number; state: string; outcome: { type: string } | null };

for (const kind of DATABASES) {
  describe(`back office: configuration requests a table can take, answered only by their table (${kind})`, () => {
    let kit: BackofficeKit;
    before(async () => {
      kit = await backofficeKit({ database: kind });
    });
    after(() => kit?.close());

    const list = async (terminal: string) => {
      const viewer = await signIn(kit.app, 'viewer');
      return kit.app.inject({ method: 'GET', url: `/backoffice/api/config-requests?terminal=${terminal}`, headers: { cookie: viewer.cookie } });
    };
    const propose = async (terminal: string, body: unknown) =>
      post(kit.app, await signIn(kit.app, 'supervisor'), `/backoffice/api/tables/${terminal}/config-requests`, body);
    const approve = async (id: number) => post(kit.app, await signIn(kit.app, 'administrator'), `/backoffice/api/config-requests/${id}/approve`);

    it('a proposal no table could read (too many bets, a value too long) is refused; the largest one taken makes an order the table takes', async () => {
      await lyingTable(kit.app, kit.db, 'T2');
      const tooMany = await propose('T2', betLimits(600));
      console.log('600 bets proposed:', tooMany.statusCode);
      assert.equal(tooMany.statusCode, 400, tooMany.body.slice(0, 200));
      assert.equal((await propose('T2', betLimits(33))).statusCode, 400);
      // 32 rule options of 64 characters each way, every one escaped six times over in the order's text.
      const options: Record<string, string> = {};
      for (let i = 0; i < 32; i++) options[`${String(i).padStart(2, '0')}${'\u0001'.repeat(62)}`] = '\u0001'.repeat(64);
      assert.ok(JSON.stringify(options).length > ORDER_AFTER_MAX);
      assert.equal((await propose('T2', { key: 'profileOptions', after: options, authorisation: 'DICJ-X', note: '' })).statusCode, 400);
      const largest = await propose('T2', { ...betLimits(32), authorisation: '\u0001'.repeat(128) });
      assert.equal(largest.statusCode, 200, largest.body);
      assert.equal((await approve(largest.json().id)).statusCode, 200);
      const texts = await ordersFor(kit.db, 'T2');
      console.log(
        'order text lengths:',
        texts.map((t) => t.length),
      );
      assert.ok(texts.length === 1 && (texts[0]?.length ?? Infinity) <= ORDER_TEXT_MAX);
    });

    it('a lone supervisor holds at most 20 open requests per table; the list every viewer loads stays small', async () => {
      await lyingTable(kit.app, kit.db, 'T3');
      await lyingTable(kit.app, kit.db, 'T4');
      const ids: number[] = [];
      for (let i = 0; i < 20; i++) {
        const r = await propose('T3', betLimits(32));
        assert.equal(r.statusCode, 200, r.body);
        ids.push(r.json().id);
      }
      const more = await propose('T3', LIMITS);
      console.log('21st open request:', more.statusCode, more.body.slice(0, 200));
      assert.equal(more.statusCode, 409);
      assert.equal(more.json().error, 'too-many-open');
      assert.equal((await propose('T4', LIMITS)).statusCode, 200, 'another table is not held by it');
      // An approved one not yet answered is open too; a withdrawn one is not.
      assert.equal((await approve(ids[0] ?? 0)).statusCode, 200);
      assert.equal((await propose('T3', LIMITS)).statusCode, 409);
      assert.equal((await post(kit.app, await signIn(kit.app, 'supervisor'), `/backoffice/api/config-requests/${ids[1]}/withdraw`)).statusCode, 200);
      assert.equal((await propose('T3', LIMITS)).statusCode, 200);
      const r = await list('T3');
      console.log('list bytes:', r.body.length);
      assert.ok(r.body.length < 100 * (ORDER_AFTER_MAX + 2_000), String(r.body.length));
    });

    it("a table holding its key cannot answer a request not approved, withdrawn, not made yet, or another setting's; nor keep one from being sent", async () => {
      const t1 = await lyingTable(kit.app, kit.db, 'T1');
      const proposed: number = (await propose('T1', LIMITS)).json().id;
      const withdrawn: number = (await propose('T1', LIMITS)).json().id;
      await post(kit.app, await signIn(kit.app, 'supervisor'), `/backoffice/api/config-requests/${withdrawn}/withdraw`);
      const future = withdrawn + 1;
      const ts = new Date().toISOString();
      const change = (order: number, key = 'limits', after: unknown = LIMITS.after) => ({
        type: 'config.change',
        ts,
        payload: { who: 'x1', witness: 'y1', authorisation: 'NONE', key, before: null, after, order },
      });
      const refused = (order: number) => ({ type: 'config.refused', ts, payload: { order, key: 'limits', who: 'x1', witness: 'y1', reason: 'pre-answered' } });
      assert.equal((await t1.send([change(proposed), change(withdrawn), refused(future), change(future)])).statusCode, 200);
      const later: number = (await propose('T1', LIMITS)).json().id;
      assert.equal(later, future);
      await approve(later);
      const sent = await ordersFor(kit.db, 'T1');
      const states = () => list('T1').then((r) => new Map((r.json() as Listed[]).map((x) => [x.id, x.state])));
      const seen = await states();
      console.log('states:', [...seen], 'orders sent:', sent.length);
      assert.deepEqual([seen.get(proposed), seen.get(withdrawn), seen.get(later)], ['proposed', 'withdrawn', 'delivered']);
      assert.equal(sent.length, 1, 'the approved request is sent, whatever was journalled of its id before');
      // Answered after it was sent, but of another setting or another value: not its answer.
      await t1.send([change(later, 'roundMax', 1), change(later, 'limits', { min: 1, max: 2 })]);
      assert.equal((await states()).get(later), 'delivered');
      assert.equal((await ordersFor(kit.db, 'T1')).length, 1);
      // Another table's key cannot answer it either; its own table's true answer does.
      const t9 = await lyingTable(kit.app, kit.db, 'T9');
      await t9.send([change(later)]);
      assert.equal((await states()).get(later), 'delivered');
      await t1.send([change(later)]);
      assert.equal((await states()).get(later), 'applied');
      assert.equal((await ordersFor(kit.db, 'T1')).length, 0);
      // Every answer to a request its table was not sent is an alarm for the floor; the true one is not.
      const stray = await kit.db.query<{ terminal_id: string; o: string }>(
        "SELECT terminal_id, detail->>'order' AS o FROM alarms WHERE kind = 'config-answer-stray' AND terminal_id IN ('T1', 'T9') ORDER BY id",
      );
      console.log(
        'stray answers alarmed:',
        stray.rows.map((r) => `${r.terminal_id}:${r.o}`),
      );
      assert.deepEqual(
        stray.rows.map((r) => `${r.terminal_id}:${r.o}`),
        [...[proposed, withdrawn, future, future, later, later].map((o) => `T1:${o}`), `T9:${later}`],
      );
    });
  });
}
