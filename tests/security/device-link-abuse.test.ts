// A station agent's device link (`/station-device`) abused by the station's own machine, its
// credential in hand (a security review of the device link): a link that stops reading while it
// keeps asking the SAS machine for answers (the host queued them for it without bound); SAS bytes
// at the message rate but hundreds of times a real line's bytes (each handed to the SAS machine at
// once); a revoked link still handled for the 30 s of ws's close handshake (two forged transfers
// were credited after the revocation), and a link replaced by a newer one the same (a note
// credited after the revocation); and the lines a link causes, written past its client's log
// budget. The host runs with a one-second ping here (the production interval is DEVICE_LINK_TIMING's).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { createLogger, HOST_LOG } from '../../host/logger.js';
import { CLIENT_BUDGET } from '../../host/logging/client-budget.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';

const SAS_STATION = 101;
const ADDRESS = 7;
const BY: [string, string] = ['Ana Lei (1001)', 'Rui Sá (1002)'];

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Link {
  ws: WebSocket;
  replies: string[];
  closed: () => number | null;
  /** The TCP socket under the TLS: paused, the link reads nothing more (its window fills). */
  raw: () => Socket;
  sendBytes(type: 'sas-bytes' | 'bytes', bytes: Uint8Array): void;
  stop(): void;
}

/**
 * A station's machine greeting on its own credential, as `station-agent --relay` would (its pinned
 * TLS), then doing what it likes; from an address of its own, so that its lines spend a budget of their own.
 */
async function link(e: EnrolmentFile, localAddress: string, mode: 'relay' | 'driver' = 'relay'): Promise<Link> {
  const agent = pinnedAgent(e);
  const url = new URL('/station-device', e.host);
  url.protocol = 'wss:';
  const ws = new WebSocket(url, { agent, localAddress, perMessageDeflate: false });
  const replies: string[] = [];
  let code: number | null = null;
  ws.on('message', (d) => replies.push(String(d)));
  ws.on('close', (c) => (code = c));
  ws.on('error', () => undefined);
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify({ type: 'hello-device', protocol: 1, station: e.station, secret: e.secret, acceptor: 'id003', mode }));
  await until('welcomed', () => replies.some((r) => r.includes('device-welcome')));
  return {
    ws,
    replies,
    closed: () => code,
    raw: () => (ws as unknown as { _socket: Socket })._socket,
    sendBytes: (type, bytes) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type, data: Buffer.from(bytes).toString('base64') }));
    },
    stop: () => {
      ws.terminate();
      agent.destroy();
    },
  };
}

/** 3,072 bytes of meter polls (0x1C, each answered with ~5 times its bytes) to the station's address. */
const meterPolls = Buffer.from(
  Array.from({ length: 439 }, () => [0x80 | ADDRESS, 0x00, ADDRESS, 0x1c, 0x00, 0x00, 0x00])
    .flat()
    .slice(0, 3072),
);

describe("a station's own machine abusing its device link", { timeout: 120_000 }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'device-link-abuse-'));
  const logDir = path.join(dir, 'logs');
  let running: RunningHost;
  const enrolments = new Map<number, EnrolmentFile>();
  const links: Link[] = [];
  const logLines = (message: string) =>
    readFileSync(path.join(logDir, HOST_LOG), 'utf8')
      .split('\n')
      .filter((l) => l.includes(`"msg":"${message}"`));

  before(async () => {
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 4, remoteSas: [{ station: SAS_STATION, address: ADDRESS }] });
    running = await startHost({
      dataDir: path.join(dir, 'data'),
      rendererDir: path.join(dir, 'none'),
      config,
      logger: createLogger(logDir, { console: null }),
      simulatedDealer: false,
      sasTiming: { silenceMs: 60_000, ackTimeoutMs: 120_000 },
      deviceLink: { pingMs: 1000 },
    });
    for (const station of [101, 102, 103, 104]) enrolments.set(station, running.stadium.enrol(station, BY));
  });
  after(async () => {
    for (const l of links) l.stop();
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = async (station: number, localAddress: string, mode: 'relay' | 'driver' = 'relay') => {
    const l = await link(enrolments.get(station) as EnrolmentFile, localAddress, mode);
    links.push(l);
    return l;
  };

  it('a link that stops reading while it keeps polling the SAS machine is cut at its ping deadline', async () => {
    const l = await open(SAS_STATION, '127.0.0.2');
    l.ws.send(JSON.stringify({ type: 'sas-port', open: true }));
    l.raw().pause();
    const t0 = Date.now();
    // Within every rate, and each poll answered: the answers are queued for a reader that never comes.
    while (running.stadium.acceptors.connected(SAS_STATION) && Date.now() - t0 < 8000) {
      l.sendBytes('sas-bytes', meterPolls.subarray(0, 700));
      await new Promise((r) => setTimeout(r, 250));
    }
    const ms = Date.now() - t0;
    console.log(`a link that reads nothing: cut after ${ms} ms (ping every 1,000 ms)`);
    assert.equal(running.stadium.acceptors.connected(SAS_STATION), false, 'the host cut the link');
    assert.ok(ms < 4000, `within two pings and a little (${ms} ms)`);
    const cut = logLines('station device link answered no ping: terminated');
    assert.ok(cut.length >= 1 && cut.every((line) => line.includes('"client":"127.0.0.2"')), 'logged with its client');
  });

  it("the lines a link causes count against its client's log budget", async () => {
    // Station 103 has no SAS line here: each sas-bytes is refused, and each refusal was a line of the host's own.
    const l = await open(103, '127.0.0.3');
    for (let i = 0; i < 200; i++) l.sendBytes('sas-bytes', Uint8Array.of(0, 0, 0));
    await until('all 200 refused', () => l.replies.filter((r) => r.includes('"refused"')).length === 200);
    const lines = logLines('a SAS message refused');
    console.log(`200 SAS messages refused: ${lines.length} lines written`);
    assert.ok(lines.length >= 1 && lines.length <= CLIENT_BUDGET.burst, `${lines.length} lines, within the client's burst of ${CLIENT_BUDGET.burst}`);
    assert.ok(
      lines.every((line) => line.includes('"client":"127.0.0.3"')),
      'each bound to its client',
    );
    l.stop();
  });

  it("SAS bytes past twice a real line's are refused, and a link that keeps sending them is closed", async () => {
    const l = await open(SAS_STATION, '127.0.0.4');
    l.ws.send(JSON.stringify({ type: 'sas-port', open: true }));
    // 40 messages of 3,072 bytes (123 KB) at once: within the message rate, 70 times what the line carries in a second.
    for (let i = 0; i < 40; i++) l.sendBytes('sas-bytes', meterPolls);
    await until('the link closed', () => l.closed() !== null, 5000);
    console.log(`40 × 3,072 bytes of SAS at once: closed ${l.closed()}`);
    assert.equal(l.closed(), 1008, 'closed for its rate');
    assert.equal(running.stadium.acceptors.connected(SAS_STATION), false);
    const refused = logLines('station device link over its relayed bytes: refused');
    assert.ok(refused.some((line) => line.includes('"line":"sas"') && line.includes('"client":"127.0.0.4"')));
  });

  it("an acceptor's bytes past twice its line's are refused, and a link that keeps sending them is closed", async () => {
    const l = await open(104, '127.0.0.5');
    l.ws.send(JSON.stringify({ type: 'port', open: true }));
    // 30 messages of 3,072 bytes at once: a 9,600-baud acceptor carries 873 bytes a second.
    for (let i = 0; i < 30; i++) l.sendBytes('bytes', new Uint8Array(3072));
    await until('the link closed', () => l.closed() !== null, 5000);
    assert.equal(l.closed(), 1008);
    assert.ok(
      logLines('station device link over its relayed bytes: refused').some((line) => line.includes('"line":"device"') && line.includes('"client":"127.0.0.5"')),
    );
  });

  it('a link that keeps sending malformed messages is closed, as one that keeps relaying over its bytes', async () => {
    const l = await open(104, '127.0.0.10', 'driver');
    // Within the listener's message rate (250 at once), each answered 'refused': before, the link was kept for ever.
    for (let i = 0; i < 60; i++) l.ws.send(JSON.stringify({ type: 'escrow', id: `m${i}`, amount: -1 }));
    await until('the link closed', () => l.closed() !== null, 5000);
    console.log(`60 malformed messages at once: closed ${l.closed()} after ${l.replies.filter((r) => r.includes('"refused"')).length} refusals`);
    assert.equal(l.closed(), 1008);
    assert.equal(running.stadium.acceptors.connected(104), false);
    assert.ok(logLines('station device link kept sending malformed messages: closed').some((line) => line.includes('"client":"127.0.0.10"')));
  });

  it("a real line's SAS bytes are relayed and the link kept", async () => {
    const l = await open(SAS_STATION, '127.0.0.6');
    l.ws.send(JSON.stringify({ type: 'sas-port', open: true }));
    // 1,745 bytes a second (19,200 baud with the wakeup bit) for three seconds, in 20 chunks a second.
    for (let i = 0; i < 60; i++) {
      l.sendBytes('sas-bytes', meterPolls.subarray(0, 87));
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(l.closed(), null);
    assert.equal(running.stadium.acceptors.connected(SAS_STATION), true);
    l.stop();
  });

  it('a revoked link is cut at once: a note it claims after the revocation is not credited', async () => {
    const l = await open(102, '127.0.0.7', 'driver');
    // It reads nothing from here on (it never sees the host's close frame), but it keeps writing.
    l.raw().pause();
    assert.equal(running.stadium.stations.revoke(102, BY), true);
    assert.equal(running.stadium.acceptors.connected(102), false, 'dropped at once');
    const note = { escrowId: 'after-revoke-1', amount: 50_000, denomination: 500, currency: 'MOP' };
    l.ws.send(JSON.stringify({ type: 'escrow', id: 'e1', ...note }));
    l.ws.send(JSON.stringify({ type: 'credit', id: 'c1', ...note, recovered: false }));
    l.raw().resume();
    // Closed: the host has read everything the link sent before its close (a close handshake is in order after them).
    await until('the link closed', () => l.closed() !== null);
    console.log(`after the revocation: closed ${l.closed()}, credit ${running.ledger.credit(102)}`);
    assert.equal(running.ledger.credit(102), 0);
    assert.equal(l.replies.filter((r) => r.includes('"decision"') || r.includes('"journalled"')).length, 0, 'nothing answered');
  });

  it('a link replaced by a newer one is handled no more: after the revocation, the older one claims nothing either', async () => {
    // The machine keeps its first link and greets again: the first is replaced, and it never reads
    // the host's close frame, so ws holds it for the 30 s of a close handshake.
    const older = await open(103, '127.0.0.8', 'driver');
    older.raw().pause();
    const newer = await open(103, '127.0.0.9', 'driver');
    assert.equal(running.stadium.stations.revoke(103, BY), true);
    assert.equal(running.stadium.acceptors.connected(103), false);
    // The older link says the acceptor is back (clearing the loss its revocation raised), then a note.
    const note = { escrowId: 'replaced-1', amount: 50_000, denomination: 500, currency: 'MOP' };
    older.ws.send(JSON.stringify({ type: 'event', event: 'connected' }));
    older.ws.send(JSON.stringify({ type: 'event', event: 'idle' }));
    await new Promise((r) => setTimeout(r, 300));
    older.ws.send(JSON.stringify({ type: 'escrow', id: 'e1', ...note }));
    older.ws.send(JSON.stringify({ type: 'credit', id: 'c1', ...note, recovered: false }));
    older.raw().resume();
    await until('the older link closed', () => older.closed() !== null);
    console.log(`a replaced link after the revocation: closed ${older.closed()}, credit ${running.ledger.credit(103)}`);
    assert.equal(running.ledger.credit(103), 0, 'nothing credited (before: 50,000)');
    newer.stop();
  });
});
