// The station agent's screen link between a table and the station's browser (a review: what the
// relay passed on to the browser had no bound). A frozen screen that keeps its socket and stops
// reading made the agent hold everything the table said for it, at up to the table's flood limit
// (4 MiB a second). Now the screen link is cut past its send buffer cap, logged once, and the
// table's link with it (the screen dials again when it comes back); a screen that reads keeps it.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { encode, PROTOCOL_VERSION, protocolError } from '../../protocol/index.js';
import { agentEnrolment } from './test-enrolment.js';
import { withSteppingWallClock } from '../../hardware/sim/stepping-wall-clock.js';
import { relayTable } from './table-relay.js';

const enrolment = agentEnrolment(101);
/** A message the relay passes on as it is: ~2 KiB. */
const said = encode(protocolError('invalid-message', 'x'.repeat(2000)));
const NO_FLOOD = { messages: 1e9, bytes: 1e12, windowMs: 1000 };

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = performance.now() + ms;
  while (!ok()) {
    assert.ok(performance.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function server(onLink: (ws: WebSocket, req: IncomingMessage) => void) {
  const s = new WebSocketServer({ host: '127.0.0.1', port: 0 });
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

/** A table whose link, once open, the test drives; and a screen (the relay's local socket) that reads or not. */
async function relayed(screenReads: boolean, maxBufferedBytes: number, flood = NO_FLOOD) {
  let tableSide: WebSocket | null = null;
  let tableClosed = false;
  let heard = 0;
  const table = await server((ws) => {
    tableSide = ws;
    ws.on('close', () => (tableClosed = true));
  });
  const screen = await server((ws, req) => {
    if (!screenReads) req.socket.pause();
    ws.on('message', () => heard++);
  });
  const warnings: Record<string, unknown>[] = [];
  const log = pino({ level: 'warn' }, { write: (s: string) => void warnings.push(JSON.parse(s) as Record<string, unknown>) });
  const local = new WebSocket(`ws://127.0.0.1:${screen.port}`, { perMessageDeflate: false });
  await once(local, 'open');
  const connect = () => new WebSocket(`ws://127.0.0.1:${table.port}`, { perMessageDeflate: false });
  relayTable(local, { enrolment, log, connect, flood, maxBufferedBytes }, { id: 'h', protocol: PROTOCOL_VERSION });
  await until('the table linked', () => tableSide !== null);
  return {
    local,
    warnings,
    say: () => (tableSide as WebSocket | null)?.send(said),
    tableClosed: () => tableClosed,
    heard: () => heard,
    close: () => {
      local.terminate();
      table.close();
      screen.close();
    },
  };
}

describe("the station agent's screen link to its browser", { timeout: 60_000 }, () => {
  it('a screen that stops reading is cut at the send buffer cap, the table link with it, logged once', async () => {
    const MAX = 256 * 1024;
    const r = await relayed(false, MAX);
    try {
      // Up to 20,000 of the table's messages (~40 MiB), until the screen link goes.
      let n = 0;
      let most = 0;
      for (; n < 20_000 && r.local.readyState === r.local.OPEN && !r.tableClosed(); n++) {
        r.say();
        if (n % 200 === 0) await new Promise((res) => setTimeout(res, 1));
        most = Math.max(most, r.local.bufferedAmount);
      }
      await until('the screen link cut', () => r.local.readyState === r.local.CLOSED, 5000);
      await until('the table link closed', () => r.tableClosed(), 5000);
      const cut = r.warnings.filter((w) => w.msg === "station's screen link not reading, its send buffer over the cap: terminated");
      assert.equal(cut.length, 1);
      const held = cut[0]?.buffered as number;
      console.log(`a screen not reading: ${n} messages said, ${(Math.max(most, held) / 2 ** 20).toFixed(2)} MiB held at most (cap ${MAX / 1024} KiB)`);
      assert.ok(held > MAX && held <= MAX + said.length + 64, `held ${held} bytes at the cut`);
      assert.equal(cut[0]?.table, 'T-1');
    } finally {
      r.close();
    }
  });

  it('a screen that reads keeps its link under the same traffic, every message passed on', async () => {
    const r = await relayed(true, 256 * 1024);
    try {
      for (let i = 0; i < 2000; i++) {
        r.say();
        if (i % 100 === 0) await new Promise((res) => setTimeout(res, 5));
      }
      await until('everything passed on', () => r.heard() === 2000);
      assert.equal(r.local.readyState, r.local.OPEN);
      assert.equal(r.tableClosed(), false);
      assert.deepEqual(r.warnings, []);
    } finally {
      r.close();
    }
  });

  it('a wall clock stepped back (NTP, a technician) does not stretch the flood window: the link under its limit stays', () =>
    withSteppingWallClock(-1, async () => {
      const r = await relayed(true, 256 * 1024, { messages: 5, bytes: 1e12, windowMs: 100 });
      try {
        // Four a window, in three windows: under the limit in each; twelve in one window would be a flood.
        for (let w = 0; w < 3; w++) {
          for (let i = 0; i < 4; i++) r.say();
          await until(`window ${w} passed on`, () => r.heard() === 4 * (w + 1));
          await new Promise((res) => setTimeout(res, 150));
        }
        assert.equal(r.local.readyState, r.local.OPEN);
        assert.deepEqual(r.warnings, []);
      } finally {
        r.close();
      }
    }));
});
