// The station agent's relay from the station's screen up to its table (a review: that direction
// had no bound, and the table's link was never pinged). The screen's messages (or a hostile local
// process's, on the agent's screen port) went to the table however many and however fast, held
// without bound before an edge's proof and without bound for a table that stopped reading; a
// table that stopped answering left the screen on a stale view for good. Now the messages held
// before the proof are a few dozen, the screen is held to a player's rate, what waits unsent for
// the table is capped, and the table's link is pinged: past any of them the screen's link is
// dropped (the table's with it), logged once, and the screen dials again.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket, { WebSocketServer, type ServerOptions } from 'ws';
import { PROTOCOL_VERSION } from '../../protocol/index.js';
import { agentEnrolment } from './test-enrolment.js';
import { relayTable, type TableRelayOptions } from './table-relay.js';

/** No flood limit that any of these tests reaches within the hour: the one under test is set apart. */
const NO_FLOOD = { messages: 1e9, bytes: 1e12, windowMs: 3_600_000 };
/** What a screen says, as the relay passes it on: ~120 bytes. */
const press = JSON.stringify({ type: 'command', id: 'c', command: { type: 'noop', pad: 'x'.repeat(64) } });

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function server(onLink: (ws: WebSocket, req: IncomingMessage) => void, options: ServerOptions = {}) {
  const s = new WebSocketServer({ host: '127.0.0.1', port: 0, ...options });
  await once(s, 'listening');
  const address = s.address();
  s.on('connection', onLink);
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => {
      for (const c of s.clients) c.terminate();
      s.close();
    },
  };
}

interface Setup {
  /** The table reads nothing it is sent. */
  tableStalls?: boolean;
  tableOptions?: ServerOptions;
  relay?: Partial<TableRelayOptions>;
}

/** A table (the relay's up link) that counts what it hears, a screen that the test makes speak, and the relay between. */
async function relayed(s: Setup = {}) {
  let tableSide: WebSocket | null = null;
  let screenSide: WebSocket | null = null;
  let heard = 0;
  let up: WebSocket | null = null;
  const table = await server((ws, req) => {
    tableSide = ws;
    if (s.tableStalls) req.socket.pause();
    ws.on('message', () => heard++);
  }, s.tableOptions);
  const screen = await server((ws) => (screenSide = ws));
  const warnings: Record<string, unknown>[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line) as Record<string, unknown>) });
  const local = new WebSocket(`ws://127.0.0.1:${screen.port}`, { perMessageDeflate: false });
  await once(local, 'open');
  let relayedHere = 0;
  local.on('message', () => relayedHere++);
  const connect = () => (up = new WebSocket(`ws://127.0.0.1:${table.port}`, { perMessageDeflate: false }));
  relayTable(local, { enrolment: agentEnrolment(101), log, connect, flood: NO_FLOOD, ...s.relay }, { id: 'h', protocol: PROTOCOL_VERSION });
  await until('the table linked', () => tableSide !== null && screenSide !== null);
  return {
    local,
    warnings,
    up: () => up as WebSocket | null,
    tableSide: () => tableSide as WebSocket | null,
    /** The screen says `n` messages, yielding now and then; how many reached the relay's side. */
    say: async (n: number, text = press) => {
      const from = relayedHere;
      for (let i = 0; i < n && local.readyState === local.OPEN; i++) {
        (screenSide as WebSocket | null)?.send(text);
        if (i % 200 === 199) await new Promise((r) => setTimeout(r, 1));
      }
      await until('the screen heard out', () => relayedHere - from === n || local.readyState !== local.OPEN);
    },
    heard: () => heard,
    warned: (msg: string) => warnings.filter((w) => w.msg === msg).length,
    close: () => {
      local.terminate();
      table.close();
      screen.close();
    },
  };
}

describe("the station agent's relay from the screen up to its table", { timeout: 120_000 }, () => {
  it('a screen that says more than a few dozen messages before an edge has the proof is dropped', async () => {
    const r = await relayed({ relay: { enrolment: { ...agentEnrolment(101), edge: true }, screenFlood: NO_FLOOD } });
    try {
      await r.say(5000);
      const open = r.local.readyState === r.local.OPEN;
      // The proof comes (the edge's challenge), if the link is still there to hear it.
      r.tableSide()?.send(JSON.stringify({ type: 'challenge', nonce: 'n'.repeat(24) }));
      if (open) await until('what was held passed on', () => r.heard() === 5001);
      await new Promise((res) => setTimeout(res, 50));
      console.log(`5,000 messages before the proof: screen link ${open ? 'kept' : 'dropped'}, ${r.heard()} heard by the table`);
      assert.equal(open, false, "the screen's link dropped");
      assert.equal(r.warned("the station's screen said too much before the table's proof: link dropped"), 1);
      assert.ok(r.heard() === 0, `nothing held passed on (${r.heard()})`);
    } finally {
      r.close();
    }
  });

  it('a screen that floods faster than a player presses is dropped; one that presses as a player keeps its link', async () => {
    const limit = { messages: 100, bytes: 1e12, windowMs: 3_600_000 };
    const calm = await relayed({ relay: { screenFlood: limit } });
    try {
      await calm.say(100);
      await until('every press heard', () => calm.heard() === 101);
      assert.equal(calm.local.readyState, calm.local.OPEN);
      assert.deepEqual(calm.warnings, []);
    } finally {
      calm.close();
    }
    const r = await relayed({ relay: { screenFlood: limit } });
    try {
      await r.say(5000);
      await new Promise((res) => setTimeout(res, 50));
      console.log(
        `a screen saying 5,000 messages at once: link ${r.local.readyState === r.local.OPEN ? 'kept' : 'dropped'}, ${r.heard() - 1} passed to the table`,
      );
      assert.notEqual(r.local.readyState, r.local.OPEN, "the screen's link dropped");
      assert.equal(r.warned("the station's screen flooded its table link: dropped"), 1);
      assert.ok(r.heard() <= 101, `at most the limit passed on (${r.heard() - 1})`);
    } finally {
      r.close();
    }
  });

  it('a table that stops reading is cut at the send buffer cap, the screen link with it, logged once', async () => {
    const MAX = 256 * 1024;
    const r = await relayed({ tableStalls: true, relay: { screenFlood: NO_FLOOD, upBufferedBytes: MAX } });
    const big = JSON.stringify({ type: 'command', pad: 'x'.repeat(2000) });
    try {
      await until('the table link open', () => r.up()?.readyState === WebSocket.OPEN);
      let most = 0;
      for (let batch = 0; batch < 50 && r.local.readyState === r.local.OPEN; batch++) {
        await r.say(400, big);
        most = Math.max(most, r.up()?.bufferedAmount ?? 0);
      }
      const cut = r.warnings.filter((w) => w.msg === "station's table link not reading, its send buffer over the cap: terminated");
      const held = Math.max(most, (cut[0]?.buffered as number | undefined) ?? 0);
      console.log(`a table not reading: ${(held / 2 ** 20).toFixed(2)} MiB held for it at most (cap ${MAX / 1024} KiB), ${cut.length} cut`);
      await until('the screen link closed', () => r.local.readyState === r.local.CLOSED);
      assert.equal(cut.length, 1);
      assert.ok(held <= MAX + big.length + 64, `held ${held} bytes`);
    } finally {
      r.close();
    }
  });

  it('a table that answers no ping is cut, and the screen link with it (the screen dials again)', async () => {
    const PING = 100;
    const r = await relayed({ tableOptions: { autoPong: false }, relay: { pingMs: PING } });
    try {
      await until('the screen link closed', () => r.local.readyState === r.local.CLOSED, 40 * PING);
      assert.equal(r.warned("station's table link answered no ping: terminated"), 1);
    } finally {
      r.close();
    }
  });
});
