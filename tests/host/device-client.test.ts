// The device client (host/station-agent/device-client.ts) a load generator and the security
// tests credit remote stations with. Issue 30: the stadium bench's client processes waited for
// ever on a note: the host had closed a station's device link right after its upgrade (the hello
// deadline, host/limits/connection-guard.ts), and nothing settled the client's welcome or its
// questions when the socket closed. Each case here is a table that closes the link (or never
// answers) at a point of a note: every promise the client gave out must fail, naming the station
// and what it waited for, within moments.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { DeviceClient, DeviceLinkError } from '../../host/station-agent/device-client.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { tableCertificate } from '../../host/stadium/table-certificate.js';

/** What the fake table does with each link: given the socket and each message the agent sent. */
type Script = (ws: WebSocket, m: { type: string; id?: string }) => void;

const welcome = JSON.stringify({ type: 'device-welcome', pendingNote: null, enabled: true, accept: [1000] });
const NOTE = { escrowId: 'e1', amount: 100_000, denomination: 1000, currency: 'MOP' as const };

function within<T>(p: Promise<T>, ms: number): Promise<{ settled: 'resolved'; value: T } | { settled: 'rejected'; error: unknown } | { settled: 'no' }> {
  return Promise.race([
    p.then(
      (value) => ({ settled: 'resolved' as const, value }),
      (error: unknown) => ({ settled: 'rejected' as const, error }),
    ),
    new Promise<{ settled: 'no' }>((r) => setTimeout(() => r({ settled: 'no' }), ms)),
  ]);
}

/** The rejection's error, or a failed assertion saying how the promise settled instead. */
async function failure(p: Promise<unknown>, what: string): Promise<DeviceLinkError> {
  const r = await within(p, 3000);
  assert.equal(r.settled, 'rejected', `${what}: it ${r.settled === 'no' ? 'never settled' : 'resolved'}`);
  const error = (r as { error: unknown }).error;
  assert.ok(error instanceof DeviceLinkError, `${what}: a DeviceLinkError, not ${String(error)}`);
  return error;
}

describe('a device client whose table closes its link or never answers (issue 30)', { timeout: 60_000 }, () => {
  let dir: string;
  let server: https.Server;
  let wss: WebSocketServer;
  let enrolment: EnrolmentFile;
  let script: Script = () => undefined;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'device-client-'));
    const certificate = await tableCertificate(dir, 'T-1', []);
    server = https.createServer({ key: certificate.key, cert: certificate.cert });
    wss = new WebSocketServer({ server, path: '/station-device' });
    wss.on('connection', (ws) => ws.on('message', (data: Buffer) => script(ws, JSON.parse(data.toString()) as { type: string; id?: string })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    enrolment = {
      v: 1,
      tableId: 'T-1',
      station: 160,
      secret: 's'.repeat(43),
      host: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      certificate: certificate.cert,
      fingerprint: certificate.fingerprint,
    };
  });
  after(async () => {
    for (const c of wss.clients) c.terminate();
    wss.close();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails its welcome when the table closes the link after the upgrade, before it answered the hello (the bench hang)', async () => {
    // As the guard did: the socket destroyed, no close frame (the client sees 1006).
    script = (ws, m) => {
      if (m.type === 'hello-device') ws.terminate();
    };
    const d = new DeviceClient(enrolment, pinnedAgent(enrolment));
    const e = await failure(d.ready(), 'ready()');
    assert.match(e.message, /station 160/);
    assert.match(e.message, /welcome/);
    assert.equal(e.station, 160);
    assert.equal(e.code, 1006);
    // And a note asked after the close is failed at once, not sent into a closed socket.
    const late = await failure(d.insert('e0', 1000, 'MOP'), 'an insert after the close');
    assert.match(late.message, /station 160/);
  });

  it('fails the escrow it asked when the link closes before the answer, and every question after it', async () => {
    script = (ws, m) => {
      if (m.type === 'hello-device') ws.send(welcome);
      else if (m.type === 'escrow') ws.close(1011, 'the table went away');
    };
    const d = new DeviceClient(enrolment, pinnedAgent(enrolment));
    await d.ready();
    const e = await failure(d.insert(NOTE.escrowId, NOTE.denomination, 'MOP'), 'insert()');
    assert.match(e.message, /escrow/);
    assert.match(e.message, /1011/);
    assert.match(e.message, /the table went away/);
    assert.equal(e.code, 1011);
    await failure(d.credit(NOTE), 'a credit after the close');
  });

  it('fails the credit it asked when the link closes after the escrow was answered "stack" (the note escrowed, its credit unanswered)', async () => {
    script = (ws, m) => {
      if (m.type === 'hello-device') ws.send(welcome);
      else if (m.type === 'escrow') ws.send(JSON.stringify({ type: 'decision', ref: m.id, decision: 'stack' }));
      else if (m.type === 'credit') ws.terminate();
    };
    const d = new DeviceClient(enrolment, pinnedAgent(enrolment));
    await d.ready();
    const e = await failure(d.insert(NOTE.escrowId, NOTE.denomination, 'MOP'), 'insert()');
    assert.match(e.message, /credit/);
    assert.match(e.message, /station 160/);
  });

  it('with an answer deadline, fails a question the table never answers on a link it keeps open, and closes the link', async () => {
    script = (ws, m) => {
      if (m.type === 'hello-device') ws.send(welcome);
    };
    const d = new DeviceClient(enrolment, pinnedAgent(enrolment), { answerMs: 300 });
    await d.ready();
    const e = await failure(d.escrow(NOTE), 'escrow()');
    assert.match(e.message, /no answer/);
    assert.match(e.message, /300 ms/);
    await failure(d.credit(NOTE), 'a credit after the link was given up');
  });

  it('with an answer deadline, fails its welcome when the table never answers the hello', async () => {
    script = () => undefined;
    const d = new DeviceClient(enrolment, pinnedAgent(enrolment), { answerMs: 300 });
    const e = await failure(d.ready(), 'ready()');
    assert.match(e.message, /welcome/);
  });

  it('still resolves what the table answers, and fails nothing once the client closes a link with nothing pending', async () => {
    script = (ws, m) => {
      if (m.type === 'hello-device') ws.send(welcome);
      else if (m.type === 'escrow') ws.send(JSON.stringify({ type: 'decision', ref: m.id, decision: 'stack' }));
      else if (m.type === 'credit') ws.send(JSON.stringify({ type: 'journalled', ref: m.id }));
    };
    const d = new DeviceClient(enrolment, pinnedAgent(enrolment), { answerMs: 2000 });
    await d.ready();
    const r = await d.insert(NOTE.escrowId, NOTE.denomination, 'MOP');
    assert.deepEqual({ decision: r.decision, credited: r.credited }, { decision: 'stack', credited: true });
    d.close();
    await failure(d.escrow(NOTE), 'an escrow after close()');
  });
});
