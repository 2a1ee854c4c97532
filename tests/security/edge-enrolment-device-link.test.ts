// A station's secret is never sent to an edge (docs/stadium.md, "Edges on NATS"): an edge holds
// its own TLS key, so the pin of an enrolment at an edge (`edge: true`) passes, and an edge that
// heard the secret could be the station on the table host's LAN listener. The agent's device link
// said `hello-device` with the secret to whatever its enrolment named (a review: started with an
// enrolment at an edge, it dialled the edge's /station-device with it). It now refuses such an
// enrolment before it dials; the acceptor's link takes a direct enrolment at the table's host
// (`deviceEnrolment`, `etg station-agent --device-enrolment FILE`) while the screen goes to the edge.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { WebSocketServer } from 'ws';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { tableCertificate } from '../../host/stadium/table-certificate.js';
import { startStationAgent } from '../../host/station-agent/agent.js';

const silent = pino({ level: 'silent' });
const SECRET = 'S3cr3t-of-station-101-xxxxxxxxxxxxxxxxxxxxx';

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A TLS WebSocket listener under its own certificate that records what each connection says. */
async function listener(dir: string, name: string) {
  const cert = await tableCertificate(path.join(dir, name), name, ['127.0.0.1']);
  const server = https.createServer({ key: cert.key, cert: cert.cert });
  const wss = new WebSocketServer({ server });
  const heard: string[] = [];
  wss.on('connection', (s, req) => s.on('message', (d) => heard.push(`${req.url} ${String(d)}`)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const enrolment: EnrolmentFile = {
    v: 1,
    tableId: 'bac-1',
    station: 101,
    secret: SECRET,
    host: `https://127.0.0.1:${port}`,
    certificate: cert.cert,
    fingerprint: cert.fingerprint,
  };
  return {
    heard,
    enrolment,
    close: () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.close();
    },
  };
}

describe("the station agent's device link and an enrolment at an edge", { timeout: 60_000 }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edge-device-link-'));
  let edge: Awaited<ReturnType<typeof listener>>;
  let host: Awaited<ReturnType<typeof listener>>;
  before(async () => {
    edge = await listener(dir, 'edge-a');
    host = await listener(dir, 'bac-1');
  });
  after(() => {
    edge?.close();
    host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start the device link to an edge, naming why, and the edge hears nothing', async () => {
    const atEdge = { ...edge.enrolment, edge: true as const };
    await assert.rejects(
      startStationAgent({ enrolment: atEdge, billAcceptor: 'sim', protocol: 'id003', currency: 'MOP', log: silent, rendererDir: null, relay: true }),
      /station 101's enrolment names an edge .*the device link carries the station's secret.*--device-enrolment/s,
    );
    // Refused before any dial: nothing to wait for.
    console.log('the edge heard:', edge.heard);
    assert.deepEqual(edge.heard, []);
  });

  it("with a direct enrolment for the device link, the secret goes to the table's host only", async () => {
    const atEdge = { ...edge.enrolment, edge: true as const };
    const agent = await startStationAgent({
      enrolment: atEdge,
      deviceEnrolment: host.enrolment,
      billAcceptor: 'sim',
      protocol: 'id003',
      currency: 'MOP',
      log: silent,
      rendererDir: null,
      relay: true,
    });
    try {
      await until('the host hears the hello', () => host.heard.some((h) => h.startsWith('/station-device ') && h.includes('"hello-device"')));
      assert.ok(!edge.heard.some((h) => h.includes(SECRET)), 'the edge never hears the secret');
    } finally {
      await agent.close();
    }
  });

  it('refuses a device enrolment that is itself at an edge, or of another station or table', async () => {
    const base = { billAcceptor: 'sim', protocol: 'id003' as const, currency: 'MOP' as const, log: silent, rendererDir: null, relay: true };
    const atEdge = { ...edge.enrolment, edge: true as const };
    await assert.rejects(startStationAgent({ ...base, enrolment: atEdge, deviceEnrolment: atEdge }), /names an edge/);
    await assert.rejects(
      startStationAgent({ ...base, enrolment: atEdge, deviceEnrolment: { ...host.enrolment, station: 102 } }),
      /station 102 of bac-1.*station 101 of bac-1/,
    );
    await assert.rejects(startStationAgent({ ...base, enrolment: atEdge, deviceEnrolment: { ...host.enrolment, tableId: 'bac-2' } }), /bac-2/);
  });
});
