import { PROTOCOL_VERSION } from '../../protocol/index.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { decodeHostMessage, MAX_MESSAGE_BYTES, ViewComposer, type HostMessage, type ViewName } from '../../protocol/index.js';
import { startHost, type RunningHost } from '../../host/start-host.js';

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/**
 * A WebSocket client that queues host messages so a test can await them in order. The public
 * parts a station's view comes with (round and panel, whole or as patches, in any order beside
 * its own part) are left out: these tests look at the station's own part, acks and errors.
 * `latest()` is the station's view as a screen puts it together (protocol 4: patches applied).
 */
async function connect(url: string, origin?: string, view: ViewName = 'station/1') {
  const ws = new WebSocket(url, origin ? { origin } : {});
  const queue: HostMessage[] = [];
  const waiters: ((m: HostMessage) => void)[] = [];
  const composer = new ViewComposer(view);
  ws.on('message', (data) => {
    const d = decodeHostMessage(data.toString());
    assert.ok(d.ok, 'the host sent a message that fails its own schema');
    composer.take(d.message);
    if (d.message.type === 'public' || d.message.type === 'public-patch') return;
    const w = waiters.shift();
    if (w) w(d.message);
    else queue.push(d.message);
  });
  const closedWith = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const closed = closedWith.then((c) => c.code);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    send: (m: unknown) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
    next: () =>
      new Promise<HostMessage>((resolve) => {
        const m = queue.shift();
        if (m) resolve(m);
        else waiters.push(resolve);
      }),
    closed,
    closedWith,
    /** Every message received and not yet taken (after the close: all the host said). */
    drain: () => queue.splice(0),
    close: () => ws.close(),
    latest: () => composer.latest(),
  };
}

describe('table host server', () => {
  let running: RunningHost;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'host-test-'));
    running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'no-renderer'), logger: pino({ level: 'silent' }) });
  });
  after(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the health endpoint on loopback', async () => {
    const r = await get(`${running.origin}/healthz`);
    assert.equal(r.status, 200);
    const body = JSON.parse(r.body) as { status: string; tableId: string };
    assert.equal(body.status, 'ok');
    assert.equal(body.tableId, 'SIM-BJ-01');
    assert.match(running.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses a request naming a foreign host (DNS rebinding)', async () => {
    const r = await get(`${running.origin}/healthz`, { Host: 'evil.example:80' });
    assert.equal(r.status, 421);
  });

  it('gives each screen a URL with its own token', () => {
    const views = running.screens.urls.map((s) => s.view);
    assert.deepEqual(views.slice(0, 2), ['table', 'station/1']);
    assert.equal(new Set(running.screens.urls.map((s) => s.token)).size, running.screens.urls.length);
  });

  it('plays hello → subscribe → command → ack over a real WebSocket', async () => {
    const screen = running.screens.urls.find((s) => s.view === 'station/1');
    assert.ok(screen);
    const c = await connect(`${running.origin.replace('http', 'ws')}/ws`, running.origin);
    c.send({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: screen.token });
    assert.equal((await c.next()).type, 'welcome');
    c.send({ type: 'subscribe', id: 's', view: 'station/1' });
    const snap = await c.next();
    assert.equal(snap.type, 'snapshot');
    if (snap.type !== 'snapshot') return;
    assert.equal(snap.state.kind, 'station');
    c.send({ type: 'command', id: 'c', view: 'station/1', version: snap.version, command: { name: 'set-language', language: 'pt' } });
    const pushed = await c.next();
    assert.deepEqual(pushed.type === 'patch' && pushed.ops, [['set', ['language'], 'pt']], 'what changed, as a patch');
    assert.equal(c.latest()?.language, 'pt');
    assert.deepEqual(await c.next(), { type: 'ack', ref: 'c', view: 'station/1', version: snap.version + 1 });
    c.send('not json');
    const err = await c.next();
    assert.equal(err.type === 'error' && err.code, 'invalid-json');
    c.close();
  });

  it("shows a station the credit its ledger holds, and no other station's", async () => {
    const r = running.ledger.append({
      type: 'bill.credit',
      payload: { station: 2, device: 'BA-2', denomination: 50_000, currency: 'MOP' },
      txId: 'host-test-note-1',
    });
    assert.equal(r.status, 'appended');
    const states = [];
    for (const view of ['station/1', 'station/2'] as const) {
      const screen = running.screens.urls.find((s) => s.view === view);
      assert.ok(screen);
      const c = await connect(`${running.origin.replace('http', 'ws')}/ws`, running.origin);
      c.send({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: screen.token });
      await c.next();
      c.send({ type: 'subscribe', id: 's', view });
      const snap = await c.next();
      c.close();
      assert.equal(snap.type, 'snapshot');
      if (snap.type === 'snapshot') states.push(snap.state);
    }
    assert.deepEqual(
      states.map((s) => (s.kind === 'station' ? [s.station, s.credit] : null)),
      [
        [1, 0],
        [2, 50_000],
      ],
    );
  });

  it('tells a flooding station, then drops it (1008), while another station keeps being served and nothing is journalled', async () => {
    const url = `${running.origin.replace('http', 'ws')}/ws`;
    const greet = async (view: 'station/4' | 'station/5') => {
      const screen = running.screens.urls.find((s) => s.view === view);
      assert.ok(screen);
      const c = await connect(url, running.origin, view);
      c.send({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: screen.token });
      assert.equal((await c.next()).type, 'welcome');
      c.send({ type: 'subscribe', id: 's', view });
      const snap = await c.next();
      assert.equal(snap.type, 'snapshot');
      return { c, version: snap.type === 'snapshot' ? snap.version : 0 };
    };
    const flood = await greet('station/4');
    const other = await greet('station/5');
    const head = running.ledger.headOf().seq;
    for (let i = 0; i < 5000; i++)
      flood.c.send({
        type: 'command',
        id: `b${i}`,
        view: 'station/4',
        version: flood.version,
        command: { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 },
      });
    // Dropped by whichever limit it reaches first: the message rate, or (when the rate bucket
    // refills while the host works through the burst, as under load) the budget of refused
    // commands, every bet here being over the credit. Either way it was told before the close.
    const { code, reason } = await flood.c.closedWith;
    assert.equal(code, 1008);
    const told: HostMessage[] = flood.c.drain();
    if (reason === 'too many refused commands') {
      const last = told.at(-1);
      assert.equal(last?.type === 'error' && last.messageKey, 'refusals.over-credit');
    } else {
      assert.ok(
        told.some((m) => m.type === 'error' && m.messageKey === 'errors.rate-limited'),
        `told it was over the rate before the close (${reason})`,
      );
    }
    // The simulated shoe's burn cards may be journalled meanwhile (under load the flood outlasts
    // the host's start): nothing of station 4's is.
    const since = Array.from({ length: running.ledger.headOf().seq - head }, (_, i) => running.ledger.entry(head + 1 + i));
    assert.deepEqual(
      since.filter((e) => e === undefined || e.type === 'bet.place' || e.body.includes('"kind":"place-bet"')),
      [],
      'the flood journalled nothing',
    );
    other.c.send({ type: 'command', id: 'c', view: 'station/5', version: other.version, command: { name: 'set-language', language: 'en' } });
    const pushed = await other.c.next();
    assert.deepEqual(pushed.type === 'patch' && pushed.ops, [['set', ['language'], 'en']]);
    assert.deepEqual(await other.c.next(), { type: 'ack', ref: 'c', view: 'station/5', version: other.version + 1 });
    assert.equal((await get(`${running.origin}/healthz`)).status, 200);
    other.c.close();
  });

  it('refuses an oversized message with a typed error, and closes on a frame too large to read (1009)', async () => {
    const c = await connect(`${running.origin.replace('http', 'ws')}/ws`, running.origin);
    c.send('x'.repeat(MAX_MESSAGE_BYTES + 1));
    const err = await c.next();
    assert.equal(err.type === 'error' && err.code, 'oversized');
    c.send('x'.repeat(4 * MAX_MESSAGE_BYTES + 1));
    assert.equal(await c.closed, 1009);
  });

  it('closes a WebSocket opened by a page of another origin', async () => {
    const c = await connect(`${running.origin.replace('http', 'ws')}/ws`, 'https://evil.example');
    assert.equal(await c.closed, 1008);
  });
});

describe('simulated bill acceptor through the real driver', () => {
  let running: RunningHost;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'host-bills-'));
    running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'no-renderer'), logger: pino({ level: 'silent' }) });
  });
  after(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('credits a station for an inserted note: journalled escrow, then credit, then the screen sees it', async () => {
    const screen = running.screens.urls.find((s) => s.view === 'station/3');
    assert.ok(screen);
    const c = await connect(`${running.origin.replace('http', 'ws')}/ws`, running.origin, 'station/3');
    c.send({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: screen.token });
    await c.next();
    c.send({ type: 'subscribe', id: 's', view: 'station/3' });
    const first = await c.next();
    assert.equal(first.type === 'snapshot' && first.state.kind === 'station' && first.state.credit, 0);

    const sim = running.devices.billAcceptors.simulator(3);
    assert.ok(sim, 'station 3 is simulated');
    // The driver enables the acceptor once connected; insert when the device reports ready.
    for (let i = 0; i < 200 && running.devices.billAcceptors.statuses()[2]?.state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 25));
    sim.insertNote(500);

    // Round snapshots (the betting countdown) come too; the credit arrives in one of them.
    let credited = false;
    for (let i = 0; i < 200 && !credited; i++) {
      await c.next();
      const v = c.latest();
      credited = v?.kind === 'station' && v.credit === 50_000;
    }
    assert.ok(credited, 'the station screen was pushed its new credit');
    c.close();

    assert.equal(running.ledger.credit(3), 50_000);
    assert.deepEqual(sim.cashbox, [500]);
    const types: string[] = [];
    for (let seq = 1; seq <= running.ledger.headOf().seq; seq++) types.push(running.ledger.entry(seq)?.type ?? '?');
    // The shoe's progress (its load, the burns read meanwhile) is journalled too; money entries in order.
    assert.deepEqual(
      types.filter((t) => t.startsWith('bill.') || t === 'power.reset'),
      ['power.reset', 'bill.escrow', 'bill.credit'],
    );
  });
});

describe('power resets', () => {
  it('journals every start, and says when the previous run did not stop cleanly', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'host-power-'));
    const start = () => startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: pino({ level: 'silent' }) });
    const resets = (h: RunningHost) => {
      const out: boolean[] = [];
      for (let seq = 1; seq <= h.ledger.headOf().seq; seq++) {
        const e = h.ledger.entry(seq);
        if (e?.type === 'power.reset') out.push((JSON.parse(e.body) as { payload: { clean: boolean } }).payload.clean);
      }
      return out;
    };
    try {
      await (await start()).close();
      await (await start()).close();
      // A kill leaves the marker behind.
      writeFileSync(path.join(dir, 'host.running'), '12345\n');
      const third = await start();
      assert.deepEqual(resets(third), [true, true, false]);
      await third.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
