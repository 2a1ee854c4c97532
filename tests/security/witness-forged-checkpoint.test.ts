// Issue 50 item 1: the witness signed any checkpoint state at its head. Someone with the kiosk
// user's access (its files, the witness's socket) journals one harmless entry with the ledger's own
// code, has the witness witness it, asks it to sign a made-up state at that head (station 2's
// credit +100,000.00 MOP, the house −100,000.00), inserts the checkpoint row and edits `balances`
// to match. Before: `etg ledger verify --witness` (the default mode, from the newest checkpoint)
// said OK and a witnessed host started with the forged credit; only `--full` caught it. Now the
// witness signs a checkpoint only of the state it derived itself from the entries' bodies, so it
// refuses, and the row the attacker can write without its signature is refused by verify and start.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { Ledger, openExistingLedger } from '../../ledger/index.js';
import { WITNESS_SIGNATURE_PREFIX } from '../../ledger/ledger.js';
import { insertCheckpointRow, projectionsAsFound, tamperBalance } from '../../ledger/testing/tamper.js';
import { startWitness, writeNewKeyFile, type RunningWitness } from '../../witness/index.js';
import { rawLines } from './witness-kit.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-forged-checkpoint-'));
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

const NOTE = 50_000; // 500.00 MOP
const FORGED = 10_000_000; // 100,000.00 MOP

function start(dataDir: string): Promise<RunningHost> {
  return startHost({
    dataDir,
    terminalId: path.basename(dataDir),
    rendererDir: path.join(dataDir, 'none'),
    logger: silent,
    simulatedDealer: false,
    witness: { socket, waitMs: 5_000 },
  });
}

function verify(dir: string, ...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/etg.js', 'ledger', 'verify', '--data-dir', dir, '--witness', socket, '--terminal', path.basename(dir), ...args],
      { encoding: 'utf8', env: { ...process.env, ETG_WITNESS_SOCKET: '' } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out: stdout + stderr }),
    );
  });
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The attack; returns what the witness answered to each request for a signature. */
async function forge(dir: string, terminal: string): Promise<Record<string, unknown>[]> {
  const l = Ledger.open({ dataDir: dir, terminalId: terminal, witnessed: true, tailCheck: false });
  const before = l.headOf();
  l.append({ type: 'door.open', payload: { door: 'main' } });
  const head = l.headOf();
  const entry = l.entry(head.seq);
  assert.ok(entry);
  const witnessed = await rawLines(socket, [
    `${JSON.stringify({ id: 1, op: 'witness', terminal, from: before, links: [entry.contentHash], to: { seq: head.seq, hash: head.hash } })}\n`,
  ]);
  assert.equal(witnessed[0]?.ok, true, `the witness witnesses a well-formed entry: ${JSON.stringify(witnessed)}`);

  const found = projectionsAsFound(l);
  const balances = new Map(found.balances);
  balances.set('station:2:credit', (balances.get('station:2:credit') ?? 0) - FORGED);
  balances.set('house', (balances.get('house') ?? 0) + FORGED);
  const at = new Date().toISOString();
  const state = JSON.stringify({
    v: 1,
    terminal,
    seq: head.seq,
    hash: head.hash,
    at,
    balances: [...balances].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    meters: found.meters,
    openBets: [],
    table: null,
  });
  // Every way the protocol has, old and new, to ask for a checkpoint of that state: with the
  // witness's fold of the entries' effects brought to the head first, with the journal's own bodies.
  const folded = (await rawLines(socket, [`${JSON.stringify({ id: 4, op: 'folded', terminal })}\n`]))[0]?.folded as { seq: number; hash: string } | undefined;
  if (folded) {
    const bodies = [...l.entries(folded.seq + 1)].map((e) => e.body);
    const f = await rawLines(socket, [`${JSON.stringify({ id: 5, op: 'fold', terminal, from: folded, bodies, to: { seq: head.seq, hash: head.hash } })}\n`]);
    assert.equal(f[0]?.ok, true, `the witness folds the journal's own bodies: ${JSON.stringify(f)}`);
  }
  const answers = await rawLines(socket, [
    `${JSON.stringify({ id: 2, op: 'checkpoint', terminal, seq: head.seq, hash: head.hash, stateSha256: sha256(state) })}\n`,
    `${JSON.stringify({ id: 3, op: 'checkpoint', terminal, seq: head.seq, hash: head.hash, state })}\n`,
  ]);
  const signed = answers.find((a) => a.ok === true && typeof a.signature === 'string');
  // Without a signature the attacker writes one of its own: the row is there either way.
  const signature = typeof signed?.signature === 'string' ? signed.signature : Buffer.alloc(64, 7).toString('base64');
  insertCheckpointRow(l, { seq: head.seq, hash: head.hash, writtenAt: at, state, signature: `${WITNESS_SIGNATURE_PREFIX}${signature}` });
  tamperBalance(l, 'station:2:credit', -FORGED, { create: true });
  tamperBalance(l, 'house', FORGED, { create: true });
  l.close();
  return answers;
}

describe('a checkpoint state the witness did not derive', { timeout: 180_000 }, () => {
  it('made up at its head, the row inserted and the balances edited: refused by the default verify and by the start; the witness signs none of it', async () => {
    const dir = path.join(root, 'forged');
    const terminal = 'forged';
    let running = await start(dir);
    running.ledger.append({ type: 'bill.escrow', payload: { station: 2, device: 'ba-2', denomination: NOTE, currency: 'MOP' } });
    running.ledger.append({ type: 'bill.credit', txId: 'note-1', payload: { station: 2, device: 'ba-2', denomination: NOTE, currency: 'MOP' } });
    await running.ledger.checkpoints.signed();
    await running.close();
    assert.equal((await verify(dir)).code, 0, 'the untouched folder verifies (the control)');

    const answers = await forge(dir, terminal);
    const probe = openExistingLedger(dir, { tailCheck: false });
    assert.equal(probe.credit(2), NOTE + FORGED, 'the forged credit is in the balances');
    probe.close();

    const r = await verify(dir);
    assert.equal(r.code, 1, `the default verify (from the newest checkpoint) refuses it: ${r.out}`);
    assert.match(r.out, /MISMATCH: checkpoint \d+: signature does not match the witness's key/, r.out);
    running = await start(dir);
    try {
      assert.equal(running.recovery.ledgerVerified, false, 'the start refuses it');
      assert.ok(running.floor.tilts.list().some((t) => t.kind === 'ledger-integrity'));
      assert.equal(running.table.reads.view().hold, 'ledger', 'the table holds: nothing is played on the forged credit');
    } finally {
      await running.close();
    }
    assert.equal((await verify(dir, '--full')).code, 1, '--full refuses it too');
    // The witness refused both requests: it signs no state it did not derive.
    assert.deepEqual(
      answers.map((a) => a.error),
      ['bad-request', 'not-derived'],
      JSON.stringify(answers),
    );
  });
});
