// The station agent's screen port on the station's own machine (loopback): any local process can
// reach it. Before (a review), a connection that never said its hello was held for ever: sockets
// and WebSockets opened and left silent piled up in the agent (each a descriptor), until the
// agent (its device link, its table links) and the station's own screen ran out. Now each must say
// the hello with the local launch token in time, and the port holds a capped number at once, the
// oldest silent one closed to make room for the screen.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { PROTOCOL_VERSION, stationView } from '../../protocol/index.js';
import { agentEnrolment } from './test-enrolment.js';
import { startScreenRelay } from './screen-relay.js';

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the station agent’s screen port: connections must say their hello', { timeout: 60_000 }, () => {
  it('closes silent sockets and WebSockets at the hello deadline, and holds no more than its cap while the screen still connects', async () => {
    const table = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(table, 'listening');
    const address = table.address();
    const tablePort = typeof address === 'object' && address ? address.port : 0;
    const heard: string[] = [];
    table.on('connection', (ws) => ws.on('message', (d) => heard.push((JSON.parse(String(d)) as { type: string }).type)));
    const enrolment = agentEnrolment(101);
    const relay = await startScreenRelay({
      tables: [{ enrolment, connect: () => new WebSocket(`ws://127.0.0.1:${tablePort}`) }],
      log: pino({ level: 'silent' }),
      rendererDir: '/nonexistent',
      connections: { helloMs: 1000, perAddress: 16, total: 16 },
    });
    const origin = `http://127.0.0.1:${relay.port}`;
    const bare: net.Socket[] = [];
    const silent: WebSocket[] = [];
    let browser: WebSocket | null = null;
    try {
      // 30 bare sockets that send nothing, and 30 WebSockets that never say hello.
      for (let i = 0; i < 30; i++) {
        const s = net.connect(relay.port, '127.0.0.1');
        s.on('error', () => undefined);
        bare.push(s);
      }
      for (let i = 0; i < 30; i++) {
        const ws = new WebSocket(`ws://127.0.0.1:${relay.port}/ws`, { origin });
        ws.on('error', () => undefined);
        silent.push(ws);
      }
      await Promise.all(bare.map((s) => (s.readyState === 'open' ? undefined : once(s, 'connect').catch(() => undefined))));
      // The station's screen comes now: room is made for it, and its hello reaches the table.
      browser = new WebSocket(`ws://127.0.0.1:${relay.port}/ws`, { origin });
      browser.on('error', () => undefined);
      await once(browser, 'open');
      browser.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: relay.token }));
      browser.send(JSON.stringify({ type: 'subscribe', id: 's', view: stationView(101) }));
      await until('the table heard the screen', () => heard.includes('subscribe'));
      assert.deepEqual(heard, ['hello-station', 'subscribe']);

      await until(
        'every silent connection closed',
        () => bare.every((s) => s.destroyed || s.readyState === 'closed') && silent.every((w) => w.readyState === WebSocket.CLOSED),
      );
      await new Promise((r) => setTimeout(r, 1200));
      assert.equal(browser.readyState, WebSocket.OPEN, 'the screen that said its hello is kept past the deadline');
    } finally {
      for (const s of bare) s.destroy();
      for (const w of silent) w.terminate();
      browser?.terminate();
      await relay.close();
      for (const c of table.clients) c.terminate();
      table.close();
    }
  });
});
