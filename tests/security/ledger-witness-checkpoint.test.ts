// Issue 29 item 3 (the checkpoint key moves to the witness): a balance raised in the database and a
// checkpoint of that state signed with the key file beside it. Without a witness the start begins
// its verification from that checkpoint and the station plays with ten times its credit (the
// control below). A witnessed ledger believes only checkpoints the witness signed, over the state's
// digest: the key file's is no starting point, one the witness signed fails once its state is
// edited, and the verification from the witness's own checkpoint (or from genesis) finds the
// balance. And the migration: a folder from before the witness starts with it, is verified from
// genesis once, and gets a checkpoint the witness signed.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { checkpointStats, Ledger, openExistingLedger } from '../../ledger/index.js';
import { checkpointAsFound, checkpointStateText, tamperBalance, tamperCheckpoint } from '../../ledger/testing/tamper.js';
import { startWitness, writeNewKeyFile, type RunningWitness } from '../../witness/index.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-checkpoint-'));
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

const NOTE = 10_000;

function start(dataDir: string, withWitness: boolean): Promise<RunningHost> {
  return startHost({
    dataDir,
    terminalId: path.basename(dataDir),
    rendererDir: path.join(dataDir, 'none'),
    logger: silent,
    simulatedDealer: false,
    ...(withWitness ? { witness: { socket, waitMs: 2_000 } } : {}),
  });
}

/** A folder whose host credited a note of 100 at station 3 and stopped (its last start's checkpoint signed). */
async function folder(name: string, withWitness: boolean): Promise<string> {
  const dir = path.join(root, name);
  const running = await start(dir, withWitness);
  running.ledger.append({ type: 'bill.credit', txId: `${name}-note`, payload: { station: 3, device: 'ba-3', denomination: NOTE, currency: 'HKD' } });
  await running.ledger.checkpoints.signed();
  await running.close();
  return dir;
}

/**
 * The attack: station 3's credit raised to ten times in the balances, and a checkpoint of that state
 * at the head signed with the key file beside the database (made if the folder has none: the
 * folder is the attacker's).
 */
function raiseAndSign(dir: string): void {
  const probe = openExistingLedger(dir, { tailCheck: false });
  const terminalId = probe.terminalId;
  probe.close();
  const keyFile = path.join(dir, 'ledger-checkpoint.key');
  if (!existsSync(keyFile)) writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  const key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
  const l = Ledger.open({ dataDir: dir, terminalId, checkpointKey: key, tailCheck: false });
  // Balances still sum to zero: the cashbox is said to hold the notes the credit claims.
  tamperBalance(l, 'station:3:credit', -9 * NOTE);
  tamperBalance(l, `cashbox:3:${NOTE}`, 9 * NOTE);
  assert.ok(checkpointAsFound(l) !== null, 'the forged checkpoint is written');
  l.close();
}

describe("checkpoints are the witness's to sign", { timeout: 180_000 }, () => {
  it('without a witness, a balance raised and a checkpoint signed with the key file pass the start: ten times the credit (the limit, the control)', async () => {
    const dir = await folder('unwitnessed', false);
    raiseAndSign(dir);
    const running = await start(dir, false);
    try {
      assert.equal(running.recovery.ledgerVerified, true, running.recovery.problems.join('\n'));
      assert.equal(running.ledger.credit(3), 10 * NOTE);
    } finally {
      await running.close();
    }
  });

  it("witnessed, the same is refused: the key file's checkpoint is no starting point, and the balance is found", async () => {
    const dir = await folder('witnessed', true);
    raiseAndSign(dir);
    const running = await start(dir, true);
    try {
      assert.equal(running.recovery.ledgerVerified, false);
      assert.ok(running.recovery.problems.includes('balances: stored and recomputed differ'), running.recovery.problems.join('\n'));
      assert.ok(running.floor.tilts.list().some((t) => t.kind === 'ledger-integrity'));
    } finally {
      await running.close();
    }
  });

  it('a checkpoint the witness signed, its state edited with the balance: its signature fails', async () => {
    const dir = await folder('edited', true);
    const l = openExistingLedger(dir, { tailCheck: false });
    const seq = checkpointStats(l).lastSeq;
    assert.ok(seq !== null);
    const before = checkpointStateText(l, seq);
    const state = JSON.parse(before) as { balances: [string, number][] };
    const moved: Record<string, number> = { 'station:3:credit': -9 * NOTE, [`cashbox:3:${NOTE}`]: 9 * NOTE };
    for (const [a, d] of Object.entries(moved)) {
      const at = state.balances.find(([x]) => x === a);
      if (at) at[1] += d;
      else state.balances.push([a, d]);
    }
    state.balances.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    assert.notEqual(JSON.stringify(state), before);
    assert.ok(tamperCheckpoint(l, seq, 'state', JSON.stringify(state)));
    for (const [a, d] of Object.entries(moved)) tamperBalance(l, a, d);
    l.close();
    const running = await start(dir, true);
    try {
      assert.equal(running.recovery.ledgerVerified, false);
      assert.ok(
        running.recovery.problems.some((p) => p === `checkpoint ${seq}: signature does not match the witness's key`),
        running.recovery.problems.join('\n'),
      );
    } finally {
      await running.close();
    }
  });

  it('a folder from before the witness: verified from genesis once, then from the checkpoint the witness signed', async () => {
    const dir = await folder('migrated', false);
    let running = await start(dir, true);
    try {
      assert.equal(running.recovery.ledgerVerified, true, running.recovery.problems.join('\n'));
      assert.equal(running.recovery.verifiedFrom, 0, "the key file's checkpoints are not believed: from genesis");
      await running.ledger.checkpoints.signed();
      await running.witness?.flush();
    } finally {
      await running.close();
    }
    running = await start(dir, true);
    try {
      assert.equal(running.recovery.ledgerVerified, true, running.recovery.problems.join('\n'));
      assert.ok(running.recovery.verifiedFrom > 0, 'from the checkpoint the witness signed');
    } finally {
      await running.close();
    }
  });
});
