// Issue 28 item 6, "Stale or rejected commands never count toward a disconnect": a screen that
// keeps sending commands the host refuses as stale (an old view version) or rejects (a bet over
// its credit), just under the message rate limit, was served for ever, each refusal a reply and a
// log line. Here one station sends stale commands and another rejected ones, 15 a second (the
// limit is 20), while a third station's screen sends a stale command now and then, as a person
// pressing just as the view changes does: the first two are closed (1008), the third is not.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import { startHost } from '../../host/start-host.js';
import { decodeHostMessage, DEVICE_PROTOCOL_VERSION, PROTOCOL_VERSION, type CommandBody, type ViewName } from '../../protocol/index.js';

const SECONDS = 8;

/** `p`, or 'timed out' after `ms`. */
function within<T>(p: Promise<T>, ms: number): Promise<T | 'timed out'> {
  return Promise.race([p, new Promise<'timed out'>((r) => setTimeout(() => r('timed out'), ms).unref())]);
}
const PER_SECOND = 15;

interface Screen {
  version: number;
  closed: Promise<number>;
  refusals: Map<string, number>;
  send(command: CommandBody, version: number): void;
  close(): void;
}

async function screen(origin: string, token: string, view: ViewName): Promise<Screen> {
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, { origin, perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let n = 0;
  const s: Screen = {
    version: -1,
    closed: new Promise((resolve) => ws.once('close', (code) => resolve(code))),
    refusals: new Map(),
    send: (command, version) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'command', id: `c${++n}`, view, version, command }));
    },
    close: () => ws.close(),
  };
  ws.on('message', (d: Buffer) => {
    const m = decodeHostMessage(d.toString());
    if (!m.ok) return;
    if (m.message.type === 'snapshot') s.version = m.message.version;
    if (m.message.type === 'error') s.refusals.set(m.message.code, (s.refusals.get(m.message.code) ?? 0) + 1);
  });
  ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token }));
  ws.send(JSON.stringify({ type: 'subscribe', id: 's', view }));
  for (let i = 0; i < 200 && s.version < 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(s.version >= 0, `${view} got its snapshot`);
  return s;
}

describe('refused commands (issue 28 item 6)', () => {
  it('a screen sending stale or rejected commands under the rate limit is closed; one sending a stale command now and then is not', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'command-flood-'));
    const running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      config: simulatedTableConfig('blackjack'),
      simulatedDealer: false,
    });
    try {
      const token = (view: ViewName) => running.screens.urls.find((x) => x.view === view)?.token ?? '';
      const stale = await screen(running.origin, token('station/1'), 'station/1');
      const rejected = await screen(running.origin, token('station/2'), 'station/2');
      const person = await screen(running.origin, token('station/3'), 'station/3');
      const outcome = { stale: 0, rejected: 0, person: 0 };
      void stale.closed.then((c) => (outcome.stale = c));
      void rejected.closed.then((c) => (outcome.rejected = c));
      void person.closed.then((c) => (outcome.person = c));
      const bet: CommandBody = { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 };
      for (let tick = 0; tick < SECONDS * PER_SECOND && (outcome.stale === 0 || outcome.rejected === 0); tick++) {
        // An old version: refused as stale. A bet with no credit: rejected.
        stale.send(bet, stale.version - 1);
        rejected.send(bet, rejected.version);
        if (tick % PER_SECOND === 0) person.send(bet, person.version - 1);
        await new Promise((r) => setTimeout(r, 1000 / PER_SECOND));
      }
      await new Promise((r) => setTimeout(r, 300));
      assert.ok((stale.refusals.get('stale-version') ?? 0) > 0, 'the stale commands were refused as stale');
      assert.ok((rejected.refusals.get('rejected') ?? 0) > 0, 'the bets were rejected');
      assert.equal(stale.refusals.get('rate-limited'), undefined, 'under the message rate limit');
      assert.equal(outcome.stale, 1008, `the stale sender is closed within ${SECONDS} s`);
      assert.equal(outcome.rejected, 1008, `the rejected sender is closed within ${SECONDS} s`);
      assert.equal(outcome.person, 0, 'a screen with a stale command now and then stays');
      person.close();
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a station agent's acceptor link is kept once greeted, closed without a hello, and closed when it floods", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'device-flood-'));
    const running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      config: TableConfig.parse({ ...simulatedTableConfig('blackjack'), remoteStations: 1, connections: { helloSeconds: 1 } }),
      simulatedDealer: false,
    });
    try {
      const e = running.stadium.enrol(101, ['Test A (1)', 'Test B (2)']);
      const agent = pinnedAgent(e);
      const link = async (hello: boolean) => {
        const ws = new WebSocket(`${e.host.replace('https', 'wss')}/station-device`, { agent, perMessageDeflate: false });
        const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
        const first = new Promise<string>((resolve) =>
          ws.once('message', (d: Buffer) => resolve(String((JSON.parse(d.toString()) as { type: unknown }).type))),
        );
        await new Promise((resolve, reject) => {
          ws.once('open', resolve);
          ws.once('error', reject);
        });
        if (hello) {
          ws.send(JSON.stringify({ type: 'hello-device', protocol: DEVICE_PROTOCOL_VERSION, station: 101, secret: e.secret, acceptor: 'id003' }));
          assert.equal(await first, 'device-welcome');
        }
        let isClosed = false;
        void closed.then(() => (isClosed = true));
        return { ws, closed, isClosed: () => isClosed };
      };
      const greeted = await link(true);
      const silent = await link(false);
      assert.notEqual(await within(silent.closed, 5000), 'timed out', 'a link that says no hello is closed');
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(greeted.isClosed(), false, 'a greeted link stays past the hello deadline');
      for (let i = 0; i < 200; i++) greeted.ws.send(JSON.stringify({ type: 'event', event: 'idle' }));
      assert.equal(await within(greeted.closed, 5000), 1008, 'a link flooding the host is closed');
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
