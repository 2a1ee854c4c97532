// GET /v1/alarms answered the newest 100 alarms and nothing older: no parameter read on, so casino
// IT's system never saw the 101st alarm of a busy night (a hostile table raises alarms by the
// batch: a divergence, a bad entry, meters no ledger writes). The route takes `limit` (at most 500)
// and `before` (an alarm's id): newest first, paged on from the last id answered until an answer
// is empty; a reader that passes neither gets the newest 100, as before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildServer, enrolTerminal } from '../../upstream/index.js';
import { openDatabase, type OpenDatabase } from '../sync/upstream-databases.js';

const ADMIN = 'b'.repeat(32);
const auth = { authorization: `Bearer ${ADMIN}` };
type App = Awaited<ReturnType<typeof buildServer>>;
const ALARMS = 250;

describe('alarms read page by page', () => {
  let opened: OpenDatabase;
  let app: App;
  before(async () => {
    opened = await openDatabase('pglite');
    await enrolTerminal(opened.db, 'A1');
    await opened.db.query(
      `INSERT INTO alarms (terminal_id, kind, detail) SELECT CASE WHEN i % 5 = 0 THEN NULL ELSE 'A1' END, 'bad-entry', jsonb_build_object('i', i) FROM generate_series(1, $1::int) i`,
      [ALARMS],
    );
    app = await buildServer({ db: opened.db, tokens: { admin: ADMIN } });
  });
  after(async () => {
    await app?.close();
    await opened?.close();
  });

  const read = async (url: string) => {
    const r = await app.inject({ method: 'GET', url, headers: auth });
    assert.equal(r.statusCode, 200, `${url}: ${r.body.slice(0, 300)}`);
    return r.json<{ id: number; terminalId: string | null }[]>();
  };

  it('without paging: the newest 100, as before', async () => {
    const got = await read('/v1/alarms');
    assert.equal(got.length, 100);
    assert.equal(got[0]?.id, ALARMS);
  });

  it('paged on from the last id answered: every alarm once, newest first, of a terminal too', async () => {
    for (const terminal of [undefined, 'A1']) {
      const seen: number[] = [];
      let before: number | undefined;
      for (let page = 0; page < 10; page += 1) {
        const q = new URLSearchParams({ limit: '64', ...(before === undefined ? {} : { before: String(before) }), ...(terminal ? { terminal } : {}) });
        const got = await read(`/v1/alarms?${q.toString()}`);
        if (got.length === 0) break;
        assert.ok(got.length <= 64);
        seen.push(...got.map((a) => a.id));
        before = got.at(-1)?.id;
      }
      const all = Array.from({ length: ALARMS }, (_, i) => ALARMS - i).filter((id) => terminal === undefined || id % 5 !== 0);
      assert.deepEqual(seen, all, String(terminal));
    }
  });

  it('a limit or a before that is no count: a 400 naming it', async () => {
    for (const q of ['limit=0', 'limit=501', 'limit=-1', 'limit=abc', 'before=-5', 'before=1e400', 'before=x', `before=${2 ** 64}`]) {
      const r = await app.inject({ method: 'GET', url: `/v1/alarms?${q}`, headers: auth });
      assert.equal(r.statusCode, 400, `${q}: ${r.statusCode}`);
      assert.match(r.json<{ message: string }>().message, /limit|before/, q);
    }
  });
});
