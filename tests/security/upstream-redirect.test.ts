// An upstream (or whatever answers at its address: a proxy in front of it, a misconfigured
// load balancer) that answers a signed request with a redirect. fetch follows redirects by default,
// and a 307 or 308 sends the same POST, body and signature headers to wherever it points, https or
// not. So the table's journal went to another host, whose acknowledgement (it holds the entries, so
// it knows their hashes) was recorded: entries marked synced that the upstream never stored. The
// sync client must take a redirect as a failed request, send nothing on, and believe nothing of it.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { bodyOf, listen } from './http-peer-kit.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger, SyncClient, syncAnchor } from '../../ledger/index.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const TERMINAL = 'RD1';

/** The other host: it takes whatever comes and acknowledges the last entry with the hash it was sent. */
const elsewhere: { paths: string[]; bodies: string[] } = { paths: [], bodies: [] };
const other = createServer((req, res) => {
  void bodyOf(req).then((text): void => {
    elsewhere.paths.push(req.url ?? '');
    elsewhere.bodies.push(text);
    res.setHeader('content-type', 'application/json');
    let answer: unknown;
    if (req.url === '/v1/heartbeat') answer = { ok: true, serverTime: new Date().toISOString() };
    else if (req.url === '/v1/config-orders') answer = { orders: [] };
    if (answer) {
      res.end(JSON.stringify(answer));
      return;
    }
    // A 301 or 302 followed turns the POST into a GET without a body.
    if (req.method !== 'POST') {
      res.writeHead(404).end('{"error":"not-found"}');
      return;
    }
    const b = JSON.parse(text) as { entries: { seq: number; hash: string }[] };
    const last = b.entries[b.entries.length - 1]!;
    res.end(JSON.stringify({ ackedSeq: last.seq, headHash: last.hash }));
  });
});

/** The upstream's address, answering every request with `status` to the other host's same path. */
let status = 307;
const redirecting = createServer((req, res) => {
  void bodyOf(req).then(() => {
    res.statusCode = status;
    res.setHeader('location', `${otherUrl}${req.url ?? '/'}`);
    res.end();
  });
});

let otherUrl = '';
let upstreamUrl = '';
before(async () => {
  otherUrl = await listen(other);
  upstreamUrl = await listen(redirecting);
});
after(() => {
  other.close();
  redirecting.close();
});

function ledgerOf(n: number): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: TERMINAL });
  for (let i = 1; i <= n; i++) l.append(billCredit(1 + (i % 7), 10_000, `rd-${i}`));
  return l;
}

describe('an upstream that answers with a redirect', () => {
  for (const code of [307, 308, 302, 301]) {
    it(`${code} to another host: nothing sent on, nothing acknowledged, a failed sync`, async () => {
      status = code;
      elsewhere.paths.length = 0;
      elsewhere.bodies.length = 0;
      const ledger = ledgerOf(5);
      const errors: string[] = [];
      const c = new SyncClient(ledger, {
        url: upstreamUrl,
        credentials: { terminalId: TERMINAL, key: KEY },
        requestTimeoutMs: 5000,
        onError: (m) => errors.push(m),
      });
      const r = await c.syncOnce();
      assert.equal(r, 'failed', 'a redirect is no acknowledgement');
      assert.equal(syncAnchor(ledger).ackedSeq, 0, 'no entry marked synced');
      assert.equal(c.status().lagEntries, 5, 'all five still queued');
      assert.deepEqual(elsewhere.paths, [], 'the journal went to no other host');
      assert.equal(errors.length, 1);
      assert.match(errors[0]!, new RegExp(`${code}`));
      ledger.close();
    });
  }

  it('a heartbeat redirected is not acknowledged, and is sent nowhere else', async () => {
    status = 307;
    elsewhere.paths.length = 0;
    const ledger = ledgerOf(1);
    let orders = 0;
    const c = new SyncClient(ledger, {
      url: upstreamUrl,
      credentials: { terminalId: TERMINAL, key: KEY },
      requestTimeoutMs: 5000,
      heartbeat: { snapshot: () => ({ tableId: 'x' }) },
      configOrders: () => orders++,
    });
    assert.equal(await c.sendHeartbeat(), false);
    assert.equal(c.status().heartbeat?.ok, false);
    assert.equal(orders, 0);
    assert.deepEqual(elsewhere.paths, []);
    ledger.close();
  });
});
