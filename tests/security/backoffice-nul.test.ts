// A NUL character in what a person sends the back office (a review of 4 December). PostgreSQL takes
// no NUL in text nor in jsonb: a sign-in name, an alarm's filter or note, a configuration request's
// reference or value holding one reached the database and answered 500 with its error text, and a
// sign-in refused that way was neither audited nor counted. Now every back-office request whose
// body, query or path holds a NUL in any text is refused at once, 400, before it reaches a route.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from '../../upstream/index.js';
import { kitOfSuite, post } from './backoffice-kit.js';

describe('the back office against a NUL in a text', () => {
  const suite = kitOfSuite('supervisor');

  it('refuses each request with a NUL, 400, and answers the same request without it', async () => {
    const { kit, who } = suite;
    await enrolTerminal(kit.db, 'T1');
    const cases: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      ['an alarms filter', () => kit.app.inject({ method: 'GET', url: '/backoffice/api/alarms?terminal=%00', headers: { cookie: who.cookie } })],
      ['a sign-in name', () => kit.app.inject({ method: 'POST', url: '/backoffice/api/sign-in', payload: { name: 'a\u0000', password: 'x' } })],
      ["an acknowledgement's note", () => post(kit.app, who, '/backoffice/api/alarms/1/acknowledge', { note: 'a\u0000b' })],
      [
        "a request's reference",
        () => post(kit.app, who, '/backoffice/api/tables/T1/config-requests', { key: 'limits', after: { min: 1, max: 2 }, authorisation: 'R\u0000', note: '' }),
      ],
      [
        "a request's value",
        () =>
          post(kit.app, who, '/backoffice/api/tables/T1/config-requests', { key: 'profileOptions', after: { a: 'x\u0000' }, authorisation: 'R1', note: '' }),
      ],
    ];
    for (const [what, send] of cases) {
      const r = await send();
      // Before: 500, with PostgreSQL's words ("invalid byte sequence for encoding \"UTF8\": 0x00").
      assert.equal(r.statusCode, 400, `${what}: ${r.body}`);
      assert.match(r.body, /NUL/, what);
      assert.doesNotMatch(r.body, /UTF8|0x00|Unicode escape/, what);
    }
    const plain = await kit.app.inject({ method: 'GET', url: '/backoffice/api/alarms?terminal=T1', headers: { cookie: who.cookie } });
    assert.equal(plain.statusCode, 200, plain.body);
  });
});
