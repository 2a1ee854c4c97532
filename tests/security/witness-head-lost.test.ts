// The review's MEDIUM-HIGH finding, end to end: the witness's head file for a terminal damaged
// (zeroed: media damage, both slots torn in one page write) while the kiosk's journal is rolled
// back (its last entries dropped, the head mark rewritten). Before: the witness read the file as
// "no head yet" without a look at its record, the host's start took it for a first use, and the
// rolled-back journal was signed from genesis — the host started, verified. Now the witness answers
// that terminal `failed`, naming the file, and the host does not start on it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { startHost } from '../../host/start-host.js';
import { startWitness, writeNewKeyFile } from '../../witness/index.js';
import { dropNewest, rewriteMark } from './attacker-kit.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-head-lost-'));
after(() => rmSync(root, { recursive: true, force: true }));
const silent = pino({ level: 'silent' });

describe("the witness's head file lost while the journal is rolled back", { timeout: 120_000 }, () => {
  it('the host does not start: the witness answers failed naming the head file, never a first use from genesis', async () => {
    const witnessDir = path.join(root, 'witness');
    mkdirSync(witnessDir, { mode: 0o700 });
    const keyFile = path.join(witnessDir, 'witness.key');
    writeNewKeyFile(keyFile);
    const socket = path.join(witnessDir, 'witness.sock');
    const serve = () => startWitness({ dir: witnessDir, key: { kind: 'file', file: keyFile }, listen: { socket } });
    const dataDir = path.join(root, 'LOST-1');
    const start = () =>
      startHost({
        dataDir,
        terminalId: 'LOST-1',
        rendererDir: path.join(dataDir, 'none'),
        logger: silent,
        simulatedDealer: false,
        witness: { socket, waitMs: 2_000 },
      });

    let witness = await serve();
    const running = await start();
    running.ledger.append({ type: 'bill.escrow', payload: { station: 3, device: 'ba-3', denomination: 10_000, currency: 'HKD' } });
    running.ledger.append({ type: 'bill.credit', txId: 'note', payload: { station: 3, device: 'ba-3', denomination: 10_000, currency: 'HKD' } });
    await running.witness?.flush();
    const witnessed = running.ledger.headOf().seq;
    await running.close();
    await witness.close();

    // The rollback: the note's two entries gone, the mark rewritten to the shorter head; the witness's head file zeroed.
    assert.ok(dropNewest(dataDir, 2).seq < witnessed);
    rewriteMark(dataDir);
    const headFile = path.join(witnessDir, 'heads', 'LOST-1');
    writeFileSync(headFile, Buffer.alloc(1024, 0));

    const logged: Record<string, unknown>[] = [];
    witness = await startWitness({ dir: witnessDir, key: { kind: 'file', file: keyFile }, listen: { socket }, log: (l) => logged.push(l) });
    try {
      await assert.rejects(start(), (e: Error) => {
        assert.match(e.message, /the witness failed \(its own fault\): .*heads\/LOST-1 .*etg witness forget/, e.message);
        return true;
      });
      assert.ok(
        logged.some((l) => String(l.message).includes(headFile)),
        JSON.stringify(logged),
      );
      assert.equal(witness.witness.handle({ id: 1, op: 'head', terminal: 'LOST-1' }).ok, false, 'still nothing signed for it');
    } finally {
      await witness.close();
    }
  });
});
