import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger } from './ledger.js';
import { SyncClient } from './sync-client.js';

const KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * An upstream whose heartbeat and orders answers wait until the test lets them go (or the request
 * is aborted); ingest answers at once. It records each request's path and whether it was aborted.
 */
function slowUpstream() {
  const seen: { path: string; aborted: () => boolean }[] = [];
  const held: (() => void)[] = [];
  let arrived: (() => void) | null = null;
  const fetch: typeof globalThis.fetch = async (url, init) => {
    const path = new URL(String(url)).pathname;
    const signal = init?.signal ?? undefined;
    seen.push({ path, aborted: () => signal?.aborted ?? false });
    if (path === '/v1/ingest') return new Response('{"error":"boom"}', { status: 500 });
    arrived?.();
    await new Promise<void>((resolve, reject) => {
      held.push(resolve);
      signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });
    const answer = path === '/v1/heartbeat' ? { ok: true, serverTime: new Date().toISOString() } : { orders: [{ id: 'late' }] };
    return new Response(JSON.stringify(answer), { status: 200 });
  };
  const nextArrival = () => new Promise<void>((r) => (arrived = r));
  return { fetch, seen, release: () => held.splice(0).forEach((go) => go()), nextArrival };
}

function client(up: ReturnType<typeof slowUpstream>, orders: unknown[]) {
  const l = Ledger.open({ file: ':memory:', terminalId: 'C1' });
  return new SyncClient(l, {
    url: 'http://127.0.0.1:1',
    credentials: { terminalId: 'C1', key: KEY },
    fetch: up.fetch,
    requestTimeoutMs: 60_000,
    idleMs: 60_000,
    backoffBaseMs: 60_000,
    heartbeat: { snapshot: () => ({}), intervalMs: 60_000 },
    configOrders: (answer) => orders.push(answer),
  });
}

describe('sync client stop', () => {
  it('aborts a heartbeat under way, and stop waits for it', async () => {
    const up = slowUpstream();
    const c = client(up, []);
    const arrived = up.nextArrival();
    c.start();
    await arrived;
    const t0 = Date.now();
    await c.stop();
    assert.ok(Date.now() - t0 < 5_000, 'stop did not wait out the request timeout');
    const beat = up.seen.find((s) => s.path === '/v1/heartbeat');
    assert.ok(beat, 'a heartbeat was sent');
    assert.equal(beat.aborted(), true, 'the heartbeat under way was aborted by stop');
  });

  it('hands no orders over once stopped, nor asks for them', async () => {
    const up = slowUpstream();
    const orders: unknown[] = [];
    const c = client(up, orders);
    const arrived = up.nextArrival();
    c.start();
    await arrived;
    // The heartbeat's answer comes as the client stops: the orders after it are never asked.
    const stopped = c.stop();
    up.release();
    await stopped;
    up.release();
    await new Promise((r) => setTimeout(r, 50));
    up.release();
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(
      up.seen.filter((s) => s.path === '/v1/config-orders').map((s) => s.path),
      [],
      'no orders asked for after stop',
    );
    assert.deepEqual(orders, [], 'no orders handed over after stop');
  });
});
