import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainHash, genesisHash, sha256Hex } from './canonical.js';
import { billCredit, settledRound } from './fixtures.js';
import { Ledger } from './ledger.js';
import { syncAnchor } from './outbox.js';
import { SyncClient } from './sync-client.js';

const KEY = Buffer.alloc(32, 7).toString('base64');

/** An in-memory upstream that follows the ingest protocol, with hooks to misbehave. */
class FakeUpstream {
  stored: { seq: number; hash: string }[] = [];
  requests: { first: number; count: number; bytes: number }[] = [];
  fail: (n: number) => 'ok' | 'network' | 500 | 'lose-ack' | 'divergence' = () => 'ok';
  fetch: typeof fetch = async (_url, init) => {
    const text = String(init?.body);
    const body = JSON.parse(text) as { terminalId: string; prevHash: string; entries: { seq: number; hash: string; body: string }[] };
    const n = this.requests.length;
    this.requests.push({ first: body.entries[0]?.seq ?? 0, count: body.entries.length, bytes: text.length });
    const mode = this.fail(n);
    if (mode === 'network') throw new TypeError('fetch failed');
    if (mode === 500) return new Response('{"error":"boom"}', { status: 500 });
    const head = this.stored.length;
    const headHash = head ? this.stored[head - 1]!.hash : genesisHash(body.terminalId);
    if (mode === 'divergence') return new Response(JSON.stringify({ error: 'divergence', seq: 1, ackedSeq: head, headHash }), { status: 409 });
    const first = body.entries[0]!.seq;
    if (first > head + 1) return new Response(JSON.stringify({ error: 'gap', ackedSeq: head, headHash }), { status: 409 });
    let prev = first === 1 ? genesisHash(body.terminalId) : this.stored[first - 2]!.hash;
    assert.equal(body.prevHash, prev);
    for (const e of body.entries) {
      assert.equal(chainHash(prev, sha256Hex(e.body)), e.hash);
      prev = e.hash;
      if (e.seq <= this.stored.length) assert.equal(this.stored[e.seq - 1]!.hash, e.hash, 'a resent entry is identical');
      else this.stored.push({ seq: e.seq, hash: e.hash });
    }
    const last = this.stored[this.stored.length - 1]!;
    if (mode === 'lose-ack') throw new TypeError('socket hang up');
    return new Response(JSON.stringify({ ackedSeq: last.seq, headHash: last.hash }), { status: 200 });
  };
}

function kiosk(rounds = 6, clock?: () => Date): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'C1', ...(clock ? { clock } : {}) });
  for (let s = 1; s <= 7; s++) l.append(billCredit(s, 100_000, `b${s}`));
  for (let i = 0; i < rounds; i++) {
    const { bets, settle } = settledRound(`r${i}`, [1, 2, 3, 4, 5, 6, 7], 100, i);
    l.appendMany([...bets, settle]);
  }
  return l;
}

async function drain(c: SyncClient): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < 500; i++) {
    const r = await c.syncOnce();
    out.push(r);
    if (r === 'empty') return out;
  }
  return out;
}

describe('sync client', () => {
  it('sends batches bounded by entry count and by bytes, in order', async () => {
    const l = kiosk();
    const up = new FakeUpstream();
    const c = new SyncClient(l, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: 'C1', key: KEY },
      fetch: up.fetch,
      maxBatchEntries: 9,
      maxBatchBytes: 4000,
    });
    await drain(c);
    assert.equal(up.stored.length, l.headOf().seq);
    assert.ok(up.requests.every((r) => r.count <= 9));
    assert.ok(
      up.requests.every((r) => r.bytes <= 4000 + 2000 || r.count === 1),
      'byte limit (one big entry may exceed it alone)',
    );
    assert.ok(
      up.requests.some((r) => r.count < 9 && r.first + r.count <= l.headOf().seq),
      'some batches were cut by bytes, not count',
    );
    for (let i = 1; i < up.requests.length; i++) assert.equal(up.requests[i]!.first, up.requests[i - 1]!.first + up.requests[i - 1]!.count);
    assert.equal(syncAnchor(l).ackedSeq, l.headOf().seq);
    assert.equal(c.status().lagEntries, 0);
  });

  it('resends from the last acknowledgement after network errors, 500s and lost acks: each entry once upstream', async () => {
    const l = kiosk();
    const up = new FakeUpstream();
    const modes = ['network', 'ok', 500, 'lose-ack', 'ok', 'lose-ack', 'network'] as const;
    up.fail = (n) => modes[n % modes.length]!;
    const c = new SyncClient(l, { url: 'http://127.0.0.1:1', credentials: { terminalId: 'C1', key: KEY }, fetch: up.fetch, maxBatchEntries: 5 });
    const results = await drain(c);
    assert.ok(results.includes('failed'));
    assert.deepEqual(
      up.stored.map((e) => e.seq),
      Array.from({ length: l.headOf().seq }, (_, i) => i + 1),
    );
    // After a lost ack the client resent from its own last ack, so the upstream saw a retry.
    const firsts = up.requests.map((r) => r.first);
    assert.ok(
      firsts.some((f, i) => i > 0 && f === firsts[i - 1]),
      'the same batch was sent again',
    );
    assert.equal(c.status().lastError, null, 'a success clears the last error');
  });

  it('holds the stream and raises an alarm on divergence; resumes when the upstream agrees again', async () => {
    const l = kiosk(1);
    const up = new FakeUpstream();
    up.fail = () => 'divergence';
    const alarms: string[] = [];
    const c = new SyncClient(l, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: 'C1', key: KEY },
      fetch: up.fetch,
      onAlarm: (a) => alarms.push(a.kind),
    });
    assert.equal(await c.syncOnce(), 'failed');
    assert.deepEqual(alarms, ['upstream-409']);
    assert.match(c.status().lastError ?? '', /409/);
    assert.equal(syncAnchor(l).ackedSeq, 0);
    up.fail = () => 'ok';
    await drain(c);
    assert.equal(up.stored.length, l.headOf().seq);
  });

  it('rewinds to the upstream head when the upstream lost entries it had acknowledged (restored backup)', async () => {
    const l = kiosk(2);
    const up = new FakeUpstream();
    const c = new SyncClient(l, { url: 'http://127.0.0.1:1', credentials: { terminalId: 'C1', key: KEY }, fetch: up.fetch });
    await drain(c);
    up.stored = up.stored.slice(0, 5);
    const { bets, settle } = settledRound('late', [1], 100);
    l.appendMany([...bets, settle]);
    await drain(c);
    assert.deepEqual(
      up.stored.map((e) => e.seq),
      Array.from({ length: l.headOf().seq }, (_, i) => i + 1),
    );
    assert.equal(syncAnchor(l).ackedSeq, l.headOf().seq);
  });

  it('raises an alarm when the kiosk ledger was rolled back behind what the upstream acknowledged', async () => {
    const up = new FakeUpstream();
    // A fixed clock makes the shorter ledger an exact prefix of the longer one.
    const clock = () => new Date('2025-01-01T00:00:00Z');
    const full = kiosk(3, clock);
    await drain(new SyncClient(full, { url: 'http://127.0.0.1:1', credentials: { terminalId: 'C1', key: KEY }, fetch: up.fetch }));
    // An older copy of the same terminal's ledger (restored backup, swapped disk).
    const old = kiosk(1, clock);
    const alarms: string[] = [];
    const c = new SyncClient(old, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: 'C1', key: KEY },
      fetch: up.fetch,
      onAlarm: (a) => alarms.push(a.kind),
    });
    assert.equal(await c.syncOnce(), 'failed');
    assert.deepEqual(alarms, ['ack-mismatch']);
    assert.equal(syncAnchor(old).ackedSeq, 0, 'nothing acknowledged that this ledger does not hold');
  });

  it('raises the stop-new-bets signal past the limit and keeps every entry', async () => {
    const l = kiosk(1);
    const up = new FakeUpstream();
    up.fail = () => 500;
    const signals: boolean[] = [];
    const c = new SyncClient(l, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: 'C1', key: KEY },
      fetch: up.fetch,
      limits: { maxUnsyncedEntries: 10 },
      onStopNewBets: (s) => signals.push(s),
      backoffBaseMs: 1,
      backoffCapMs: 2,
      idleMs: 5,
    });
    c.start();
    while (signals.length === 0) await new Promise((r) => setTimeout(r, 5));
    assert.equal(c.status().stopNewBets, true);
    up.fail = () => 'ok';
    while (signals.length < 2) await new Promise((r) => setTimeout(r, 5));
    await c.stop();
    assert.deepEqual(signals, [true, false]);
    assert.equal(up.stored.length, l.headOf().seq);
  });

  it('a stop-new-bets signal whose receiver throws (its fault refused by a full journal): the loop goes on, the signal given again, the throw reported (a review of 2 December, H4)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const l = kiosk(1);
      const up = new FakeUpstream();
      up.fail = () => 500;
      const signals: boolean[] = [];
      const thrown: unknown[] = [];
      let refuse = 1;
      const c = new SyncClient(l, {
        url: 'http://127.0.0.1:1',
        credentials: { terminalId: 'C1', key: KEY },
        fetch: up.fetch,
        limits: { maxUnsyncedEntries: 10 },
        onStopNewBets: (s) => {
          signals.push(s);
          if (refuse-- > 0) throw new Error('SQLITE_FULL: database or disk is full');
        },
        onCallbackError: (e) => void thrown.push(e),
        backoffBaseMs: 1,
        backoffCapMs: 2,
        idleMs: 5,
      });
      c.start();
      for (let i = 0; i < 400 && signals.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
      up.fail = () => 'ok';
      for (let i = 0; i < 400 && signals.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
      await c.stop();
      assert.deepEqual(signals, [true, true, false], 'given again after the throw, then the loop went on to sync');
      assert.equal(thrown.length, 1);
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('reports lag in entries and seconds', () => {
    let now = new Date('2025-01-01T00:00:00Z');
    const l = Ledger.open({ file: ':memory:', terminalId: 'C1', clock: () => now });
    l.append(billCredit(1, 100, 'a'));
    now = new Date('2025-01-01T00:01:30Z');
    l.append(billCredit(1, 100, 'b'));
    const c = new SyncClient(l, { url: 'https://upstream.example', credentials: { terminalId: 'C1', key: KEY }, now: () => now });
    assert.deepEqual([c.status().lagEntries, c.status().lagSeconds], [2, 90]);
  });

  it('refuses plain http off loopback and credentials of another terminal', () => {
    const l = kiosk(0);
    assert.throws(() => new SyncClient(l, { url: 'http://upstream.example', credentials: { terminalId: 'C1', key: KEY } }), /https/);
    assert.throws(() => new SyncClient(l, { url: 'https://upstream.example', credentials: { terminalId: 'C2', key: KEY } }), /terminal/);
  });

  it('waits after a failure as engine/backoff.ts says, all of the wait drawn with the random it is given (full jitter)', async () => {
    // Base and cap of a minute: a draw of 0 tries again at once, a draw of one half waits 30 s.
    // A draw of 0 is watched until its third try (10 s at most, so a loaded machine is not
    // mistaken for a wait); a draw of one half for 300 ms, in which a 30 s wait allows one try.
    const posts = async (draw: number, until: (tries: number) => boolean, withinMs: number): Promise<{ posts: number; draws: number }> => {
      const up = new FakeUpstream();
      up.fail = () => 500;
      let draws = 0;
      const c = new SyncClient(kiosk(1), {
        url: 'http://127.0.0.1:1',
        credentials: { terminalId: 'C1', key: KEY },
        fetch: up.fetch,
        backoffBaseMs: 60_000,
        backoffCapMs: 60_000,
        random: () => {
          draws++;
          return draw;
        },
      });
      c.start();
      const deadline = Date.now() + withinMs;
      while (!until(up.requests.length) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await c.stop();
      return { posts: up.requests.length, draws };
    };
    const atOnce = await posts(0, (n) => n >= 3, 10_000);
    assert.ok(atOnce.posts >= 3, `only ${atOnce.posts} tries in 10 s with no wait between them`);
    assert.ok(atOnce.draws >= atOnce.posts - 1, 'one draw a wait');
    assert.deepEqual(await posts(0.5, () => false, 300), { posts: 1, draws: 1 });
  });
});

describe("sync client: the upstream's answers checked against the wire contract", () => {
  const answering =
    (status: number, body: string): typeof fetch =>
    async () =>
      new Response(body, { status });

  it('acknowledges nothing on a 200 that is not an acknowledgement, and says what does not fit', async () => {
    const l = kiosk(1);
    for (const body of ['{"ackedSeq":3,"headHash":"not hex"}', '{"ackedSeq":-1,"headHash":"' + 'a'.repeat(64) + '"}', '{"ok":true}', 'OK']) {
      const c = new SyncClient(l, { url: 'http://127.0.0.1:1', credentials: { terminalId: 'C1', key: KEY }, fetch: answering(200, body) });
      const alarms: string[] = [];
      const c2 = new SyncClient(l, {
        url: 'http://127.0.0.1:1',
        credentials: { terminalId: 'C1', key: KEY },
        fetch: answering(200, body),
        onAlarm: (a) => alarms.push(a.kind),
      });
      assert.equal(await c.syncOnce(), 'failed', body);
      assert.equal(await c2.syncOnce(), 'failed', body);
      assert.equal(syncAnchor(l).ackedSeq, 0);
      assert.deepEqual(alarms, [], 'a garbled answer is retried, not an alarm');
    }
    const c = new SyncClient(l, { url: 'http://127.0.0.1:1', credentials: { terminalId: 'C1', key: KEY }, fetch: answering(200, '{"ackedSeq":"3"}') });
    await c.syncOnce();
    assert.match(c.status().lastError ?? '', /wire contract: ackedSeq: /);
  });

  it('reads an answer only up to 4 MiB: a larger one (64 MiB, or a length said above it) is a failed request, not read to its end', async () => {
    const l = kiosk(1);
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const endless: typeof fetch = async () => {
      pulled = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= 64 * 1024 * 1024) return controller.close();
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      return new Response(body, { status: 200 });
    };
    const c = new SyncClient(l, { url: 'http://127.0.0.1:1', credentials: { terminalId: 'C1', key: KEY }, fetch: endless });
    assert.equal(await c.syncOnce(), 'failed');
    console.log('bytes read of a 64 MiB answer:', pulled, c.status().lastError);
    assert.ok(pulled <= 4 * 1024 * 1024 + 2 * chunk.byteLength, String(pulled));
    assert.deepEqual(c.status().lastErrorReason, { reason: 'badAnswer' });
    assert.match(c.status().lastError ?? '', /more than 4194304 bytes/);
    assert.equal(syncAnchor(l).ackedSeq, 0);
    const said: typeof fetch = async () => new Response('{}', { status: 200, headers: { 'content-length': String(5 * 1024 * 1024) } });
    const d = new SyncClient(l, { url: 'http://127.0.0.1:1', credentials: { terminalId: 'C1', key: KEY }, fetch: said });
    assert.equal(await d.syncOnce(), 'failed');
    assert.match(d.status().lastError ?? '', /more than 4194304 bytes/);
  });

  it('says why a sync failed as a reason in codes beside its text, and forgets it at the next success', async () => {
    const l = kiosk(1);
    const up = new FakeUpstream();
    const heard: string[] = [];
    const streaks: number[] = [];
    const c = new SyncClient(l, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: 'C1', key: KEY },
      fetch: up.fetch,
      onError: (message, reason, streak) => {
        heard.push(`${reason.reason}: ${message}`);
        streaks.push(streak);
      },
    });
    const cases: [ReturnType<typeof up.fail>, object][] = [
      ['network', { reason: 'unreachable' }],
      [500, { reason: 'refused', status: 500, error: 'boom' }],
      ['divergence', { reason: 'refused', status: 409, error: 'divergence' }],
    ];
    for (const [mode, reason] of cases) {
      up.fail = () => mode;
      assert.equal(await c.syncOnce(), 'failed', String(mode));
      assert.deepEqual(c.status().lastErrorReason, reason, String(mode));
      assert.ok(c.status().lastError, 'the text is kept for the log');
    }
    assert.equal(heard.length, 3);
    assert.match(heard[1] ?? '', /^refused: upstream answered 500: boom/);
    for (const [body, reason] of [
      ['{"ackedSeq":"3"}', 'badAnswer'],
      ['OK', 'badAnswer'],
    ] as const) {
      const other = new SyncClient(l, { url: 'http://127.0.0.1:1', credentials: { terminalId: 'C1', key: KEY }, fetch: answering(200, body) });
      await other.syncOnce();
      assert.deepEqual(other.status().lastErrorReason, { reason }, body);
    }
    const slow = new SyncClient(l, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: 'C1', key: KEY },
      fetch: () => Promise.reject(new DOMException('This operation was aborted', 'AbortError')),
    });
    await slow.syncOnce();
    assert.deepEqual(slow.status().lastErrorReason, { reason: 'timeout' });
    up.fail = () => 'ok';
    await drain(c);
    assert.equal(c.status().lastErrorReason, null, 'a success clears the reason as it clears the text');
    // The same failure after a success starts a new streak: the host logs its text again.
    up.fail = () => 'network';
    l.append(billCredit(1, 100_000, 'b-after'));
    assert.equal(await c.syncOnce(), 'failed');
    assert.deepEqual(streaks, [1, 2, 3, 1]);
  });

  it('takes a gap answer only when it names a sequence and a hash', async () => {
    const l = kiosk(1);
    const alarms: string[] = [];
    const c = new SyncClient(l, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: 'C1', key: KEY },
      fetch: answering(409, '{"error":"gap","ackedSeq":"x"}'),
      onAlarm: (a) => alarms.push(a.kind),
    });
    assert.equal(await c.syncOnce(), 'failed');
    assert.equal(syncAnchor(l).ackedSeq, 0);
    assert.deepEqual(alarms, ['upstream-409'], 'a 409 that is not a well-formed gap is a refusal: held for a technician');
  });

  it('sends a signed heartbeat carrying the health snapshot, and records the outcome', async () => {
    const l = kiosk(0);
    const seen: { url: string; headers: Record<string, string>; body: unknown }[] = [];
    const fetchHb: typeof fetch = async (url, init) => {
      seen.push({ url: String(url), headers: init?.headers as Record<string, string>, body: JSON.parse(String(init?.body)) });
      return new Response(JSON.stringify({ ok: true, serverTime: '2026-01-01T00:00:00.000Z' }), { status: 200 });
    };
    const c = new SyncClient(l, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: 'C1', key: KEY },
      fetch: fetchHb,
      heartbeat: { snapshot: () => ({ game: 'war', sync: { lagEntries: 0 } }) },
      now: () => new Date('2026-01-01T00:00:01.000Z'),
    });
    assert.equal(await c.sendHeartbeat(), true);
    assert.equal(seen[0]?.url, 'http://127.0.0.1:1/v1/heartbeat');
    assert.deepEqual(seen[0]?.body, { terminalId: 'C1', at: '2026-01-01T00:00:01.000Z', health: { game: 'war', sync: { lagEntries: 0 } } });
    assert.match(seen[0]?.headers['x-etg-signature'] ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(c.status().heartbeat, { at: '2026-01-01T00:00:01.000Z', ok: true, error: null });
    const bad = new SyncClient(l, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: 'C1', key: KEY },
      fetch: answering(200, '{"ok":"yes"}'),
      heartbeat: { snapshot: () => ({}) },
    });
    assert.equal(await bad.sendHeartbeat(), false);
    assert.match(bad.status().heartbeat?.error ?? '', /heartbeat acknowledgement does not fit/);
  });
});
