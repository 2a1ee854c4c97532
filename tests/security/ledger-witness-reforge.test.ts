// Issue 29 items 2 and "Done when": someone with the kiosk user's file access rebuilds the whole
// journal with the ledger's own code and every file in the data folder (the checkpoint key, the
// head mark), a note of 100 changed to 1000. Before the witness, `etg ledger verify` and `--full`
// said OK and the host started with the station's credit ten times too high. With the ledger
// witness (its key and record in its own folder, which this attacker never touches) both verify
// modes exit 1 naming it, and the host's start holds the table. So do lost entries hidden by a
// rewritten head mark (the last entry deleted, the WAL truncated). Failed on main: there was no
// witness (`etg witness`, `--witness` did not exist) and the re-forge verified.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { genesisHash, openExistingLedger, WitnessClient, WitnessRefused } from '../../ledger/index.js';
import { startWitness, writeNewKeyFile, type RunningWitness } from '../../witness/index.js';
import { dropNewest, reforge, rewriteMark } from './attacker-kit.js';

const root = mkdtempSync(path.join(tmpdir(), 'ledger-witness-'));
// The witness's own folder: its key and record. The attacker below works on the data folders only.
const witnessDir = path.join(root, 'witness');
const socket = path.join(witnessDir, 'witness.sock');
let witness: RunningWitness;
const silent = pino({ level: 'silent' });

before(async () => {
  mkdirSync(witnessDir, { mode: 0o700 });
  writeNewKeyFile(path.join(witnessDir, 'witness.key'));
  witness = await startWitness({ dir: witnessDir, key: { kind: 'file', file: path.join(witnessDir, 'witness.key') }, listen: { socket } });
});
after(async () => {
  await witness.close();
  rmSync(root, { recursive: true, force: true });
});

const NOTE_100 = 10_000;
const NOTE_1000 = 100_000;

/** Each folder is its own terminal (the one witness serves them all). */
function start(dataDir: string, withWitness = true): Promise<RunningHost> {
  return startHost({
    dataDir,
    terminalId: path.basename(dataDir),
    rendererDir: path.join(dataDir, 'none'),
    logger: silent,
    simulatedDealer: false,
    ...(withWitness ? { witness: { socket, waitMs: 2_000 } } : {}),
  });
}

/**
 * A data folder as a witnessed host leaves it: started and stopped once, started again, a note of
 * 100 credited at station 3, stopped (the second run's commits are in the WAL until that stop).
 */
async function witnessedFolder(name: string, copyWhileOpen?: string): Promise<{ dir: string; terminal: string }> {
  const dir = path.join(root, name);
  await (await start(dir)).close();
  const running = await start(dir);
  running.ledger.append({ type: 'bill.escrow', payload: { station: 3, device: 'ba-3', denomination: NOTE_100, currency: 'HKD' } });
  running.ledger.append({ type: 'bill.credit', txId: `${name}-note`, payload: { station: 3, device: 'ba-3', denomination: NOTE_100, currency: 'HKD' } });
  await running.witness?.flush();
  if (copyWhileOpen) {
    // A power cut's image: the database and its WAL as they stand with the host running.
    mkdirSync(copyWhileOpen);
    for (const f of ['ledger.sqlite', 'ledger.sqlite-wal', 'ledger.sqlite.head']) copyFileSync(path.join(dir, f), path.join(copyWhileOpen, f));
    assert.ok(statSync(path.join(copyWhileOpen, 'ledger.sqlite-wal')).size > 0, 'the image has commits in its WAL');
  }
  const terminal = running.ledger.terminalId;
  assert.equal(running.ledger.credit(3), NOTE_100);
  await running.close();
  return { dir, terminal };
}

/** `etg ledger verify` in a child process (asynchronously: the witness answers from this process). */
function verify(dir: string, ...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/etg.js', 'ledger', 'verify', '--data-dir', dir, ...args],
      { encoding: 'utf8', env: { ...process.env, ETG_WITNESS_SOCKET: '' } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out: stdout + stderr }),
    );
  });
}

async function startRefuses(dir: string, says: RegExp): Promise<void> {
  const running = await start(dir);
  try {
    assert.equal(running.recovery.ledgerVerified, false, 'the start verifies against the witness and fails');
    assert.ok(
      running.recovery.problems.some((p) => says.test(p)),
      running.recovery.problems.join('\n'),
    );
    assert.ok(running.floor.tilts.list().some((t) => t.kind === 'ledger-integrity'));
    assert.equal(running.table.reads.view().hold, 'ledger', 'the table holds: no bets, no cash-out on that journal');
  } finally {
    await running.close();
  }
}

describe('the ledger witness against an attacker with every file of the data folder', { timeout: 180_000 }, () => {
  it("a journal re-forged with the ledger's own code, a note of 100 made 1000, the mark and checkpoint key used: refused by verify (both modes) and the start", async () => {
    const { dir, terminal } = await witnessedFolder('reforge');
    assert.equal(
      (await verify(dir, '--witness', socket, '--terminal', path.basename(dir))).code,
      0,
      'the untouched folder verifies against its witness (the control)',
    );
    let changed = 0;
    const head = reforge(dir, (e, p) => {
      if ((e.type === 'bill.escrow' || e.type === 'bill.credit') && p.denomination === NOTE_100) {
        changed++;
        return { ...p, denomination: NOTE_1000 };
      }
      return p;
    });
    assert.equal(changed, 2, 'the escrow and the credit of the note');
    // The forgery is complete: whatever the data folder's files can check, it passes (the limit
    // without a witness, docs/security.md), and the ledger says 1000.
    const unwitnessed = await verify(dir);
    assert.equal(unwitnessed.code, 0, unwitnessed.out);
    const probe = openExistingLedger(dir, { tailCheck: false });
    assert.equal(probe.credit(3), NOTE_1000);
    probe.close();

    for (const full of [[], ['--full']]) {
      const r = await verify(dir, '--witness', socket, '--terminal', path.basename(dir), ...full);
      assert.equal(r.code, 1, `verify ${full.join(' ')} exits 1: ${r.out}`);
      assert.match(r.out, /MISMATCH: witness: entry \d+ of the journal is not the one the witness .* signed .*rewritten/, r.out);
    }
    // The attacker can reach the witness's socket too, and cannot have the forged chain signed.
    const client = new WitnessClient(socket);
    const forged = openExistingLedger(dir, { tailCheck: false });
    const links = [...forged.entries()].map((e) => e.contentHash);
    forged.close();
    await assert.rejects(
      client.witness(terminal, { seq: 0, hash: genesisHash(terminal) }, links, head),
      (e) => e instanceof WitnessRefused && e.reason === 'diverging',
    );
    client.close();
    await startRefuses(dir, /witness: entry \d+ of the journal is not the one/);
  });

  it('a journal re-forged under a new terminal id, its chain given to the witness from genesis: verify needs the terminal named, and refuses the journal', async () => {
    const { dir, terminal } = await witnessedFolder('renamed');
    const renamed = `${terminal}-forged`;
    const head = reforge(
      dir,
      (e, p) => ((e.type === 'bill.escrow' || e.type === 'bill.credit') && p.denomination === NOTE_100 ? { ...p, denomination: NOTE_1000 } : p),
      { terminalId: renamed },
    );
    // The witness takes a terminal it has never seen from genesis: the attacker has it sign the forged chain.
    const client = new WitnessClient(socket);
    const forged = openExistingLedger(dir, { tailCheck: false });
    const links = [...forged.entries()].map((e) => e.contentHash);
    assert.equal(forged.credit(3), NOTE_1000);
    forged.close();
    await client.witness(renamed, { seq: 0, hash: genesisHash(renamed) }, links, head);
    client.close();
    // The journal's own id is whatever its writer chose: verify is told which terminal it checks.
    const unnamed = await verify(dir, '--witness', socket);
    assert.equal(unnamed.code, 2, unnamed.out);
    assert.match(unnamed.out, /--terminal is required with --witness/, unnamed.out);
    for (const full of [[], ['--full']]) {
      const r = await verify(dir, '--witness', socket, '--terminal', terminal, ...full);
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, new RegExp(`MISMATCH: the journal names terminal ${renamed}, not ${terminal}`), r.out);
    }
    // The start names its terminal from its configuration, and refuses the folder.
    await assert.rejects(start(dir), new RegExp(renamed));
  });

  it('the last entries deleted (the journal, its outbox and projections left consistent) and the head mark rewritten to match: refused', async () => {
    const { dir } = await witnessedFolder('deleted');
    dropNewest(dir, 2);
    assert.equal((await verify(dir)).code, 0, 'without the witness, nothing shows they are gone');
    for (const full of [[], ['--full']]) {
      const r = await verify(dir, '--witness', socket, '--terminal', path.basename(dir), ...full);
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /witness: the journal ends at entry \d+, but the witness .* signed entry \d+/, r.out);
    }
    await startRefuses(dir, /witness: the journal ends at entry/);
  });

  it('the WAL truncated (commits not yet copied into the database gone) and the mark rewritten: refused', async () => {
    // The image of terminal `wal`, in a folder of the same name elsewhere.
    mkdirSync(path.join(root, 'image'));
    const image = path.join(root, 'image', 'wal');
    await witnessedFolder('wal', image);
    truncateSync(path.join(image, 'ledger.sqlite-wal'), 0);
    rewriteMark(image);
    assert.equal((await verify(image)).code, 0, 'without the witness, the shorter journal verifies');
    const r = await verify(image, '--witness', socket, '--terminal', path.basename(image));
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /witness: the journal ends at entry \d+, but the witness .* signed entry \d+/, r.out);
    await startRefuses(image, /witness: the journal ends at entry/);
  });

  it('a witness that does not answer: verify exits 1 saying so, and the host does not start', async () => {
    const { dir } = await witnessedFolder('down');
    const gone = path.join(root, 'nobody.sock');
    const r = await verify(dir, '--witness', gone, '--terminal', path.basename(dir));
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /witness: .*cannot be reached/, r.out);
    await assert.rejects(
      startHost({
        dataDir: dir,
        terminalId: 'down',
        rendererDir: path.join(dir, 'none'),
        logger: silent,
        simulatedDealer: false,
        witness: { socket: gone, waitMs: 500 },
      }),
      /the ledger witness at .* did not answer: the host does not start without it/,
    );
    // The folder is untouched and starts with its witness.
    const running = await start(dir);
    assert.equal(running.recovery.ledgerVerified, true, running.recovery.problems.join('\n'));
    await running.close();
  });
});
