// How far behind the witness the host's journal is, as the witness link counts it (the limits that
// stop new bets, ledger/witness-link.ts), and what a `stale` answer may move. A busy table whose
// witness keeps up within one request must never be stopped by the age limit; a witness truly
// behind must be; and a `stale` refusal's head is believed only once its signature verifies (an
// impersonator on the socket would otherwise move the link's signed head with no key at all).
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it, mock } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { listenWitness } from '../../witness/server.js';
import { Witness } from '../../witness/witness.js';
import { exportPublicKey, keyIdOf } from '../../witness/statement.js';
import { openLedger, type Ledger } from '../../ledger/index.js';
import type { Head, SignedHead } from '../../witness/wire.js';
import { WitnessClient, WitnessUnreachable } from '../../ledger/witness-client.js';
import { WitnessLink, type WitnessStatus } from '../../ledger/witness-link.js';
import { WitnessOnFolder } from './witness-on-folder.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-lag-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const reset = (ledger: Ledger) => ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: 'test' } });

async function until(ok: () => boolean, ms = 5_000): Promise<void> {
  for (const end = performance.now() + ms; !ok() && performance.now() < end;) await sleep(10);
}

/** A client to a real witness whose requests a test may fail or follow with a commit of its own. */
class ScriptedClient extends WitnessClient {
  down = false;
  /** Runs after each head the witness signed, before the link hears of it (a commit landing while the request was in flight). */
  afterSigned: (() => void) | null = null;
  /** Runs as each head request leaves. */
  beforeAsk: (() => void) | null = null;

  override async witness(terminal: string, from: Head, links: readonly string[], to: Head): Promise<SignedHead> {
    this.beforeAsk?.();
    if (this.down) throw new WitnessUnreachable('the witness is down (test)');
    const signed = await super.witness(terminal, from, links, to);
    this.afterSigned?.();
    return signed;
  }
}

async function linked(o: { ownClock?: boolean; maxUnwitnessedSeconds?: number } = {}) {
  const dir = path.join(root, `t${++n}`);
  const socket = path.join(dir, 'w.sock');
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const witness = new Witness({ dir: path.join(dir, 'witness'), key: { privateKey, publicKey, store: 'file' } });
  const listening = await listenWitness(witness, { socket });
  const ledger = openLedger(path.join(dir, 'data'), 'T9', { witnessed: true, checkpointEvery: 0 });
  const clock = { now: 1_800_000_000_000 };
  const stops: boolean[] = [];
  const client = new ScriptedClient(socket);
  const link = await WitnessLink.attach(ledger, client, {
    ...(o.ownClock ? {} : { monotonic: () => clock.now }),
    ...(o.maxUnwitnessedSeconds ? { limits: { maxUnwitnessedSeconds: o.maxUnwitnessedSeconds } } : {}),
    onStopNewBets: (s) => stops.push(s),
    batchMs: 0,
    retryMs: 10,
    idleMs: 20,
  });
  link.start();
  const close = async () => {
    await link.stop();
    ledger.close();
    await listening.close();
    witness.close();
  };
  return { ledger, link, client, clock, stops, close };
}

describe('the witness link: how far behind the journal the witness is', () => {
  it('a busy table whose witness keeps within one request of its head is never stopped by the age limit (80 s of commits, each landing while the last was being signed)', async () => {
    const t = await linked();
    try {
      const lags: WitnessStatus[] = [];
      let left = 40;
      t.client.beforeAsk = () => void lags.push(t.link.status());
      t.client.afterSigned = () => {
        if (left-- <= 0) return;
        t.clock.now += 2_000;
        reset(t.ledger);
      };
      reset(t.ledger);
      await until(() => left < 0 && t.link.status().lagEntries === 0, 10_000);
      assert.ok(left < 0, `every commit was made (${left} left)`);
      assert.equal(t.link.status().lagEntries, 0);
      const worst = Math.max(...lags.map((s) => s.lagSeconds));
      assert.ok(worst <= 2, `the oldest entry not yet witnessed waited at most one commit's gap, not the whole busy stretch: ${worst} s`);
      assert.deepEqual(t.stops, [], 'new bets never stopped');
    } finally {
      await t.close();
    }
  });

  it('a witness truly behind stops new bets past the age limit, and once it has caught up a new stretch counts from its own first entry', async () => {
    const t = await linked();
    try {
      t.client.down = true;
      reset(t.ledger);
      t.clock.now += 30_000;
      reset(t.ledger);
      t.clock.now += 31_000;
      reset(t.ledger);
      await until(() => t.stops.length > 0);
      assert.deepEqual(t.stops, [true], 'the oldest entry has waited 61 s');
      assert.equal(t.link.status().lagSeconds, 61);
      t.client.down = false;
      await until(() => t.link.status().lagEntries === 0);
      assert.deepEqual(t.stops, [true, false]);
      // A new stretch: its age counts from its own first entry, not from the one signed before.
      t.client.down = true;
      t.clock.now += 100_000;
      reset(t.ledger);
      t.clock.now += 10_000;
      await until(() => t.link.status().state === 'offline');
      assert.equal(t.link.status().lagSeconds, 10);
      assert.equal(t.link.status().stopNewBets, false);
    } finally {
      await t.close();
    }
  });
});

// The entries the witness signed and lost (its folder wiped: it is sent the chain again from entry
// 1) wait again: they count against the entry limit, and against the age limit from when the link
// found the witness behind, the first entry past its lost head (that entry's run holds them all).
// Asked of this session's brief (it suspected the age limit did not count them): it does.
describe('the witness link: entries signed again after the witness lost its head', () => {
  it('a witness gone back to genesis and then down stops new bets past the age limit', async () => {
    const dir = path.join(root, `t${++n}`);
    const socket = path.join(dir, 'w.sock');
    const folder = path.join(dir, 'witness');
    const w = new WitnessOnFolder(folder, socket);
    await w.start();
    const ledger = openLedger(path.join(dir, 'data'), 'T11', { witnessed: true, checkpointEvery: 0 });
    const clock = { now: 1_800_000_000_000 };
    const stops: boolean[] = [];
    const client = new ScriptedClient(socket);
    const link = await WitnessLink.attach(ledger, client, {
      monotonic: () => clock.now,
      onStopNewBets: (s) => stops.push(s),
      batchMs: 0,
      retryMs: 10,
      idleMs: 20,
    });
    link.start();
    try {
      for (let i = 0; i < 3; i++) reset(ledger);
      await until(() => link.status().witnessedSeq === 3);
      await w.restart((f) => rmSync(f, { recursive: true }));
      // Once the link goes on from genesis, the witness does not answer.
      client.beforeAsk = () => {
        if (link.status().witnessedSeq === 0) client.down = true;
      };
      clock.now += 100_000;
      reset(ledger);
      await until(() => link.status().state === 'offline' && link.status().witnessedSeq === 0);
      assert.equal(link.status().lagEntries, 4, 'the three signed before wait again, with the new one');
      assert.equal(link.status().stopNewBets, false);
      clock.now += 61_000;
      await until(() => stops.length > 0, 3_000);
      assert.deepEqual(stops, [true]);
      assert.equal(link.status().lagSeconds, 61);
    } finally {
      await link.stop();
      ledger.close();
      await w.stop();
    }
  });
});

describe('the witness link: its age limit and a wall clock stepped (NTP, a technician)', () => {
  const HOUR = 3_600_000;
  it('a step back does not hide a witness gone past the limit; a step forward does not age entries just appended', async () => {
    const wall = Date.now();
    mock.timers.enable({ apis: ['Date'], now: wall });
    const t = await linked({ ownClock: true, maxUnwitnessedSeconds: 1 });
    try {
      t.client.down = true;
      reset(t.ledger);
      mock.timers.setTime(wall + HOUR);
      await until(() => t.link.status().state === 'offline');
      assert.equal(t.link.status().lagSeconds, 0, 'an entry a moment old is not an hour behind');
      assert.deepEqual(t.stops, []);
      mock.timers.setTime(wall - HOUR);
      await until(() => t.stops.length > 0, 3_000);
      assert.deepEqual(t.stops, [true], 'the witness has not answered for more than the limit, whatever the wall clock says');
    } finally {
      await t.close();
      mock.timers.reset();
    }
  });
});

describe("the witness link: a `stale` answer's head", () => {
  it('is not believed when its signature does not verify: the link does not move, the protocol alarm is raised', async () => {
    const dir = path.join(root, `t${++n}`);
    const socket = path.join(dir, 'fake.sock');
    const { publicKey } = generateKeyPairSync('ed25519');
    // A process on the witness's socket with no key: it gives a real public key at hello, then
    // answers every head with "stale: my head is yours", unsigned.
    const server = net.createServer((c) => {
      let buf = '';
      c.setEncoding('utf8').on('data', (d: string) => {
        buf += d;
        for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
          const r = JSON.parse(buf.slice(0, nl)) as { id: number; op: string; terminal: string; to?: Head };
          buf = buf.slice(nl + 1);
          const answer =
            r.op === 'hello'
              ? { ok: true, op: 'hello', publicKey: exportPublicKey(publicKey), keyId: keyIdOf(publicKey), keyStore: 'file' }
              : r.op === 'head'
                ? { ok: true, op: 'head', head: null }
                : {
                    ok: false,
                    error: 'stale',
                    message: 'send from my head',
                    head: { terminal: r.terminal, seq: r.to?.seq ?? 0, hash: r.to?.hash ?? '', at: new Date().toISOString(), signature: 'AAAA' },
                  };
          c.write(`${JSON.stringify({ id: r.id, ...answer })}\n`);
        }
      });
    });
    mkdirSync(dir, { recursive: true });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    const ledger = openLedger(path.join(dir, 'data'), 'T10', { witnessed: true, checkpointEvery: 0 });
    const alarms: { kind: string; message: string }[] = [];
    const link = await WitnessLink.attach(ledger, new WitnessClient(socket), { onAlarm: (a) => alarms.push(a), batchMs: 0, retryMs: 20 });
    link.start();
    try {
      reset(ledger);
      reset(ledger);
      await until(() => alarms.length > 0);
      const s = link.status();
      assert.equal(s.witnessedSeq, 0, `nothing unsigned is believed: ${JSON.stringify(s)}`);
      assert.equal(link.newestSigned(), null);
      assert.equal(alarms[0]?.kind, 'witness-protocol', JSON.stringify(alarms));
      assert.match(alarms[0]?.message ?? '', /signature does not verify/);
    } finally {
      await link.stop();
      ledger.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
