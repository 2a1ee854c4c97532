// Issue 52 item 5: the ledger witness is a long-lived process under systemd (etg-witness.service,
// Restart=always), so a crash of it is a fault, never a loss. Here `etg witness serve` runs as its own
// process beside a host that journals all the while, and is killed with SIGKILL at random moments
// (a request in flight, a head being written, idle) and started again on the same folder. After each
// restart the witness still holds at least the newest head it had signed for the host before the
// kill (the host was told of it: forgetting it would let a rewrite of those entries pass); the host
// never raised an alarm nor stopped journalling; at the end the witness has caught up to the last
// entry, and a new start of the host on the witnessed journal verifies it against the witness.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { verifyLedger } from '../../ledger/index.js';
import { writeNewKeyFile } from '../../witness/index.js';
import { rawLines, spawnWitness, type WitnessProcess } from './witness-kit.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-kill-'));
const witnessDir = path.join(root, 'witness');
const key = path.join(root, 'witness.key');
const socket = path.join(root, 'witness.sock');
const dataDir = path.join(root, 'kiosk');
const TERMINAL = 'WK-1';
const KILLS = 4;
/** A start of `etg witness serve` (tsx compiling on a loaded machine took over 30 s). */
const START_MS = 180_000;

let witness: WitnessProcess | null = null;
let host: RunningHost | null = null;
after(async () => {
  await host?.close().catch(() => undefined);
  await witness?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** The host's log lines at error level (a witness alarm is one). */
const errors: string[] = [];
const logger = pino(
  { level: 'error' },
  new Writable({
    write(chunk: Buffer, _enc, done) {
      errors.push(chunk.toString());
      done();
    },
  }),
);

function start(): Promise<RunningHost> {
  return startHost({
    dataDir,
    terminalId: TERMINAL,
    rendererDir: path.join(dataDir, 'none'),
    logger,
    simulatedDealer: false,
    witness: { socket, waitMs: 30_000 },
  });
}

/** The newest head the witness holds for the terminal, asked on its socket. */
async function witnessHeadSeq(): Promise<number> {
  const [answer] = await rawLines(socket, [`${JSON.stringify({ id: 1, op: 'head', terminal: TERMINAL })}\n`]);
  const head = answer?.head;
  if (head === null) return 0;
  assert.ok(typeof head === 'object' && head !== null && 'seq' in head && typeof head.seq === 'number', JSON.stringify(answer));
  return head.seq;
}

describe('the ledger witness killed at any moment loses nothing', { timeout: 300_000 }, () => {
  it(`${KILLS} SIGKILLs of the witness while the host journals: every head it signed survives, the host catches it up, a new start verifies`, async () => {
    mkdirSync(witnessDir, { mode: 0o700 });
    writeNewKeyFile(key);
    witness = await spawnWitness(witnessDir, key, socket, START_MS);
    host = await start();
    const running = host;
    const link = running.witness;
    assert.ok(link, 'the host runs with its witness');
    let n = 0;
    const credit = () =>
      running.ledger.append({
        type: 'bill.credit',
        txId: `note-${++n}`,
        payload: { station: 1 + (n % 3), device: 'ba-1', denomination: 10_000, currency: 'HKD' },
      });
    // A seeded sequence of moments (no Math.random: a failure is run again as it was).
    let seed = 52;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let k = 0; k < KILLS; k++) {
      // Journal for a while at a table's pace and more, the witness answering; then kill it mid-stream.
      const until = Date.now() + 200 + Math.floor(next() * 800);
      while (Date.now() < until) {
        credit();
        await sleep(Math.floor(next() * 15));
      }
      const told = link.newestSigned()?.seq ?? 0;
      witness.child.kill('SIGKILL');
      await witness.stop();
      // The host journals on while its witness is down (nothing a player is owed waits on it).
      for (let i = 0; i < 20; i++) credit();
      witness = await spawnWitness(witnessDir, key, socket, START_MS);
      const kept = await witnessHeadSeq();
      assert.ok(kept >= told, `kill ${k + 1}: the witness holds head ${kept} after its restart; before the kill the host had been told ${told} was signed`);
    }
    // Caught up: the link resends what the witness missed (entries the host journals itself, such as
    // a checkpoint, may come after a flush, so the lag is watched down to zero).
    for (const until = Date.now() + 60_000; link.status().lagEntries > 0 && Date.now() < until;) await sleep(100);
    const status = link.status();
    assert.equal(status.witnessedSeq, status.headSeq, `caught up: ${JSON.stringify(status)}`);
    assert.equal(await witnessHeadSeq(), running.ledger.headOf().seq, 'the witness holds the journal’s last entry');
    assert.notEqual(status.state, 'refused');
    assert.deepEqual(
      errors.filter((l) => /witness/.test(l)),
      [],
      'no witness alarm',
    );
    const entries = running.ledger.headOf().seq;
    await running.close();
    host = null;
    // A new start checks the journal against the newest head the witness signed, and goes on.
    host = await start();
    assert.equal(host.recovery.ledgerVerified, true, JSON.stringify(host.recovery));
    assert.ok(host.ledger.headOf().seq >= entries, 'every entry is still in the journal');
    assert.equal(verifyLedger(host.ledger).ok, true);
  });
});
