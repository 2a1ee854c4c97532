// SAS system validation killed mid-cash-out (docs/sas.md, "System validation at a station"): the
// station's process (./system-validation-kill/child.ts, the real host start, station 1 on a socat
// pty pair, a simulated printer) SIGKILLs itself right after one entry of a cash-out commits — the
// wait (`ticket.validation.request`, before exception 57), the system's number
// (`ticket.validation.end`, before 0x58 is answered and before `ticket.issue`), the ticket
// (`ticket.issue`, before the print command). The system is the host simulator (from the
// document). The station starts again on its data folder and the same link; checked each time:
// the note's money is whole (credit + handpay waiting + ticket in print), nothing issued twice or
// handpaid twice, the restart rule's handpay where no ticket was issued, no cash-out waiting for
// the system after the restart (0x57 says none; a 0x58 sent late is 80), and a second restart
// changes nothing. One trial kills the start after that too, right after the restart rule's
// `restart` end commits: its handpay must be in the same commit (never asked again, never paid twice).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import type { RunningHost } from '../../host/start-host.js';
import { entryCount, newestEntriesOfType } from '../../ledger/index.js';
import { bundledChild } from '../children/bundle.js';
import { SasHost, type HostIo } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import { SV, awaitException, pendingCashout57, receive58 } from './host/system-validation.js';
import { ADDRESS, STATION, startSystemValidationStation, type KillPoint } from './system-validation-kill/setup.js';

// Five station processes a run: bundled once (tests/children/bundle.ts, the rule in docs/testing.md).
const CHILD = 'tests/sas/system-validation-kill/child.ts';
const NOTE = 10_000;
const DIGITS = '0000000000004848';

/** The station's money after the restart: its credit, its handpay waiting, its ticket in print or printed. */
function money(r: RunningHost): number {
  const inPrint = r.floor.tickets.pendingAt(STATION)?.terms.amount ?? 0;
  return (
    r.ledger.credit(STATION) + (r.floor.handpays.pendingAt(STATION)?.amount ?? 0) + inPrint + (r.ledger.meters(`station:${STATION}`).ticketsOutAmount ?? 0)
  );
}

/** A second station process on the same folder, killed by the restart rule's own end (the `restart` point). */
async function killedRestart(dataDir: string, machinePty: string): Promise<void> {
  const child = spawn(process.execPath, [await bundledChild(CHILD), dataDir, machinePty, 'restart'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, sig) => resolve(sig)));
  assert.equal(signal, 'SIGKILL', 'the start was killed at the restart rule');
}

async function trial(at: KillPoint, check: (r: RunningHost, h: SasHost) => Promise<void>, thenKilledAtRestart = false): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `sas-sysval-kill-${at}-`));
  const dataDir = path.join(dir, 'data');
  const pair = await ptyPair(dir);
  const child = spawn(process.execPath, [await bundledChild(CHILD), dataDir, pair.machine, at], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let dead = false;
  void exited.then(() => (dead = true));
  let io: HostIo | null = null;
  let running: RunningHost | null = null;
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code, signal) => reject(new Error(`the station exited before it was ready (${code ?? signal})`)));
      if (!child.stdout) return reject(new Error('no stdout'));
      createInterface({ input: child.stdout }).once('line', () => resolve());
    });
    io = await openPtyHost(pair.host);
    const h = new SasHost(io, ADDRESS);
    await h.pollOther();
    if (at !== 'request') {
      // The system asked (57), reads the cash-out, gives its number: the station dies journalling it or the ticket.
      await awaitException(h, 0x57, 200);
      assert.deepEqual(await pendingCashout57(h), { type: SV.cashable, amount: NOTE });
      await receive58(h, 12, DIGITS).catch(() => -1);
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    assert.ok(dead, 'the station did not die');
    if (thenKilledAtRestart) await killedRestart(dataDir, pair.machine);
    running = await startSystemValidationStation(dataDir, pair.machine);
    await h.pollOther();
    assert.equal(money(running), NOTE, 'the note’s money whole after the restart');
    assert.deepEqual(await pendingCashout57(h), { type: SV.notWaiting, amount: 0 }, 'no cash-out waits after the restart');
    assert.equal(await receive58(h, 12, '0000000000004949'), SV.notInCashout, 'a number sent after the restart finds none');
    await check(running, h);
    // A second restart changes nothing: no second end, no second handpay.
    const entries = entryCount(running.ledger, ['ticket.validation.end', 'credit.cancel', 'ticket.issue']);
    await running.close();
    running = await startSystemValidationStation(dataDir, pair.machine);
    assert.equal(entryCount(running.ledger, ['ticket.validation.end', 'credit.cancel', 'ticket.issue']), entries);
    assert.equal(money(running), NOTE, 'whole after a second restart');
    // Polled before it closes: a host whose SAS link was never polled does not finish its close (seen here, not this test's subject).
    await h.pollOther();
    assert.deepEqual(await pendingCashout57(h), { type: SV.notWaiting, amount: 0 });
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    await running?.close();
    await io?.close();
    pair.socat.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

const outcome = (r: RunningHost): unknown =>
  (JSON.parse(newestEntriesOfType(r.ledger, 'ticket.validation.end', 1)[0]?.body ?? '{}') as { payload?: { outcome?: string } }).payload?.outcome;

describe('SAS system validation: the station SIGKILLed mid-cash-out', () => {
  it('after the wait is journalled, before 57: the restart ends it `restart` and pays the credit by handpay', async () => {
    await trial('request', async (r) => {
      assert.equal(outcome(r), 'restart');
      assert.equal(r.floor.handpays.pendingAt(STATION)?.amount, NOTE);
      assert.equal(r.ledger.credit(STATION), 0);
      assert.equal(entryCount(r.ledger, ['ticket.issue']), 0);
    });
  });

  it('after the wait is journalled, then the restart killed right after its `restart` end: the next start has the handpay, once, and asks nothing', async () => {
    await trial(
      'request',
      async (r) => {
        assert.equal(outcome(r), 'restart');
        assert.equal(entryCount(r.ledger, ['ticket.validation.end']), 1, 'one end');
        assert.equal(entryCount(r.ledger, ['credit.cancel']), 1, 'one handpay');
        assert.equal(r.floor.handpays.pendingAt(STATION)?.amount, NOTE);
        assert.equal(r.ledger.credit(STATION), 0, 'nothing left on the meter for a cash-out that would ask the system again');
      },
      true,
    );
  });

  it('after the system’s number is journalled (0x58 never answered), before ticket.issue: a handpay, never the ticket, one end', async () => {
    await trial('end', async (r) => {
      assert.equal(outcome(r), 'number');
      assert.equal(entryCount(r.ledger, ['ticket.validation.end']), 1, 'no second end');
      assert.equal(r.floor.handpays.pendingAt(STATION)?.amount, NOTE);
      assert.equal(entryCount(r.ledger, ['ticket.issue']), 0);
    });
  });

  it('after ticket.issue, before the print command: the ticket is in print (the credit held there, never a handpay too)', async () => {
    await trial('issue', async (r) => {
      assert.equal(outcome(r), 'number');
      assert.equal(entryCount(r.ledger, ['ticket.issue']), 1);
      assert.equal(r.floor.handpays.pendingAt(STATION), null, 'no handpay beside the ticket');
      assert.equal(r.ledger.credit(STATION), 0);
      const t = r.floor.tickets.pendingAt(STATION);
      assert.equal(t?.terms.validation, `12${DIGITS}`, 'the ticket under the system’s number, in print');
      assert.equal(t?.terms.amount, NOTE);
    });
  });
});
