// The link this host dials to a peer table, against a peer that takes the link and then stalls.
// The station agent's device link was hardened against the same peers (docs/security.md: a welcome
// deadline, pings, a backoff that starts over only after a link that held); this link was not: a
// peer that never welcomed held it down for ever, never dialled again (its transfers unsent); one
// that welcomed and then stopped reading (wedged, its kernel taking bytes) kept it "up" until 1 MiB
// of asks had piled up; one that welcomed and cut at once was dialled again every 100 ms.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { TableId } from '../../terms/transfer-terms.js';
import { tableCertificate, type TableCertificate } from '../stadium/table-certificate.js';
import type { PeerEnrolment } from './peer-config.js';
import { PeerLink } from './peer-link.js';
import { PEER_PROTOCOL_VERSION } from './peer-wire.js';
import { lyingPeer } from './test-lying-peer.js';

const WAR = TableId.parse('war-2');
const BJ = TableId.parse('bj-2');
const WELCOME = JSON.stringify({ type: 'peer-welcome', protocol: PEER_PROTOCOL_VERSION, table: BJ });

const until = async (what: string, ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the link this host dials to a peer, against a peer that stalls', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-link-stall-'));
  let cert: TableCertificate;
  before(async () => (cert = await tableCertificate(dir, BJ, ['127.0.0.1'])));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The link to `enrolment`, its log lines kept; the redial's jitter `random` (0: each wait's lower half). */
  const linkTo = (enrolment: PeerEnrolment, logs: { msg: string }[], timing: { pingMs: number; welcomeMs: number }, random = 0) =>
    new PeerLink({
      self: WAR,
      peer: enrolment,
      log: pino({ level: 'info' }, { write: (l: string) => void logs.push(JSON.parse(l)) }),
      random: () => random,
      timing,
    });

  it('a peer that takes the link and never welcomes it (its pings answered) is cut at the welcome deadline and dialled again', async () => {
    const peer = await lyingPeer(cert, BJ, () => undefined);
    const logs: { msg: string }[] = [];
    const link = linkTo(peer.enrolment, logs, { pingMs: 60_000, welcomeMs: 300 });
    link.start();
    try {
      await until('a second dial', () => peer.hellos() >= 2, 5_000);
      assert.equal(link.connected(), false);
      assert.ok(
        logs.some((l) => /not welcomed in time/.test(l.msg)),
        JSON.stringify(logs.map((l) => l.msg)),
      );
    } finally {
      link.stop();
      await peer.close();
    }
  });

  it('a peer that welcomes and then answers no ping (wedged, its kernel still taking bytes) is cut within two ping intervals', async () => {
    const peer = await lyingPeer(cert, BJ, (ws, socket) => {
      ws.send(WELCOME);
      // Reads nothing more: no pong ever goes back.
      setTimeout(() => socket.pause(), 20);
    });
    const logs: { msg: string }[] = [];
    const link = linkTo(peer.enrolment, logs, { pingMs: 150, welcomeMs: 5_000 });
    link.start();
    try {
      await until('the link up', () => link.connected());
      await until('the link cut', () => !link.connected(), 2_000);
      assert.ok(
        logs.some((l) => /answered no ping/.test(l.msg)),
        JSON.stringify(logs.map((l) => l.msg)),
      );
    } finally {
      link.stop();
      await peer.close();
    }
  });

  it('a peer that welcomes and cuts at once is dialled again at a growing wait, not every 100 ms', async () => {
    const peer = await lyingPeer(cert, BJ, (ws) => {
      ws.send(WELCOME);
      setTimeout(() => ws.terminate(), 5);
    });
    const logs: { msg: string }[] = [];
    const link = linkTo(peer.enrolment, logs, { pingMs: 60_000, welcomeMs: 5_000 });
    link.start();
    try {
      await sleep(3_000);
      // Waits of 100, 200, 400, 800, 1,600 ms (the lower half, random 0): 5 or 6 dials in 3 s; every 100 ms, some 20.
      assert.ok(peer.hellos() <= 8, `${peer.hellos()} dials in 3 s`);
      assert.ok(peer.hellos() >= 3, `${peer.hellos()} dials in 3 s`);
    } finally {
      link.stop();
      await peer.close();
    }
  });

  it('a link that held for three ping intervals starts its backoff over when it drops', async () => {
    const cuts: number[] = [];
    const hellos: number[] = [];
    const peer = await lyingPeer(cert, BJ, (ws) => {
      hellos.push(Date.now());
      ws.send(WELCOME);
      setTimeout(() => {
        cuts.push(Date.now());
        ws.terminate();
      }, 400);
    });
    const logs: { msg: string }[] = [];
    // The upper end of each wait (random near 1): 200, 400, 800, 1,600 ms if the backoff grew.
    const link = linkTo(peer.enrolment, logs, { pingMs: 100, welcomeMs: 5_000 }, 0.999);
    link.start();
    try {
      await until('five links', () => hellos.length >= 5, 15_000);
      const gaps = cuts.slice(0, 4).map((c, i) => (hellos[i + 1] ?? Infinity) - c);
      // Each link held 400 ms (over 3 × 100): each wait the first again, 200 ms and a handshake; the fourth would be 1,600 ms otherwise.
      assert.ok(Math.max(...gaps) < 1_000, `waits after each drop: ${gaps.join(', ')} ms`);
    } finally {
      link.stop();
      await peer.close();
    }
  });
});
