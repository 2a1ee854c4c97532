// `etg ledger verify --upstream URL` asks the upstream itself for its receipt key and a receipt of
// its head (ledger/upstream-head.ts), against a server that lies the ways HTTP lets it: a redirect
// elsewhere (another key and receipt, over plain http), and a body without end. The sync client
// follows no redirect and reads an answer to 4 MiB (ledger/sync-client.ts); this asked the same
// upstream, with the same signed request, and did neither.
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import { after, describe, it } from 'node:test';
import { ANSWER_BYTES_MAX } from './bounded-answer.js';
import { receiptStatement } from './receipts.js';
import { askUpstreamHead } from './upstream-head.js';

const T = 'UH1';
const credentials = { terminalId: T, key: Buffer.alloc(32, 7).toString('base64') };
const servers: http.Server[] = [];
after(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

async function serve(handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(s.address() as { port: number }).port}`;
}

/** A server that answers as an upstream would, with a key of its own and a receipt of head `seq` signed with it. */
function upstreamOf(seq: number): http.RequestListener {
  const k = generateKeyPairSync('ed25519');
  const publicKey = k.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  return (req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/receipt-key') {
        res.end(JSON.stringify({ publicKey, keyId: 'k1' }));
        return;
      }
      const hash = 'a'.repeat(64);
      const at = new Date().toISOString();
      const signature = sign(null, Buffer.from(receiptStatement(T, seq, hash, at), 'utf8'), k.privateKey).toString('base64');
      res.end(JSON.stringify({ receipt: { seq, hash, at, signature } }));
    });
  };
}

describe("the upstream's head asked directly, from a server that lies", () => {
  it('follows no redirect: the key and the receipt come from the address asked, or the answer is refused', async () => {
    const elsewhere = await serve(upstreamOf(7));
    for (const status of [301, 302, 307, 308]) {
      const url = await serve((req, res) => {
        req.resume();
        res.writeHead(status, { location: `${elsewhere}${req.url ?? '/'}` }).end();
      });
      await assert.rejects(askUpstreamHead(url, credentials, { timeoutMs: 5000 }), /redirect/, `a ${status} is not followed`);
    }
  });

  it('reads an answer only up to 4 MiB: a body without end is refused, not read until the time-out', async () => {
    const endless: http.RequestListener = (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (res.write(chunk));
        res.once('drain', more);
      };
      res.write('{"publicKey":"');
      more();
    };
    for (const url of [await serve(endless), await serve((req, res) => (req.url === '/v1/head' ? endless(req, res) : upstreamOf(7)(req, res)))]) {
      const t0 = performance.now();
      await assert.rejects(askUpstreamHead(url, credentials, { timeoutMs: 20_000 }), new RegExp(`more than ${ANSWER_BYTES_MAX} bytes`));
      assert.ok(performance.now() - t0 < 10_000, 'refused once past the bound, not at the time-out');
    }
  });

  it('an honest upstream: its key and its receipt', async () => {
    const { receipt } = await askUpstreamHead(await serve(upstreamOf(7)), credentials, { timeoutMs: 5000 });
    assert.equal(receipt.seq, 7);
  });
});
