// A station agent's device link to its table host (a review: the agent had no bound on what it
// held unsent for the host and never pinged it). The casino system polls the station's SAS line
// whatever the table does, and the agent forwards every chunk: a table host that keeps the TCP
// connection open and stops reading made the agent hold all of it (~16 MB after 200,000 chunks,
// every send "sent"). Now the link is cut past its send buffer cap and when the host answers no
// ping, logged once, and dialled again as after any loss; an honest host under steady traffic
// keeps its one link.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import type WebSocket from 'ws';
import { WebSocketServer, type ServerOptions } from 'ws';
import type { HostDeviceMessage } from '../../protocol/index.js';
import { agentEnrolment } from './test-enrolment.js';
import { agentLink } from './test-device-link.js';

const enrolment = agentEnrolment(201);
const welcome: HostDeviceMessage = { type: 'device-welcome', pendingNote: null, enabled: true, accept: [], sas: true };
/** 48 bytes of a SAS line, as the agent's SasRelay carries them. */
const chunk = Buffer.alloc(48, 0x80).toString('base64');

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A table host that welcomes each link, then does what `onLink` says with it; counts what it heard. */
async function fakeHost(onLink: (ws: WebSocket, req: IncomingMessage) => void, options: ServerOptions = {}) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, ...options });
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const host = { port, links: 0, heard: 0, close: () => undefined as void };
  server.on('connection', (ws, req) => {
    host.links++;
    ws.on('message', () => host.heard++);
    ws.send(JSON.stringify(welcome));
    onLink(ws, req);
  });
  host.close = () => {
    for (const c of server.clients) c.terminate();
    server.close();
  };
  return host;
}

describe("a station agent's device link to its table host", { timeout: 60_000 }, () => {
  it('a host that stops reading is cut at the send buffer cap, logged once, and dialled again', async () => {
    const MAX = 256 * 1024;
    const host = await fakeHost((_ws, req) => req.socket.pause());
    const { link, warnings, sockets } = agentLink(host.port, { enrolment, timing: { maxBufferedBytes: MAX, pingMs: 60_000 } });
    try {
      link.start();
      await until('the link up', () => link.connected());
      const first = sockets[0]!;
      // The casino system's polls keep coming: up to 200,000 chunks (~16 MB of JSON), until a send fails.
      let sent = 0;
      let most = 0;
      while (sent < 200_000) {
        if (!link.send({ type: 'sas-bytes', data: chunk })) break;
        sent++;
        most = Math.max(most, first.bufferedAmount);
        if (sent % 10_000 === 0) await new Promise((r) => setImmediate(r));
      }
      assert.ok(sent < 200_000, `a send failed once the host stopped reading (${sent} sent)`);
      await until('dialled again', () => host.links === 2);
      const cut = warnings.filter((w) => w.msg === 'device link to the table not reading, its send buffer over the cap: terminated');
      assert.equal(cut.length, 1);
      // The most ever held: the cap and the one message that went over it.
      const held = cut[0]?.buffered as number;
      console.log(`host not reading: ${sent} chunks sent, ${(Math.max(most, held) / 2 ** 20).toFixed(2)} MiB held at most (cap ${MAX / 1024} KiB)`);
      assert.ok(held > MAX && held <= MAX + 1024, `held ${held} bytes at the cut`);
    } finally {
      link.stop();
      host.close();
    }
  });

  it('a host that answers no ping is cut within two pings, and dialled again', async () => {
    const PING = 250;
    // It reads everything and never answers a ping (a wedged host whose kernel still takes bytes in).
    const host = await fakeHost(() => undefined, { autoPong: false });
    const { link, warnings } = agentLink(host.port, { enrolment, timing: { pingMs: PING } });
    try {
      link.start();
      await until('the link up', () => link.connected());
      const t0 = Date.now();
      await until('the link cut', () => !link.connected(), 10 * PING);
      const ms = Date.now() - t0;
      console.log(`a host that answers no ping: cut after ${ms} ms (ping every ${PING} ms)`);
      assert.ok(ms <= 2 * PING + 500, `within two pings and a little (${ms} ms)`);
      assert.equal(warnings.filter((w) => w.msg === 'device link to the table answered no ping: terminated').length, 1);
      await until('dialled again', () => host.links === 2);
    } finally {
      link.stop();
      host.close();
    }
  });

  it('an honest host under steady traffic keeps its one link, every message delivered', async () => {
    const PING = 250;
    const host = await fakeHost(() => undefined);
    const { link, warnings } = agentLink(host.port, { enrolment, timing: { maxBufferedBytes: 64 * 1024, pingMs: PING } });
    try {
      link.start();
      await until('the link up', () => link.connected());
      // Bursts of a busy SAS line, over six ping intervals.
      let sent = 0;
      const end = Date.now() + 6 * PING;
      while (Date.now() < end) {
        for (let i = 0; i < 50; i++, sent++) assert.equal(link.send({ type: 'sas-bytes', data: chunk }), true);
        await new Promise((r) => setTimeout(r, 10));
      }
      await until('everything heard', () => host.heard === sent + 1);
      console.log(`an honest host: ${sent} messages over ${6 * PING} ms, ${host.links} link`);
      assert.equal(host.links, 1);
      assert.equal(link.connected(), true);
      assert.deepEqual(warnings, []);
    } finally {
      link.stop();
      host.close();
    }
  });
});
