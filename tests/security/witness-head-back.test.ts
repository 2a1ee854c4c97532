// A witness whose head goes back while the host is linked to it: its folder restored from an
// older copy, or swapped for another (root on the cabinet; docs/security.md lists that as not
// defended). The heads it had signed past that point are gone, so the journal they vouched for can
// be rewritten there unseen. Before, the link took the witness's lower `stale` head as its own and
// signed on from it without a word, like the upstream acknowledging lower before its
// `ack-backwards` alarm; now it still goes on from it (so the witness signs those entries again)
// and raises the alarm.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openLedger, type Ledger } from '../../ledger/index.js';
import { WitnessClient } from '../../ledger/witness-client.js';
import { WitnessLink } from '../../ledger/witness-link.js';
import { listenWitness } from '../../witness/server.js';
import { Witness } from '../../witness/witness.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-back-'));
after(() => rmSync(root, { recursive: true, force: true }));

const reset = (ledger: Ledger) => ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: 'test' } });

async function until(ok: () => boolean, ms = 5_000): Promise<void> {
  for (const end = performance.now() + ms; !ok() && performance.now() < end;) await sleep(10);
}

describe("the witness's head going back under a running link", () => {
  it('raises the alarm, naming both heads, and goes on from the lower one', async () => {
    const socket = path.join(root, 'w.sock');
    const folder = path.join(root, 'witness');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const key = { privateKey, publicKey, store: 'file' as const };
    let witness = new Witness({ dir: folder, key });
    let listening = await listenWitness(witness, { socket });
    const ledger = openLedger(path.join(root, 'data'), 'T1', { witnessed: true, checkpointEvery: 0 });
    const alarms: { kind: string; message: string }[] = [];
    const link = await WitnessLink.attach(ledger, new WitnessClient(socket), { onAlarm: (a) => alarms.push(a), batchMs: 0, retryMs: 10, idleMs: 20 });
    link.start();
    try {
      reset(ledger);
      reset(ledger);
      await until(() => link.status().witnessedSeq === 2);
      await listening.close();
      witness.close();
      cpSync(folder, `${folder}.copy`, { recursive: true });
      witness = new Witness({ dir: folder, key });
      listening = await listenWitness(witness, { socket });
      for (let i = 0; i < 3; i++) reset(ledger);
      await until(() => link.status().witnessedSeq === 5);
      assert.equal(witness.headOf('T1')?.seq, 5);

      // The witness's folder put back as it was at head 2, under the same key and socket.
      await listening.close();
      witness.close();
      rmSync(folder, { recursive: true });
      cpSync(`${folder}.copy`, folder, { recursive: true });
      witness = new Witness({ dir: folder, key });
      listening = await listenWitness(witness, { socket });
      reset(ledger);
      await until(() => witness.headOf('T1')?.seq === 6 && alarms.length > 0);
      assert.deepEqual(
        alarms.map((a) => a.kind),
        ['witness-backwards'],
        `alarms: ${JSON.stringify(alarms)}`,
      );
      assert.match(alarms[0]?.message ?? '', /\b5\b.*\b2\b/);
      assert.equal(witness.headOf('T1')?.seq, 6, 'the witness signs the lost entries again, and the new one');
      assert.equal(link.status().state === 'refused', false);
    } finally {
      await link.stop();
      ledger.close();
      await listening.close();
      witness.close();
    }
  });
});
