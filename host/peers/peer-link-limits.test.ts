// Review of the link between table hosts, the side this host dials: the pinned socket took frames
// up to ws's default 100 MiB (the listener caps 64 KiB), so a peer answering a dial with a 90 MiB
// frame had it buffered whole (RSS +189 MiB) and then redialled it 100–200 ms later; and `send`
// never looked at what the socket had not yet written, so a peer that welcomed the dial and then
// never read made this host's send buffer grow without bound (360,000 sends: 57 MiB) while the
// link counted as up. Both peers here hold the enrolled certificate: a real but lying peer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { WebSocket } from 'ws';
import { TableId, type Transfer } from '../../terms/transfer-terms.js';
import { tableCertificate, type TableCertificate } from '../stadium/table-certificate.js';
import { PEER_MAX_FRAME, PEER_SEND_BUFFER, PeerLink, pinnedPeerAgent, pinnedPeerSocket } from './peer-link.js';
import { PEER_PROTOCOL_VERSION } from './peer-wire.js';
import { lyingPeer } from './test-lying-peer.js';

const WAR = TableId.parse('war-1');
const BJ = TableId.parse('bj-1');
const WELCOME = JSON.stringify({ type: 'peer-welcome', protocol: PEER_PROTOCOL_VERSION, table: BJ });

const until = async (what: string, ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the link this host dials to a peer holds a lying peer to bounds (review of the link between table hosts)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-link-limits-'));
  let cert: TableCertificate;
  before(async () => (cert = await tableCertificate(dir, BJ, ['127.0.0.1'])));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('closes the link at a frame over its cap, never buffering it whole, and dials again', async () => {
    // 8 MiB: far over the cap, far under ws's default 100 MiB.
    const frame = Buffer.alloc(8 * 1024 * 1024, 0x61);
    const peer = await lyingPeer(cert, BJ, (ws) => {
      ws.send(WELCOME);
      ws.send(frame, { binary: false });
    });
    const logs: { msg: string; err?: string; error?: string }[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void logs.push(JSON.parse(l) as (typeof logs)[number]) });
    const link = new PeerLink({ self: WAR, peer: peer.enrolment, log, random: () => 0 });
    try {
      link.start();
      await until('a second dial after the frame', () => peer.hellos() >= 2);
      const failed = logs.filter((l) => l.msg === 'link to a peer table failed').map((l) => l.err);
      assert.ok(
        failed.some((e) => /max payload/i.test(e ?? '')),
        `refused by the socket at its cap: ${JSON.stringify(failed)}`,
      );
      assert.ok(!logs.some((l) => l.error === 'oversized'), 'the frame never reached the decoder whole');
      assert.equal(PEER_MAX_FRAME, 64 * 1024, "the listener's cap");
    } finally {
      link.stop();
      await peer.close();
    }
  });

  it('cuts a link whose peer does not read once its send buffer passes the cap, and dials again', async () => {
    const peer = await lyingPeer(cert, BJ, (ws, socket) => {
      ws.send(WELCOME);
      // Then never read again: the TCP window closes and this host's send buffer fills.
      socket.pause();
    });
    let socket: WebSocket | null = null;
    const logs: { msg: string }[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void logs.push(JSON.parse(l) as (typeof logs)[number]) });
    const link = new PeerLink({
      self: WAR,
      peer: peer.enrolment,
      log,
      random: () => 0,
      connect: () => (socket = pinnedPeerSocket(peer.enrolment, pinnedPeerAgent(peer.enrolment))),
    });
    const transfer = (serial: number): Transfer => ({ id: { origin: WAR, serial }, currency: 'MOP', station: 102, from: WAR, to: BJ, amount: 12_345 });
    try {
      link.start();
      await until('the link up', () => link.connected());
      // 100 open transfers asked about again and again (an hour of ticks is 360,000 messages).
      let most = 0;
      for (let i = 1; i <= 360_000 && link.connected(); i++) {
        link.send({ kind: 'offer', transfer: transfer((i % 100) + 1) });
        most = Math.max(most, (socket as WebSocket | null)?.bufferedAmount ?? 0);
        if (i % 2_000 === 0) await new Promise((r) => setImmediate(r));
      }
      assert.ok(!link.connected(), `still up with ${(most / 1048576).toFixed(1)} MiB unsent`);
      assert.ok(most <= PEER_SEND_BUFFER + 1024, `${most} bytes held unsent, over the cap of ${PEER_SEND_BUFFER}`);
      assert.ok(
        logs.some((l) => l.msg === 'a peer table does not read what this host sends: link cut'),
        'logged',
      );
      await until('a second dial after the cut', () => peer.hellos() >= 2);
    } finally {
      link.stop();
      await peer.close();
    }
  });
});
