// A witness whose head goes back while the host is linked to it: its folder restored from an
// older copy, or swapped for another (root on the cabinet; docs/security.md lists that as not
// defended). The heads it had signed past that point are gone, so the journal they vouched for can
// be rewritten there unseen. Before, the link took the witness's lower `stale` head as its own and
// signed on from it without a word, like the upstream acknowledging lower before its
// `ack-backwards` alarm; now it still goes on from it (so the witness signs those entries again)
// and raises the alarm.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkpointStats, openLedger, type Ledger } from '../../ledger/index.js';
import { WitnessClient } from '../../ledger/witness-client.js';
import { WitnessLink } from '../../ledger/witness-link.js';
import { WitnessOnFolder } from './witness-on-folder.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-back-'));
after(() => rmSync(root, { recursive: true, force: true }));

const reset = (ledger: Ledger) => ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: 'test' } });

async function until(ok: () => boolean, ms = 5_000): Promise<void> {
  for (const end = performance.now() + ms; !ok() && performance.now() < end;) await sleep(10);
}

/** The witness's folder put back as the copy taken earlier (`${folder}.copy`) had it. */
function putBack(folder: string): void {
  rmSync(folder, { recursive: true });
  cpSync(`${folder}.copy`, folder, { recursive: true });
}

describe("the witness's head going back under a running link", () => {
  it('raises the alarm, naming both heads, and goes on from the lower one', async () => {
    const socket = path.join(root, 'w.sock');
    const folder = path.join(root, 'witness');
    const w = new WitnessOnFolder(folder, socket);
    await w.start();
    const ledger = openLedger(path.join(root, 'data'), 'T1', { witnessed: true, checkpointEvery: 0 });
    const alarms: { kind: string; message: string }[] = [];
    const link = await WitnessLink.attach(ledger, new WitnessClient(socket), { onAlarm: (a) => alarms.push(a), batchMs: 0, retryMs: 10, idleMs: 20 });
    link.start();
    try {
      reset(ledger);
      reset(ledger);
      await until(() => link.status().witnessedSeq === 2);
      await w.restart((f) => cpSync(f, `${f}.copy`, { recursive: true }));
      for (let i = 0; i < 3; i++) reset(ledger);
      await until(() => link.status().witnessedSeq === 5);
      assert.equal(w.witness.headOf('T1')?.seq, 5);

      // The witness's folder put back as it was at head 2, under the same key and socket.
      await w.restart(putBack);
      reset(ledger);
      await until(() => w.witness.headOf('T1')?.seq === 6 && alarms.length > 0);
      assert.deepEqual(
        alarms.map((a) => a.kind),
        ['witness-backwards'],
        `alarms: ${JSON.stringify(alarms)}`,
      );
      assert.match(alarms[0]?.message ?? '', /\b5\b.*\b2\b/);
      assert.equal(w.witness.headOf('T1')?.seq, 6, 'the witness signs the lost entries again, and the new one');
      assert.equal(link.status().state === 'refused', false);
    } finally {
      await link.stop();
      ledger.close();
      await w.stop();
    }
  });
});

// The witness's folder wiped while the host runs (a review of 7 December): a witness holding no head
// of the terminal is its head gone back to genesis, as docs/ledger.md and docs/security.md have it
// ("its folder restored from an older copy, or swapped for another"; a forget is the same alarm at
// the start). Before, its `stale` answer without a head stopped the link as a refusal
// (`witness-refused`, nothing witnessed until a restart), where a head merely lower raised
// `witness-backwards` and went on.
describe("the witness's folder wiped under a running link", () => {
  it('raises witness-backwards, naming its head and genesis, and gives the witness the chain from genesis', async () => {
    const dir = path.join(root, 'wiped');
    const socket = path.join(dir, 'w.sock');
    const folder = path.join(dir, 'witness');
    const w = new WitnessOnFolder(folder, socket);
    await w.start();
    const ledger = openLedger(path.join(dir, 'data'), 'T3', { witnessed: true, checkpointEvery: 0 });
    const alarms: { kind: string; message: string }[] = [];
    const link = await WitnessLink.attach(ledger, new WitnessClient(socket), { onAlarm: (a) => alarms.push(a), batchMs: 0, retryMs: 10, idleMs: 20 });
    link.start();
    try {
      for (let i = 0; i < 5; i++) reset(ledger);
      await until(() => link.status().witnessedSeq === 5);
      // The folder gone, a new one under the same key and socket: the witness holds no head of T3.
      await w.restart((f) => rmSync(f, { recursive: true }));
      reset(ledger);
      await until(() => w.witness.headOf('T3')?.seq === 6 && alarms.length > 0);
      assert.deepEqual(
        alarms.map((a) => a.kind),
        ['witness-backwards'],
        `alarms: ${JSON.stringify(alarms)}`,
      );
      assert.match(alarms[0]?.message ?? '', /\b5\b.*\b0\b/);
      assert.equal(w.witness.headOf('T3')?.seq, 6, 'the witness signs the whole chain again, and the new entry');
      assert.notEqual(link.status().state, 'refused');
    } finally {
      await link.stop();
      ledger.close();
      await w.stop();
    }
  });
});

// The same while the host is stopped: the host's start found the witness's head merely behind its
// journal (what a kill before the last heads reached it leaves) and said nothing. But the ledger
// keeps the checkpoints the witness signed, and the witness signs one only at an entry it holds
// (its fold goes no further than its head): a witness head below such a checkpoint is one that lost
// heads it had signed. Now the link's start raises the alarm; an honest restart raises none.
describe("the witness's head going back while the host is stopped", () => {
  const open = async (dir: string, socket: string) => {
    const ledger = openLedger(path.join(dir, 'data'), 'T2', { witnessed: true, checkpointEvery: 4 });
    const alarms: { kind: string; message: string }[] = [];
    const link = await WitnessLink.attach(ledger, new WitnessClient(socket), { onAlarm: (a) => alarms.push(a), batchMs: 0, retryMs: 10, idleMs: 20 });
    link.start();
    return {
      ledger,
      link,
      alarms,
      close: async () => {
        await link.stop();
        ledger.close();
      },
    };
  };

  it("raises the alarm at the link's start, naming the checkpoint it signed and its head; an honest restart raises none", async () => {
    const dir = path.join(root, 'stopped');
    const socket = path.join(dir, 'w.sock');
    const folder = path.join(dir, 'witness');
    const w = new WitnessOnFolder(folder, socket);
    await w.start();
    let host = await open(dir, socket);
    try {
      reset(host.ledger);
      reset(host.ledger);
      await until(() => host.link.status().witnessedSeq === 2);
      await w.restart((f) => cpSync(f, `${f}.copy`, { recursive: true }));
      for (let i = 0; i < 5; i++) reset(host.ledger);
      await host.link.flush();
      await host.ledger.checkpoints.signed();
      const signedAt = checkpointStats(host.ledger).lastSeq ?? 0;
      assert.ok(signedAt > 2, `a checkpoint the witness signed past entry 2: ${signedAt}`);
      await host.close();

      // An honest restart: the witness as it was.
      host = await open(dir, socket);
      await sleep(50);
      assert.deepEqual(host.alarms, [], 'nothing went back');
      await host.close();

      // Stopped, the witness's folder put back as it was at head 2, under the same key and socket.
      await w.restart(putBack);
      host = await open(dir, socket);
      await until(() => host.alarms.length > 0);
      assert.deepEqual(
        host.alarms.map((a) => a.kind),
        ['witness-backwards'],
        `alarms: ${JSON.stringify(host.alarms)}`,
      );
      assert.match(host.alarms[0]?.message ?? '', new RegExp(`\\b${signedAt}\\b.*\\b2\\b|\\b2\\b.*\\b${signedAt}\\b`));
      await until(() => w.witness.headOf('T2')?.seq === host.ledger.headOf().seq);
      assert.equal(w.witness.headOf('T2')?.seq, host.ledger.headOf().seq, 'the witness signs the lost entries again');
    } finally {
      await host.close();
      await w.stop();
    }
  });
});
