// A relaying agent stopped while its acceptor's port is still opening (an audit of 3 December: a
// flag read before an await, the state written after it). The port the opener hands over after
// the stop is closed at once and the host is not told it is open: else the agent's stop left the
// acceptor's serial port held, its bytes forwarded to a link that had stopped.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { decodeAgentMessage, type AgentMessage, type HostDeviceMessage } from '../../protocol/index.js';
import type { BytePort } from '../../hardware/transport/byte-port.js';
import { ByteRelay } from './byte-relay.js';
import { agentEnrolment } from './test-enrolment.js';

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A port that records its close and never speaks. */
function quietPort(): BytePort & { closes: number } {
  return {
    description: 'a port opened after the stop',
    closed: false,
    closes: 0,
    write: () => Promise.resolve(),
    onData: () => () => {},
    onClose: () => () => {},
    close() {
      this.closes++;
      return Promise.resolve();
    },
  };
}

describe('a relaying agent stopped while its port opens', { timeout: 30_000 }, () => {
  it('closes the port the opener hands over after the stop, and never tells the host it is open', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const heard: AgentMessage[] = [];
    server.on('connection', (ws) => {
      const say = (m: HostDeviceMessage) => ws.send(JSON.stringify(m));
      say({ type: 'device-welcome', pendingNote: null, enabled: true, accept: [500] });
      ws.on('message', (data) => {
        const d = decodeAgentMessage(String(data));
        if (d.ok) heard.push(d.message);
      });
    });
    const opening: { resolve?: (p: BytePort) => void } = {};
    const relay = new ByteRelay({
      enrolment: agentEnrolment(202),
      spec: 'sim',
      protocol: 'id003',
      currency: 'MOP',
      log: pino({ level: 'silent' }),
      connect: () => new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false }),
      openPort: () => ({ opener: () => new Promise<BytePort>((resolve) => (opening.resolve = resolve)) }),
    });
    try {
      relay.start();
      await until('the port opening', () => opening.resolve !== undefined);
      await relay.stop();
      const late = quietPort();
      opening.resolve?.(late);
      await until('the late port closed', () => late.closes > 0);
      assert.equal(late.closes, 1);
      assert.deepEqual(
        heard.filter((m) => m.type === 'port' && m.open),
        [],
        'no port said open',
      );
    } finally {
      await relay.stop();
      for (const c of server.clients) c.terminate();
      server.close();
    }
  });
});
