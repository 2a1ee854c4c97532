// An error inside a route (a database refusing a query, a stored setting that does not read, a
// bug) was answered with Fastify's default body: its message whole, to whoever asked — a table's
// name, a column, a schema's words, to a browser or a terminal that has no use for them and a
// hostile one that has. A 5xx now says only that the upstream failed and which request it logged
// it under; the error goes to the upstream's log. A 4xx keeps its words: they say what to change.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backofficeKit, signIn } from './backoffice-kit.js';

describe('an error inside a route', () => {
  it('is answered 500 without its message, naming the request it was logged under; a 4xx keeps its words', async () => {
    const kit = await backofficeKit();
    try {
      const accounting = await signIn(kit.app, 'accounting');
      // A relation the report reads is gone: the database's own words name it.
      await kit.db.query('ALTER TABLE tickets RENAME TO tickets_away');
      const r = await kit.app.inject({ method: 'GET', url: '/backoffice/api/reports/gaming-day?date=2026-11-25', headers: { cookie: accounting.cookie } });
      assert.equal(r.statusCode, 500);
      assert.doesNotMatch(r.body, /tickets|relation|exist/i, `the database's words reached the client: ${r.body.slice(0, 300)}`);
      const body = r.json() as { statusCode: number; error: string; message: string; requestId: string };
      assert.equal(body.statusCode, 500);
      assert.equal(typeof body.requestId, 'string');
      assert.ok(body.requestId.length > 0 && body.message.includes(body.requestId), body.message);
      const bad = await kit.app.inject({ method: 'GET', url: '/backoffice/api/reports/gaming-day?date=not-a-date', headers: { cookie: accounting.cookie } });
      assert.equal(bad.statusCode, 400);
      assert.match((bad.json() as { message: string }).message, /date/);
    } finally {
      await kit.close();
    }
  });
});
