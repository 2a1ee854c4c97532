// A note's credit on a device link the agent cuts (a review of the agent's device link: it is now
// cut when the table host stops reading or answers no ping). The cut drops the link, never the
// money message: a credit sent into a host that stopped reading is asked again on the next link,
// under its one id, and the device is acknowledged only once the host journalled it.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { decodeAgentMessage, type AgentMessage, type HostDeviceMessage } from '../../protocol/index.js';
import { agentEnrolment } from './test-enrolment.js';
import { DeviceRelay } from './device-relay.js';

const enrolment = agentEnrolment(201);

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("a note's credit on a device link the agent cuts", { timeout: 60_000 }, () => {
  it('a credit sent into a host that stopped reading is asked again on the next link, under its id, and journalled once', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    // Each link's messages by type; the first link stops reading once it has answered the escrow.
    const heard: AgentMessage[][] = [];
    const journalled = new Set<string>();
    server.on('connection', (ws, req) => {
      const mine: AgentMessage[] = [];
      heard.push(mine);
      const first = heard.length === 1;
      const say = (m: HostDeviceMessage) => ws.send(JSON.stringify(m));
      say({ type: 'device-welcome', pendingNote: null, enabled: true, accept: [500] });
      ws.on('message', (data) => {
        const d = decodeAgentMessage(String(data));
        assert.ok(d.ok, String(data));
        mine.push(d.message);
        if (d.message.type === 'escrow') {
          say({ type: 'decision', ref: d.message.id, decision: 'stack' });
          if (first) req.socket.pause();
        }
        if (d.message.type === 'credit' && !first) {
          journalled.add(d.message.id);
          say({ type: 'journalled', ref: d.message.id });
        }
      });
    });
    const relay = new DeviceRelay({
      enrolment,
      spec: 'sim',
      protocol: 'id003',
      currency: 'MOP',
      log: pino({ level: 'silent' }),
      connect: () => new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false }),
      creditWaitMs: 10_000,
      linkTiming: { pingMs: 200 },
    });
    try {
      relay.start();
      await until('the acceptor open', () => relay.simulator() !== null && relay.connected());
      relay.simulator()?.insertNote(500);
      await until('the credit journalled on the next link', () => journalled.size > 0);
      await until('the note in the cashbox', () => relay.simulator()?.cashbox.length === 1);
      const credits = heard.slice(1).flatMap((l) => l.flatMap((m) => (m.type === 'credit' ? [m.id] : [])));
      console.log(`links: ${heard.length}; on the first: ${heard[0]?.map((m) => m.type).join(', ')}; credits after it: ${credits.length}`);
      assert.ok(heard.length >= 2, 'the link was cut and dialled again');
      assert.equal(new Set(credits).size, 1, 'one credit id, however often it was asked');
      assert.deepEqual(relay.simulator()?.cashbox, [500]);
    } finally {
      await relay.stop();
      for (const c of server.clients) c.terminate();
      server.close();
    }
  });
});
