// The acceptor's status across a cut of the station agent's device link (a review: a status the
// driver reported while the link was down was lost). The host raises `bill-acceptor-lost` when
// the link closes and learns the acceptor's state only from the events the agent relays, each
// said once, when it changes: a stacker that filled while the link was down was never heard of,
// and a link that came back over an acceptor still idle never cleared `bill-acceptor-lost` until
// the device next changed. Now the agent says the acceptor's status again at every welcome. The
// host's faults are modelled as host/tilts/tilt-sources.ts reads the relayed events. (Over the
// ID-003 simulator the welcome's accept list made the driver configure again and say idle, which
// hid the last two cases; over SSP nothing did.)
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { openBillAcceptor } from '../../hardware/open.js';
import type { BillAcceptorEvent } from '../../hardware/billacceptor/types.js';
import { decodeAgentMessage, type HostDeviceMessage } from '../../protocol/index.js';
import { agentEnrolment } from './test-enrolment.js';
import { DeviceRelay } from './device-relay.js';

const enrolment = agentEnrolment(203);
const welcome: HostDeviceMessage = { type: 'device-welcome', pendingNote: null, enabled: true, accept: [500] };

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits for `ok`, and goes on without it after `ms`: the assertion that follows says what was found. */
async function settle(ok: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

type Fault = 'lost' | 'jam' | 'stackerFull' | 'stackerRemoved' | 'failure';

/** A table host that welcomes each link and holds the station's faults as the host's tilt sources do. */
async function fakeHost() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const address = server.address();
  const faults = new Set<Fault>();
  const links: { ws: WebSocket; events: string[] }[] = [];
  server.on('connection', (ws) => {
    const link = { ws, events: [] as string[] };
    links.push(link);
    ws.send(JSON.stringify(welcome));
    ws.on('message', (data) => {
      const d = decodeAgentMessage(String(data));
      if (!d.ok || d.message.type !== 'event') return;
      const e = d.message.event;
      link.events.push(e);
      if (e === 'disconnected') faults.add('lost');
      else if (e === 'connected' || e === 'reconnected') faults.delete('lost');
      else if (e === 'jam' || e === 'stackerFull' || e === 'stackerRemoved' || e === 'failure') faults.add(e);
      else if (e === 'stackerReplaced') for (const f of ['stackerFull', 'stackerRemoved'] as const) faults.delete(f);
      else if (e === 'idle' || e === 'faultCleared') faults.clear();
    });
    // The host's own word when the link goes (remote-acceptors.ts, `closed`).
    ws.on('close', () => faults.add('lost'));
  });
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    faults,
    links,
    close: () => {
      for (const c of server.clients) c.terminate();
      server.close();
    },
  };
}

/** An agent whose link the test takes down (`offline`: dials fail) and whose driver's own events it sees. */
async function agent(port: number, protocol: 'id003' | 'ssp') {
  const dead = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(dead, 'listening');
  const deadAddress = dead.address();
  const deadPort = typeof deadAddress === 'object' && deadAddress ? deadAddress.port : 0;
  dead.close();
  const seen: BillAcceptorEvent[] = [];
  const state = { offline: false };
  const relay = new DeviceRelay({
    enrolment,
    spec: 'sim',
    protocol,
    currency: 'MOP',
    log: pino({ level: 'silent' }),
    connect: () => new WebSocket(`ws://127.0.0.1:${state.offline ? deadPort : port}`, { perMessageDeflate: false }),
    open: (spec, o) => {
      const a = openBillAcceptor(spec, o);
      a.on((e) => seen.push(e));
      return a;
    },
  });
  return { relay, seen, state };
}

for (const protocol of ['id003', 'ssp'] as const)
  describe(`the acceptor's status across a cut of the agent's device link (${protocol})`, { timeout: 60_000 }, () => {
    it('a stacker that filled while the link was down is said when it comes back', async () => {
      const host = await fakeHost();
      const { relay, seen, state } = await agent(host.port, protocol);
      try {
        relay.start();
        await until('the acceptor idle, heard on the first link', () => host.links[0]?.events.includes('idle') === true);
        state.offline = true;
        host.links[0]?.ws.terminate();
        await until('the link down', () => !relay.connected());
        relay.simulator()?.faults.stackerFull();
        await until('the driver saw the stacker full', () => seen.some((e) => e.type === 'stackerFull'));
        state.offline = false;
        await until('the second link up', () => relay.connected() && host.links.length === 2);
        await settle(() => host.faults.has('stackerFull') && !host.faults.has('lost'));
        console.log(
          `${protocol}: stacker full while the link was down: the second link heard [${host.links[1]?.events.join(', ')}]; the host holds {${[...host.faults].join(', ')}}`,
        );
        assert.deepEqual([...host.faults], ['stackerFull']);
      } finally {
        await relay.stop();
        host.close();
      }
    });

    it('a fault cleared while the link was down, and the acceptor idle, clear the host when it comes back', async () => {
      const host = await fakeHost();
      const { relay, seen, state } = await agent(host.port, protocol);
      try {
        relay.start();
        await until('the acceptor idle', () => host.links[0]?.events.includes('idle') === true);
        relay.simulator()?.faults.stackerFull();
        await until('the host heard the stacker full', () => host.faults.has('stackerFull'));
        state.offline = true;
        host.links[0]?.ws.terminate();
        await until('the link down', () => !relay.connected());
        const from = seen.length;
        relay.simulator()?.faults.clear();
        await until('the driver saw the acceptor idle again', () => seen.slice(from).some((e) => e.type === 'idle'));
        state.offline = false;
        await until('the second link up', () => relay.connected() && host.links.length === 2);
        await settle(() => host.faults.size === 0);
        console.log(
          `${protocol}: stacker emptied while the link was down: the second link heard [${host.links[1]?.events.join(', ')}]; the host holds {${[...host.faults].join(', ')}}`,
        );
        assert.deepEqual([...host.faults], []);
      } finally {
        await relay.stop();
        host.close();
      }
    });

    it('a link that comes back over an acceptor that stayed idle clears the fault its loss raised', async () => {
      const host = await fakeHost();
      const { relay } = await agent(host.port, protocol);
      try {
        relay.start();
        await until('the acceptor idle', () => host.links[0]?.events.includes('idle') === true);
        host.links[0]?.ws.terminate();
        await until('the second link up', () => relay.connected() && host.links.length === 2);
        await settle(() => host.faults.size === 0);
        console.log(
          `${protocol}: a cut over an idle acceptor: the second link heard [${host.links[1]?.events.join(', ')}]; the host holds {${[...host.faults].join(', ')}}`,
        );
        assert.deepEqual([...host.faults], []);
        // Said once a link, not over and over (the driver's own idle may follow it).
        assert.equal(host.links[1]?.events.filter((e) => e === 'connected').length, 1);
      } finally {
        await relay.stop();
        host.close();
      }
    });
  });
