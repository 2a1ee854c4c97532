// An upstream that answers without storing anything: a 200 that acknowledges the entry this table
// already had acknowledged (entry 0's hash is the genesis, public: SHA-256 of the terminal id), or
// a 409 gap at that same head. Each was taken as 'sent', and the loop sends again at once, with no
// wait: the table host sent its batch (up to 512 KiB, read, serialised and signed each time) in a
// tight loop as fast as the upstream answered, for as long as it lied. A 200 for less than the batch
// (an honest upstream acknowledges its head, at or past the batch's last entry), alternating with
// one for the whole, did the same. Now each is a failed sync, waited out with the backoff.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { genesisHash } from '../../ledger/canonical.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger, SyncClient, syncAnchor } from '../../ledger/index.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const T = 'NP1';

type Plan = (n: number, body: { entries: { seq: number; hash: string }[] }) => Response;

async function requestsIn(
  ms: number,
  plan: Plan,
  maxBatchEntries = 500,
  onAlarm?: (kind: string) => void,
): Promise<{ requests: number; acked: number; errors: string[] }> {
  const ledger = Ledger.open({ file: ':memory:', terminalId: T });
  for (let i = 1; i <= 6; i++) ledger.append(billCredit(1 + (i % 7), 10_000, `np-${i}`));
  let requests = 0;
  const errors: string[] = [];
  const c = new SyncClient(ledger, {
    url: 'http://127.0.0.1:1',
    credentials: { terminalId: T, key: KEY },
    backoffBaseMs: 100,
    maxBatchEntries,
    random: () => 1,
    onError: (m) => errors.push(m),
    onAlarm: (a) => onAlarm?.(a.kind),
    fetch: async (_u, init) => {
      // As a socket answers: in a later turn of the event loop, never within the caller's.
      await new Promise((r) => setImmediate(r));
      return plan(requests++, JSON.parse(String(init?.body)) as { entries: { seq: number; hash: string }[] });
    },
  });
  c.start();
  await new Promise((r) => setTimeout(r, ms));
  await c.stop();
  const acked = syncAnchor(ledger).ackedSeq;
  ledger.close();
  return { requests, acked, errors };
}

const json = (status: number, v: unknown) => new Response(JSON.stringify(v), { status });

describe('an upstream whose answers never move the acknowledgement on', () => {
  it('a 200 acknowledging entry 0 (the genesis hash) every time: a failed sync, waited out', async () => {
    const r = await requestsIn(700, () => json(200, { ackedSeq: 0, headHash: genesisHash(T) }));
    assert.equal(r.acked, 0);
    assert.ok(r.requests <= 6, `${r.requests} requests in 0.7 s`);
    assert.match(r.errors[0] ?? '', /acknowledged entry 0 .*entries 1–6/);
  });

  it('a 409 gap at the head the table already holds, every time: a failed sync, waited out', async () => {
    const r = await requestsIn(700, () => json(409, { error: 'gap', ackedSeq: 0, headHash: genesisHash(T) }));
    assert.equal(r.acked, 0);
    assert.ok(r.requests <= 6, `${r.requests} requests in 0.7 s`);
  });

  it('a 200 for the whole batch, then one for none of it, and again: each short one waited out', async () => {
    const r = await requestsIn(
      700,
      (n, b) => {
        const last = b.entries[b.entries.length - 1]!;
        return n % 2 === 0 ? json(200, { ackedSeq: last.seq, headHash: last.hash }) : json(200, { ackedSeq: 0, headHash: genesisHash(T) });
      },
      2,
    );
    assert.ok(r.requests <= 8, `${r.requests} requests in 0.7 s`);
  });
});

describe('an upstream that rewinds the acknowledgement again and again', () => {
  it('a 409 gap at entry 0, then a 200 past the batch, and again: each rewind after the first waited out longer', async () => {
    const alarms: string[] = [];
    const r = await requestsIn(
      700,
      (n, b) => {
        const last = b.entries[b.entries.length - 1]!;
        return n % 2 === 0 ? json(200, { ackedSeq: last.seq, headHash: last.hash }) : json(409, { error: 'gap', ackedSeq: 0, headHash: genesisHash(T) });
      },
      2,
      (kind) => alarms.push(kind),
    );
    assert.ok(r.requests <= 10, `${r.requests} requests in 0.7 s`);
    assert.ok(alarms.length >= 1 && alarms.every((k) => k === 'ack-backwards'), JSON.stringify(alarms.slice(0, 3)));
  });
});
