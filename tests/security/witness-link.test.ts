// The host's end of the witness link (ledger/witness-link.ts) against a real witness in this
// process, or a fake one on a socket: what the link makes of the witness's answers. A refusal of
// the host's own checkpoint (the state the ledger holds is not the one its entries make) raises
// the alarm; a `failed` answer (the witness's own fault, transient) is waited out like a witness
// gone; a witness whose signatures do not verify raises the protocol alarm.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { startHost } from '../../host/start-host.js';
import { listenWitness, type Listening } from '../../witness/server.js';
import { Witness } from '../../witness/witness.js';
import type { WitnessKey } from '../../witness/keys.js';
import { exportPublicKey, headStatement, keyIdOf, signStatement } from '../../witness/statement.js';
import { openLedger, type Ledger } from '../../ledger/index.js';
import { checkpointAsFound, tamperBalance, tamperJournalBody } from '../../ledger/testing/tamper.js';
import { WitnessClient } from '../../ledger/witness-client.js';
import { WitnessLink, type WitnessLinkOptions } from '../../ledger/witness-link.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-link-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function key(): WitnessKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, store: 'file' };
}

type Alarm = Parameters<NonNullable<WitnessLinkOptions['onAlarm']>>[0];

/** Waits (up to 5 s) until `ok`: the link's loop answers on its own time, later under CI's load than alone. */
async function until(ok: () => boolean): Promise<void> {
  for (const end = Date.now() + 5_000; !ok() && Date.now() < end;) await sleep(20);
}

/** A witness listening on its own socket, a witnessed ledger in its own folder, and a link between them (started). */
async function linked(o: { checkpointEvery?: number; terminal?: string; alarmThrows?: boolean } = {}) {
  const dir = path.join(root, `t${++n}`);
  const socket = path.join(dir, 'w.sock');
  const logged: Record<string, unknown>[] = [];
  const witness = new Witness({ dir: path.join(dir, 'witness'), key: key(), log: (l) => logged.push(l) });
  const listening: Listening = await listenWitness(witness, { socket });
  const terminal = o.terminal ?? 'T6';
  const ledger = openLedger(path.join(dir, 'data'), terminal, { witnessed: true, checkpointEvery: o.checkpointEvery ?? 0 });
  const alarms: Alarm[] = [];
  const stops: boolean[] = [];
  const told: unknown[] = [];
  const link = await WitnessLink.attach(ledger, new WitnessClient(socket), {
    onAlarm: (a) => {
      alarms.push(a);
      if (o.alarmThrows) throw new Error('SQLITE_FULL: database or disk is full');
    },
    onCallbackError: (e: unknown) => void told.push(e),
    onStopNewBets: (s) => stops.push(s),
    batchMs: 0,
    retryMs: 20,
  });
  link.start();
  const close = async () => {
    await link.stop();
    ledger.close();
    await listening.close();
    witness.close();
  };
  return { dir, witness, ledger, link, alarms, stops, told, logged, close };
}

const note = (ledger: Ledger, txId: string) =>
  ledger.append({ type: 'bill.credit', txId, payload: { station: 3, device: 'ba-3', denomination: 10_000, currency: 'HKD' } });
const reset = (ledger: Ledger) => ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: 'test' } });

describe('the witness link', () => {
  it('raises the alarm when the edit beside the journal comes with an entry body rewritten under its hash (the fold refused, bad-chain)', async () => {
    const t = await linked({ checkpointEvery: 4 });
    try {
      note(t.ledger, 'n1');
      await t.link.flush();
      const seq = t.ledger.headOf().seq;
      const other = openLedger(path.join(t.dir, 'data'), 'T6', { witnessed: true });
      tamperBalance(other, 'station:3:credit', -90_000);
      tamperBalance(other, 'cashbox:3:10000', 90_000);
      assert.ok(tamperJournalBody(other, seq, 'ba-3', 'ba-4'), 'the note’s body rewritten, its hash columns kept');
      other.close();
      for (let i = 0; i < 5; i++) reset(t.ledger);
      await t.link.flush().catch(() => undefined);
      await t.ledger.checkpoints.signed();
      await until(() => t.alarms.length > 0);
      assert.equal(t.alarms[0]?.kind, 'witness-refused', `an alarm: ${JSON.stringify(t.alarms)}`);
      assert.match(t.alarms[0]?.message ?? '', /bad-chain/);
      assert.equal(t.link.status().stopNewBets, true);
    } finally {
      await t.close();
    }
  });

  it("raises the alarm when the witness refuses the host's own checkpoint: the balances were edited beside the journal", async () => {
    const t = await linked({ checkpointEvery: 4 });
    try {
      note(t.ledger, 'n1');
      await t.link.flush();
      // A second process with the kiosk user's access moves 90,000 from the cashbox to the station's credit: the sum stays zero.
      const other = openLedger(path.join(t.dir, 'data'), 'T6', { witnessed: true });
      tamperBalance(other, 'station:3:credit', -90_000);
      tamperBalance(other, 'cashbox:3:10000', 90_000);
      other.close();
      assert.equal(t.ledger.credit(3), 100_000, 'the host reads the edited credit');
      for (let i = 0; i < 5; i++) reset(t.ledger);
      await t.link.flush().catch(() => undefined);
      await t.ledger.checkpoints.signed();
      await until(() => t.alarms.length > 0);
      assert.equal(t.alarms.length, 1, `one alarm: ${JSON.stringify(t.alarms)}`);
      assert.equal(t.alarms[0]?.kind, 'witness-refused');
      assert.match(t.alarms[0]?.message ?? '', /not-derived.*cashbox:3:10000/);
      const s = t.link.status();
      assert.equal(s.state, 'refused');
      assert.match(s.lastError ?? '', /not-derived/);
      assert.equal(s.stopNewBets, true);
      assert.deepEqual(t.stops, [true]);
      await assert.rejects(t.link.flush(100), /not-derived/);
    } finally {
      await t.close();
    }
  });

  it('an alarm whose receiver throws (its fault refused by a full journal): the loop goes on and stops new bets, the throw told, nothing unhandled (a review of 2 December, H4)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const t = await linked({ checkpointEvery: 4, alarmThrows: true });
    try {
      note(t.ledger, 'n1');
      await t.link.flush();
      const other = openLedger(path.join(t.dir, 'data'), 'T6', { witnessed: true });
      tamperBalance(other, 'station:3:credit', -90_000);
      tamperBalance(other, 'cashbox:3:10000', 90_000);
      other.close();
      for (let i = 0; i < 5; i++) reset(t.ledger);
      await t.link.flush().catch(() => undefined);
      await t.ledger.checkpoints.signed();
      await until(() => t.stops.length > 0);
      await sleep(50);
      assert.equal(t.alarms[0]?.kind, 'witness-refused');
      assert.deepEqual(t.stops, [true], 'the loop went on past the throw to stop new bets');
      assert.equal(t.told.length, 1);
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await t.close();
    }
  });

  it('sends an entry appended right after start at once (the wake-up is not lost before the loop first waits)', async () => {
    const dir = path.join(root, `t${++n}`);
    const socket = path.join(dir, 'w.sock');
    const witness = new Witness({ dir: path.join(dir, 'witness'), key: key() });
    const listening = await listenWitness(witness, { socket });
    const ledger = openLedger(path.join(dir, 'data'), 'T9', { witnessed: true, checkpointEvery: 0 });
    // An idle wait of a minute: a wake-up lost before the loop first waits would leave the entry a minute.
    const link = await WitnessLink.attach(ledger, new WitnessClient(socket), { batchMs: 0, idleMs: 60_000 });
    try {
      link.start();
      note(ledger, 'n1');
      await until(() => link.status().witnessedSeq === 1);
      assert.equal(link.status().witnessedSeq, 1, 'witnessed at once, not after the idle wait');
    } finally {
      await link.stop();
      ledger.close();
      await listening.close();
      witness.close();
    }
  });

  it('raises no alarm for a checkpoint the witness signs', async () => {
    const t = await linked({ checkpointEvery: 4 });
    try {
      note(t.ledger, 'n1');
      for (let i = 0; i < 5; i++) reset(t.ledger);
      await t.link.flush();
      await t.ledger.checkpoints.signed();
      assert.notEqual(checkpointAsFound(t.ledger), null, 'a checkpoint is stored, signed');
      assert.deepEqual(t.alarms, []);
      assert.equal(t.link.status().lastError, null);
      assert.equal(t.link.status().state, 'idle');
    } finally {
      await t.close();
    }
  });

  it("goes on when the witness's record cannot take the line of a head already durable in its slot (a full disk once)", async () => {
    const t = await linked();
    try {
      const record = (t.witness as unknown as { record: { append: (line: unknown) => void } }).record;
      const append = record.append.bind(record);
      let thrown = 0;
      record.append = (line) => {
        if (thrown++ === 0) throw Object.assign(new Error('no space left on device, write'), { code: 'ENOSPC' });
        append(line);
      };
      note(t.ledger, 'n1');
      reset(t.ledger);
      await t.link.flush(5_000);
      assert.equal(thrown > 0, true, 'the record was asked for a line');
      assert.deepEqual(t.alarms, []);
      assert.equal(t.link.status().state, 'idle');
      assert.equal(t.link.status().lastError, null, 'the head it signed was answered signed, not `failed`');
      assert.equal(t.witness.headOf('T6')?.seq, t.ledger.headOf().seq);
      assert.ok(
        t.logged.some((l) => l.level === 'error' && String(l.message).includes('ENOSPC')),
        `the record's failure is logged: ${JSON.stringify(t.logged)}`,
      );
    } finally {
      await t.close();
    }
  });

  it("waits out a `failed` answer (the witness's own fault) like a witness gone, and goes on once it is mended", async () => {
    const t = await linked();
    try {
      // The witness's own error on every request for a while (a head file it cannot write): answered `failed`.
      const w = t.witness as unknown as { witness: (...a: unknown[]) => unknown };
      const witness = w.witness.bind(t.witness);
      let broken = true;
      w.witness = (...a) => {
        if (broken) throw Object.assign(new Error('i/o error, write'), { code: 'EIO' });
        return witness(...a);
      };
      note(t.ledger, 'n1');
      // Waited for by what it says, not by a sleep (under CI's load a retry may be in flight at any instant).
      await until(() => /failed/.test(t.link.status().lastError ?? ''));
      await sleep(100);
      let s = t.link.status();
      assert.deepEqual(t.alarms, [], 'no alarm: the witness refused nothing');
      assert.ok(s.state === 'offline' || s.state === 'sending', `waited out and tried again, never refused: ${s.state}`);
      assert.match(s.lastError ?? '', /failed/);
      assert.equal(s.stopNewBets, false, 'within the limits, bets go on');
      broken = false;
      await t.link.flush(5_000);
      s = t.link.status();
      assert.equal(s.state, 'idle');
      assert.equal(s.witnessedSeq, t.ledger.headOf().seq);
      assert.deepEqual(t.alarms, []);
    } finally {
      await t.close();
    }
  });

  it('raises the protocol alarm when the witness signs heads with another key than the one it gave at hello', async () => {
    const dir = path.join(root, `t${++n}`);
    const socket = path.join(dir, 'fake.sock');
    const given = key();
    const signing = key();
    // A fake witness: says it is key A, signs every head with key B.
    const server = net.createServer((c) => {
      let buf = '';
      c.setEncoding('utf8').on('data', (d: string) => {
        buf += d;
        for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
          const r = JSON.parse(buf.slice(0, nl)) as { id: number; op: string; to?: { seq: number; hash: string } };
          buf = buf.slice(nl + 1);
          const answer =
            r.op === 'hello'
              ? { op: 'hello', publicKey: exportPublicKey(given.publicKey), keyId: keyIdOf(given.publicKey), keyStore: 'file' }
              : r.op === 'head'
                ? { op: 'head', head: null }
                : (() => {
                    const claim = { terminal: 'T7', seq: r.to?.seq ?? 0, hash: r.to?.hash ?? '', at: new Date().toISOString() };
                    return { op: 'witness', head: { ...claim, signature: signStatement(signing.privateKey, headStatement(claim)) } };
                  })();
          c.write(`${JSON.stringify({ id: r.id, ok: true, ...answer })}\n`);
        }
      });
    });
    mkdirSync(dir, { recursive: true });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    const ledger = openLedger(path.join(dir, 'data'), 'T7', { witnessed: true, checkpointEvery: 0 });
    const alarms: Alarm[] = [];
    const link = await WitnessLink.attach(ledger, new WitnessClient(socket), { onAlarm: (a) => alarms.push(a), batchMs: 0, retryMs: 20 });
    link.start();
    try {
      note(ledger, 'n1');
      await assert.rejects(link.flush(400), /did not reach entry 1/);
      const s = link.status();
      assert.equal(alarms.length, 1, `one alarm, however often it is tried: ${JSON.stringify(alarms)} ${JSON.stringify(s)}`);
      assert.equal(alarms[0]?.kind, 'witness-protocol');
      assert.match(alarms[0]?.message ?? '', /signature does not verify/);
      assert.equal(s.witnessedSeq, 0, 'nothing it signed is believed');
      assert.match(s.lastError ?? '', /signature does not verify/);
    } finally {
      await link.stop();
      ledger.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('the host halts the table (ledger-integrity) when the witness refuses its checkpoint of balances edited while it runs', async () => {
    const dir = path.join(root, `t${++n}`);
    const socket = path.join(dir, 'w.sock');
    const witness = new Witness({ dir: path.join(dir, 'witness'), key: key() });
    const listening = await listenWitness(witness, { socket });
    const dataDir = path.join(dir, 'kiosk');
    const running = await startHost({
      dataDir,
      terminalId: 'T8',
      rendererDir: path.join(dataDir, 'none'),
      logger: pino({ level: 'silent' }),
      simulatedDealer: false,
      witness: { socket, waitMs: 2_000 },
    });
    try {
      note(running.ledger, 'n1');
      await running.witness?.flush();
      // Another process of the kiosk's user edits the state table beside the journal (the sum stays zero).
      const other = openLedger(dataDir, 'T8', { witnessed: true });
      tamperBalance(other, 'station:3:credit', -90_000);
      tamperBalance(other, 'cashbox:3:10000', 90_000);
      other.close();
      assert.equal(running.ledger.credit(3), 100_000, 'the host reads the edited credit');
      reset(running.ledger);
      assert.notEqual(running.ledger.checkpoints.write(), null, 'a checkpoint is asked for');
      await running.ledger.checkpoints.signed();
      for (const until = Date.now() + 5_000; Date.now() < until && !running.floor.tilts.list().some((t) => t.kind === 'ledger-integrity');) await sleep(20);
      const fault = running.floor.tilts.list().find((t) => t.kind === 'ledger-integrity');
      assert.ok(fault, `the table halts: ${JSON.stringify(running.floor.tilts.list())}`);
      assert.match(JSON.stringify(fault), /not-derived/);
    } finally {
      await running.close();
      await listening.close();
      witness.close();
    }
  });
});
