// The upstream as the tickets' validation authority (host/tickets/upstream-authority.ts), when what
// answers at its address redirects, or answers without end. fetch followed a 307 with the same
// signed body to wherever it pointed, and that host, having read the request, could approve it
// word for word (its request id, validation number, currency, under the limit): the table paid a
// ticket the authority never marked redeemed, so it stayed redeemable elsewhere. And the answer was
// read whole (`res.json()`), however large, bounded only by the timeout.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { bodyOf, listen } from './http-peer-kit.js';
import { UpstreamAuthority } from '../../host/tickets/upstream-authority.js';
import { validationNumber } from '../../terms/validation-number.js';
import { redemption } from '../tickets/kit.js';

const credentials = { terminalId: 'TA1', key: Buffer.alloc(32, 9).toString('base64') };

/** Another host: approves every redemption it reads, word for word. */
const elsewhere: string[] = [];
const other = createServer((req, res) => {
  void bodyOf(req).then((text): void => {
    elsewhere.push(req.url ?? '');
    if (req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    const q = JSON.parse(text) as { requestId: string; validation: string; currency: string };
    res.setHeader('content-type', 'application/json');
    const approval = { kind: 'approved', requestId: q.requestId, validation: q.validation, amount: 5_000, currency: q.currency };
    res.end(JSON.stringify(req.url === '/v1/tickets/redeem' ? approval : { ok: true }));
  });
});

let status = 307;
const redirecting = createServer((req, res) => {
  void bodyOf(req).then(() => {
    res.writeHead(status, { location: `${otherUrl}${req.url ?? '/'}` }).end();
  });
});

/** An answer of 64 MiB of spaces, then an approval of what was asked; counts what it could write. */
let written = 0;
const endless = createServer((req, res) => {
  void bodyOf(req).then(async (text) => {
    const q = JSON.parse(text) as { requestId: string; validation: string; currency: string };
    res.writeHead(200, { 'content-type': 'application/json' });
    const mib = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 64 && !res.destroyed; i++) {
      if (!res.write(mib)) await new Promise((r) => res.once('drain', r).once('close', r));
      if (!res.destroyed) written += mib.length;
    }
    res.end(JSON.stringify({ kind: 'approved', requestId: q.requestId, validation: q.validation, amount: 5_000, currency: q.currency }));
  });
});

let otherUrl = '';
let redirectUrl = '';
let endlessUrl = '';
before(async () => {
  otherUrl = await listen(other);
  redirectUrl = await listen(redirecting);
  endlessUrl = await listen(endless);
});
after(() => {
  for (const s of [other, redirecting, endless]) s.close();
});

describe('the ticket authority over HTTP, against what answers at its address', () => {
  for (const code of [307, 308, 302]) {
    it(`a redemption answered ${code}: offline, and the request went to no other host`, async () => {
      status = code;
      elsewhere.length = 0;
      const a = new UpstreamAuthority({ url: redirectUrl, credentials, timeoutMs: 5000 });
      const q = redemption({ validation: validationNumber(0x123456, 17) }, 2);
      assert.deepEqual(await a.redeem(q), { kind: 'refused', requestId: q.requestId, reason: 'offline' });
      const word = await a.confirm(q.requestId, { validation: q.validation, station: q.station });
      assert.equal(word.ok, false, 'a confirm redirected is no word');
      assert.deepEqual(elsewhere, []);
    });
  }

  it('an answer of 64 MiB is not read to its end, nor believed', async () => {
    written = 0;
    const a = new UpstreamAuthority({ url: endlessUrl, credentials, timeoutMs: 30_000 });
    const q = redemption({ validation: validationNumber(0x123456, 18) }, 3);
    assert.deepEqual(await a.redeem(q), { kind: 'refused', requestId: q.requestId, reason: 'offline' });
    assert.ok(written < 16 * 1024 * 1024, `the host wrote ${written} bytes before the table stopped reading`);
  });
});
