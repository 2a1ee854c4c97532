// A station agent's screen joined to two tables (issue 34 item 1), one of them hostile: each link
// hears its own station's credential; a table that speaks for a view that is not this station's
// there (another station's snapshot, a welcome for another view, a patch rewriting the station
// number, a table display's state naming another table) or floods the link is dropped, nothing of
// it reaches the screen, and the other table's link plays on. So does losing one table's link.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { PROTOCOL_VERSION, StationTables, stationView, type HostMessage, type StationOwnState } from '../../protocol/index.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { startScreenRelay } from './screen-relay.js';

const enrolment = (tableId: string, station: number, letter: string): EnrolmentFile => ({
  v: 1,
  tableId,
  station,
  secret: letter.repeat(43),
  host: 'https://127.0.0.1:1',
  certificate: 'c'.repeat(100),
  fingerprint: Array.from({ length: 32 }, () => 'AB').join(':'),
});
const HOME = enrolment('T-1', 101, 'a');
const OTHER = enrolment('T-2', 7, 'b');

const own = (station: number, credit: number): StationOwnState => ({
  kind: 'station',
  station,
  game: 'baccarat',
  currency: 'MOP',
  limits: { min: 10_000, max: 500_000 },
  language: 'en',
  credit,
  betting: { open: true, spots: [{ bet: 'banker', min: 10_000, max: 500_000 }], bets: [] },
  decision: null,
});

/** A table that says exactly what the test tells it to, to each connection, and hears what it is sent. */
async function fakeTable() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const heard: Record<string, unknown>[] = [];
  let socket: WebSocket | null = null;
  server.on('connection', (ws) => {
    socket = ws;
    ws.on('message', (d) => heard.push(JSON.parse(String(d)) as Record<string, unknown>));
  });
  return {
    heard,
    connect: () => new WebSocket(`ws://127.0.0.1:${port}`),
    send: (m: HostMessage | string) => socket?.send(typeof m === 'string' ? m : JSON.stringify(m)),
    dropAll: () => {
      for (const c of server.clients) c.terminate();
    },
    close: () => {
      for (const c of server.clients) c.terminate();
      server.close();
    },
  };
}

/** A screen's socket to the agent: what it was passed, and whether the agent closed it. */
async function screenLink(port: number, path: string, token: string, view: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { origin: `http://127.0.0.1:${port}` });
  const got: HostMessage[] = [];
  let closed = false;
  ws.on('message', (d) => got.push(JSON.parse(String(d)) as HostMessage));
  ws.on('close', () => (closed = true));
  await once(ws, 'open');
  ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token }));
  ws.send(JSON.stringify({ type: 'subscribe', id: 's', view }));
  return { ws, got, closed: () => closed };
}

/** Until `ok` holds (a loaded machine takes its time), then a little longer for what should not come. */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  await new Promise((r) => setTimeout(r, 100));
}

async function twoTables(flood?: { messages: number; bytes: number; windowMs: number }) {
  const home = await fakeTable();
  const other = await fakeTable();
  const relay = await startScreenRelay({
    tables: [
      { enrolment: HOME, connect: home.connect },
      { enrolment: OTHER, connect: other.connect },
    ],
    log: pino({ level: 'silent' }),
    rendererDir: '/nonexistent',
    ...(flood ? { flood } : {}),
  });
  const a = await screenLink(relay.port, '/ws/0', relay.token, stationView(101));
  const b = await screenLink(relay.port, '/ws/1', relay.token, stationView(7));
  await until(() => home.heard.length >= 2 && other.heard.length >= 2);
  home.send({ type: 'welcome', ref: 'h', protocol: PROTOCOL_VERSION, session: 's1', view: stationView(101) });
  home.send({ type: 'snapshot', view: stationView(101), version: 1, state: own(101, 50_000) });
  other.send({ type: 'welcome', ref: 'h', protocol: PROTOCOL_VERSION, session: 's2', view: stationView(7) });
  other.send({ type: 'snapshot', view: stationView(7), version: 1, state: own(7, 0) });
  await until(() => a.got.length >= 2 && b.got.length >= 2);
  const stop = async () => {
    a.ws.close();
    b.ws.close();
    await relay.close();
    home.close();
    other.close();
  };
  return { home, other, relay, a, b, stop };
}

/** The home table goes on: a patch of its credit reaches its link. */
async function homePlaysOn(t: Awaited<ReturnType<typeof twoTables>>): Promise<void> {
  const before = t.a.got.length;
  t.home.send({ type: 'patch', view: stationView(101), version: 2, ops: [['set', ['credit'], 40_000]] });
  await until(() => t.a.got.length > before);
  assert.deepEqual(t.a.got.at(-1), { type: 'patch', view: stationView(101), version: 2, ops: [['set', ['credit'], 40_000]] });
  assert.equal(t.a.closed(), false, 'the home table’s link is untouched');
}

describe('a station agent joined to several tables', () => {
  it('says which table each link is from the enrolments, only to the launch token, and each table hears its own station’s credential', async () => {
    const t = await twoTables();
    try {
      const listed = await fetch(`http://127.0.0.1:${t.relay.port}/tables?token=${t.relay.token}`);
      assert.equal(listed.status, 200);
      assert.deepEqual(StationTables.parse(await listed.json()), {
        tables: [
          { tableId: 'T-1', station: 101, home: true },
          { tableId: 'T-2', station: 7, home: false },
        ],
      });
      assert.equal((await fetch(`http://127.0.0.1:${t.relay.port}/tables?token=${'x'.repeat(32)}`)).status, 401);
      assert.deepEqual(t.home.heard[0], { type: 'hello-station', id: 'h', protocol: PROTOCOL_VERSION, station: 101, secret: HOME.secret });
      assert.deepEqual(t.other.heard[0], { type: 'hello-station', id: 'h', protocol: PROTOCOL_VERSION, station: 7, secret: OTHER.secret });
      assert.deepEqual(
        t.b.got.map((m) => m.type),
        ['welcome', 'snapshot'],
      );
    } finally {
      await t.stop();
    }
  });

  const lies: [string, (other: Awaited<ReturnType<typeof fakeTable>>) => void][] = [
    ['a snapshot of the home table’s station view', (o) => o.send({ type: 'snapshot', view: stationView(101), version: 2, state: own(101, 999_999) })],
    ['another station’s state under this station’s view', (o) => o.send({ type: 'snapshot', view: stationView(7), version: 2, state: own(101, 999_999) })],
    ['a welcome for another view', (o) => o.send({ type: 'welcome', ref: 'h', protocol: PROTOCOL_VERSION, session: 'x', view: stationView(101) })],
    ['a patch for another view', (o) => o.send({ type: 'patch', view: stationView(101), version: 2, ops: [['set', ['credit'], 999_999]] })],
    ['another view’s recall (protocol 5)', (o) => o.send({ type: 'recall', view: stationView(101), version: 1, rounds: [] })],
    ['a patch that rewrites the station number', (o) => o.send({ type: 'patch', view: stationView(7), version: 2, ops: [['set', ['station'], 101]] })],
    [
      'a table display’s state naming the home table',
      (o) =>
        o.send({
          type: 'snapshot',
          view: stationView(7),
          version: 2,
          state: {
            kind: 'table',
            tableId: 'T-1',
            game: 'baccarat',
            profile: 'macau-baccarat',
            currency: 'MOP',
            limits: { min: 10_000, max: 500_000 },
            language: 'en',
            seats: [{ seat: 1, station: null }],
            round: null,
          },
        }),
    ],
  ];
  for (const [lie, tell] of lies)
    it(`drops a table that sends ${lie}: nothing of it reaches the screen, the home table plays on`, async () => {
      const t = await twoTables();
      try {
        const before = t.b.got.length;
        tell(t.other);
        await until(() => t.b.closed());
        assert.equal(t.b.closed(), true, 'the lying table’s screen link is closed');
        assert.equal(t.b.got.length, before, 'nothing of the lie reached the screen');
        assert.ok(
          t.a.got.every((m) => m.type !== 'snapshot' || (m.state.kind === 'station' && m.state.station === 101 && m.state.credit === 50_000)),
          'the home table’s link shows only the home table’s word',
        );
        await homePlaysOn(t);
      } finally {
        await t.stop();
      }
    });

  it('drops a table that floods its link, and the home table plays on', async () => {
    const t = await twoTables({ messages: 50, bytes: 1 << 20, windowMs: 60_000 });
    try {
      for (let v = 2; v < 500; v++) t.other.send({ type: 'patch', view: stationView(7), version: v, ops: [['set', ['credit'], v]] });
      await until(() => t.b.closed());
      assert.equal(t.b.closed(), true, 'the flooding table’s link is dropped');
      assert.ok(t.b.got.length <= 50, `at most the flood limit passed (${t.b.got.length})`);
      await homePlaysOn(t);
    } finally {
      await t.stop();
    }
  });

  it('loses one table’s link and plays on at the other', async () => {
    const t = await twoTables();
    try {
      t.other.dropAll();
      await until(() => t.b.closed());
      assert.equal(t.b.closed(), true, 'the lost table’s screen link is closed (the screen dials it again)');
      await homePlaysOn(t);
    } finally {
      await t.stop();
    }
  });
});
