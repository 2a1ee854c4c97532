// GET /v1/terminals/:id/meters answered a table's whole meters projection in one answer: bounded by
// the names a ledger writes (upstream-meter-names.test.ts), but a table's 2,008 scopes times its
// names and currencies are hundreds of thousands of rows (a stadium's honest projection alone some
// 80,000), read, sorted and serialised in the upstream's one process for each call. The route
// answers a page at most (`limit`, default and most METERS_PAGE_MAX) and names the next one in its
// `link` header (rel="next") while a page is full: a reader that asks without paging gets the rows
// it always got for any table under the page's size, one that follows the link gets them all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildServer, enrolTerminal } from '../../upstream/index.js';
import { meters, METERS_PAGE_MAX } from '../../upstream/queries.js';
import { openDatabase, type OpenDatabase } from '../sync/upstream-databases.js';

const ADMIN = 'a'.repeat(32);
const auth = { authorization: `Bearer ${ADMIN}` };
type App = Awaited<ReturnType<typeof buildServer>>;
type Row = Awaited<ReturnType<typeof meters>>[number];

/** The next page's address of an answer's `link` header (RFC 8288), if it names one. */
const nextOf = (link: unknown): string | undefined => (typeof link === 'string' ? /^<([^>]+)>;\s*rel="next"$/.exec(link)?.[1] : undefined);

describe("a table's meters read page by page", () => {
  let opened: OpenDatabase;
  let app: App;
  const ROWS = 2 * METERS_PAGE_MAX + 1_234;
  before(async () => {
    opened = await openDatabase('pglite');
    await enrolTerminal(opened.db, 'M1');
    await enrolTerminal(opened.db, 'M2');
    // As many rows as the projection may hold of one table, straight into it: stations 101…, each
    // with notes in patacas and, for some, none named yet (code '' sorts after the named ones).
    await opened.db.query(
      `INSERT INTO meters (terminal_id, code, exponent, scope, name, value)
       SELECT 'M1', CASE WHEN i % 7 = 0 THEN '' ELSE 'MOP' END, CASE WHEN i % 7 = 0 THEN -1 ELSE 2 END,
         'station:' || (101 + i / 40), 'billsIn.' || (i % 40 + 1), i FROM generate_series(0, $1::int - 1) i`,
      [ROWS],
    );
    await opened.db.query(
      `INSERT INTO meters (terminal_id, code, exponent, scope, name, value) VALUES
       ('M1', 'HKD', 2, 'table', 'totalIn', 5), ('M1', 'MOP', 2, 'table', 'totalIn', 7), ('M1', '', -1, 'table', 'totalIn', 1),
       ('M2', 'MOP', 2, 'table', 'totalIn', 3)`,
    );
    app = await buildServer({ db: opened.db, tokens: { admin: ADMIN } });
  });
  after(async () => {
    await app?.close();
    await opened?.close();
  });

  const read = async (url: string) => {
    const r = await app.inject({ method: 'GET', url, headers: auth });
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    return { rows: r.json<Row[]>(), next: nextOf(r.headers.link) };
  };

  it('answers a page at most and links the next; followed, the pages are the whole projection in its order, each row once', async () => {
    const whole = await meters(opened.db, 'M1');
    assert.equal(whole.length, ROWS + 3);
    const seen: Row[] = [];
    let url: string | undefined = '/v1/terminals/M1/meters';
    let pages = 0;
    while (url !== undefined) {
      const page = await read(url);
      assert.ok(page.rows.length <= METERS_PAGE_MAX, `a page of ${page.rows.length} rows`);
      seen.push(...page.rows);
      url = page.next;
      pages += 1;
      assert.ok(pages <= 4, 'the pages end');
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, whole);
  });

  it('a limit and a scope are kept from page to page', async () => {
    const first = await read('/v1/terminals/M1/meters?scope=table&limit=2');
    assert.deepEqual(
      first.rows.map((m) => [m.name, m.currency?.code ?? null]),
      [
        ['totalIn', 'HKD'],
        ['totalIn', 'MOP'],
      ],
    );
    assert.ok(first.next !== undefined, 'a full page names the next');
    const second = await read(first.next);
    assert.deepEqual(
      second.rows.map((m) => [m.scope, m.name, m.value]),
      [['table', 'totalIn', 1]],
    );
    assert.equal(second.next, undefined, 'a page short of its limit is the last');
  });

  it('a table of few meters: one answer, all of them, no link', async () => {
    const r = await app.inject({ method: 'GET', url: '/v1/terminals/M2/meters', headers: auth });
    assert.equal(r.statusCode, 200);
    assert.deepEqual(
      r.json<Row[]>().map((m) => [m.scope, m.name, m.value]),
      [['table', 'totalIn', 3]],
    );
    assert.equal(r.headers.link, undefined);
  });

  it('a cursor that is none the route gave, a limit of 0, past the most or no number: a 400 naming it', async () => {
    for (const q of [
      'after=nonsense',
      'after=' + 'A'.repeat(5000),
      `after=${Buffer.from('[1,2]').toString('base64url')}`,
      'limit=0',
      `limit=${METERS_PAGE_MAX + 1}`,
      'limit=-1',
      'limit=abc',
    ]) {
      const r = await app.inject({ method: 'GET', url: `/v1/terminals/M1/meters?${q}`, headers: auth });
      assert.equal(r.statusCode, 400, `${q}: ${r.statusCode} ${r.body.slice(0, 200)}`);
      assert.match(r.json<{ message: string }>().message, /after|limit/, q);
    }
  });

  it('the OpenAPI document says how to read on', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, { get?: { description?: string } }> }>();
    assert.match(doc.paths['/v1/terminals/{id}/meters']?.get?.description ?? '', /link.*rel="next"/i);
  });
});
