// The station agent's screen relay between a table that loses and garbles what it sends and the
// station's browser: the relay applies every patch to its own copy of the view, passes on only
// what applied, asks the table for a part whole when a patch does not follow (once, until the
// retry time is out), and the browser behind it ends with the table's view.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import {
  decodeHostMessage,
  PROTOCOL_VERSION,
  stationView,
  ViewComposer,
  type HostMessage,
  type CardFace,
  type RoundView,
  type StationOwnState,
} from '../../protocol/index.js';
import { agentEnrolment } from './test-enrolment.js';
import { startScreenRelay } from './screen-relay.js';

const VIEW = stationView(101);
const enrolment = agentEnrolment(101);

const own: StationOwnState = {
  kind: 'station',
  station: 101,
  game: 'baccarat',
  currency: 'MOP',
  limits: { min: 10_000, max: 500_000 },
  language: 'en',
  credit: 100_000,
  betting: { open: true, spots: [{ bet: 'banker', min: 10_000, max: 500_000 }], bets: [] },
  decision: null,
};
const round = (cards: CardFace[]): RoundView => ({
  roundId: 'r1',
  phase: cards.length ? 'dealing' : 'betting',
  endsAt: null,
  cue: null,
  hands: [{ owner: 'player', cards, total: cards.length }],
  results: null,
  hold: null,
});

/** A table that says exactly what the test tells it to, and hears what the relay sends it. */
async function fakeTable() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const heard: { type: string; parts?: string[] }[] = [];
  let socket: WebSocket | null = null;
  const connected = new Promise<void>((resolve) =>
    server.on('connection', (ws) => {
      socket = ws;
      ws.on('message', (d) => heard.push(JSON.parse(String(d)) as { type: string; parts?: string[] }));
      resolve();
    }),
  );
  return {
    port,
    heard,
    connected,
    send: (m: HostMessage | string) => socket?.send(typeof m === 'string' ? m : JSON.stringify(m)),
    close: () => {
      for (const c of server.clients) c.terminate();
      server.close();
    },
  };
}

describe('the station agent’s screen relay', () => {
  it('passes on only patches that follow what it passed before, asks the table for a part lost on the way, and the screen behind it ends with the table’s view', async () => {
    const table = await fakeTable();
    const relay = await startScreenRelay({
      tables: [{ enrolment, connect: () => new WebSocket(`ws://127.0.0.1:${table.port}`) }],
      log: pino({ level: 'silent' }),
      rendererDir: '/nonexistent',
    });
    const browser = new WebSocket(`ws://127.0.0.1:${relay.port}/ws`, { origin: `http://127.0.0.1:${relay.port}` });
    const got: HostMessage[] = [];
    const screen = new ViewComposer(VIEW);
    browser.on('message', (d) => {
      const m = decodeHostMessage(String(d));
      assert.ok(m.ok, `the relay passed on a message that fails its schema: ${String(d)}`);
      got.push(m.message);
      screen.take(m.message);
    });
    // Until the relay has passed on what the test waits for (a loaded machine takes its time), then a little longer.
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, 100));
    };
    try {
      await once(browser, 'open');
      browser.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: relay.token }));
      browser.send(JSON.stringify({ type: 'subscribe', id: 's', view: VIEW }));
      await table.connected;
      await until(() => table.heard.length >= 2);
      assert.deepEqual(
        table.heard.map((m) => m.type),
        ['hello-station', 'subscribe'],
        'the table hears the station’s credential in the browser’s place',
      );
      table.send({ type: 'welcome', ref: 'h', protocol: PROTOCOL_VERSION, session: 's1', view: VIEW });
      table.send({ type: 'public', part: 'round', version: 1, state: round([]) });
      table.send({ type: 'snapshot', view: VIEW, version: 1, state: own });
      table.send({ type: 'public-patch', part: 'round', version: 2, ops: [['splice', ['hands', 0, 'cards'], 0, 0, ['AS']]] });
      // Version 3 lost on the way: 4 does not follow what the relay holds.
      table.send({ type: 'public-patch', part: 'round', version: 4, ops: [['splice', ['hands', 0, 'cards'], 2, 0, ['9H']]] });
      // Garbage, a message outside the schema, and a patch that follows but does not fit.
      table.send('{"type":"public-patch",');
      table.send(JSON.stringify({ type: 'snapshot', view: VIEW, version: 9, state: { kind: 'station', credit: -1 } }));
      table.send({ type: 'patch', view: VIEW, version: 2, ops: [['set', ['betting', 'nothing', 'here'], 1]] });
      // A patch that fits but makes a state the schema refuses (money is never fractional).
      table.send({ type: 'patch', view: VIEW, version: 2, ops: [['set', ['credit'], 10.5]] });
      await until(() => got.length >= 4 && table.heard.filter((m) => m.type === 'resync').length >= 2);
      assert.deepEqual(
        got.map((m) => m.type),
        ['welcome', 'public', 'snapshot', 'public-patch'],
        'only what applied to the relay’s copy reached the screen',
      );
      const asked = table.heard.filter((m) => m.type === 'resync');
      assert.deepEqual(
        asked.map((m) => m.parts),
        [['round'], ['own']],
        'the relay asked the table for each part it lost, once',
      );
      // The table answers with the parts whole; the patches after them pass again.
      table.send({ type: 'public', part: 'round', version: 4, state: round(['AS', 'TD', '9H']) });
      table.send({ type: 'snapshot', view: VIEW, version: 1, state: own });
      table.send({ type: 'public-patch', part: 'round', version: 5, ops: [['set', ['phase'], 'results']] });
      table.send({ type: 'patch', view: VIEW, version: 2, ops: [['set', ['credit'], 90_000]] });
      await until(() => got.length >= 8);
      assert.deepEqual(screen.latest(), { ...own, credit: 90_000, round: { ...round(['AS', 'TD', '9H']), phase: 'results' } });
      // The browser's own messages still pass to the table as they are.
      browser.send(JSON.stringify({ type: 'resync', id: 'x', view: VIEW, parts: ['panel'] }));
      await until(() => table.heard.at(-1)?.type === 'resync' && table.heard.length > 4);
      assert.deepEqual(table.heard.at(-1), { type: 'resync', id: 'x', view: VIEW, parts: ['panel'] });
    } finally {
      browser.close();
      await relay.close();
      table.close();
    }
  });
});
