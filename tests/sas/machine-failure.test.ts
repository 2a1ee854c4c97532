// The station failing under a poll (the data disk refusing a write: a journalled fault for 0x01,
// the validation reads' file for the host's ACK of a 0x4D answer). This once escaped the serial
// data handler and took the host down — and after a restart the same unread 0x4D record came
// again, and its ACK took it down again. The machine survives, leaves that poll unanswered (never
// an answer for what was not kept), reports it, and the host's retry is answered as after a lost
// answer.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { SasMachine } from '../../hardware/sas/machine.js';
import { TicketRedemption } from '../../hardware/sas/redemption.js';
import type { SasLinkEvent } from '../../hardware/sas/types.js';
import { ValidationRecords, VALIDATION_READ_FILE } from '../../host/devices/sas-validation-info.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { ticketIssue, ticketPrinted } from '../../ledger/ticket-fixtures.js';
import { validationNumber } from '../../terms/validation-number.js';
import { StationAft } from '../../host/devices/sas-aft.js';
import { StationAftLock } from '../../host/devices/sas-aft-lock.js';
import { TiltManager } from '../../host/tilts/tilt-manager.js';
import { entryCount } from '../../ledger/index.js';
import pino from 'pino';
import { ManualClock, MemoryGame } from './fixture.js';
import { appendCrc } from './host/codec.js';

const A = 5;
const OTHER = 0x80 | 1;

function rig(game = new MemoryGame()) {
  const out: number[][] = [];
  const machine = new SasMachine({ address: A, game, clock: new ManualClock(), write: (b) => out.push([...b]) });
  const failures: Extract<SasLinkEvent, { type: 'poll-failed' }>[] = [];
  machine.events.on((e) => {
    if (e.type === 'poll-failed') failures.push(e);
  });
  const send = (bytes: number[]): void => bytes.forEach((b, i) => machine.char(b, i === 0));
  send([OTHER]); // synchronised
  return { game, failures, send, take: () => out.splice(0) };
}

const message = (e: { error: unknown } | undefined): string => (e?.error instanceof Error ? e.error.message : String(e?.error));

describe('SAS machine side: the station failing under a poll', () => {
  it('0x01 whose fault the journal refuses: unanswered and reported; the retry is ACKed and disables play once; the next poll is answered', () => {
    const r = rig();
    let refuse = true;
    const setPlay = r.game.setPlay.bind(r.game);
    r.game.setPlay = (enabled) => {
      if (refuse) {
        refuse = false;
        throw new Error('EROFS: the journal refused the write');
      }
      return setPlay(enabled);
    };
    r.send(appendCrc([A, 0x01]));
    assert.deepEqual(r.take(), [], 'no ACK for a disable that was not journalled');
    assert.deepEqual(
      r.failures.map((f) => [f.command, f.stage, message(f)]),
      [[0x01, 'answer', 'EROFS: the journal refused the write']],
    );
    r.send(appendCrc([A, 0x01]));
    assert.deepEqual(r.take(), [[A]], 'the host’s retry, as after a lost answer');
    assert.deepEqual(r.game.calls, [{ call: 'play', enabled: false }]);
    r.send([0x80 | A]);
    assert.deepEqual(r.take(), [[0x00]]);
    assert.equal(r.failures.length, 1);
  });

  it('the ACK of a 0x4D answer whose read the data folder refuses: the ACKing poll is unanswered until the read is kept; no crash, no loop after a restart', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-ack-fails-'));
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ACK' });
    try {
      ledger.append(billCredit(1, 12_347, 'bill-1'));
      const v = validationNumber(7, 1);
      ledger.append(ticketIssue(v, 1, 12_347));
      ledger.append(ticketPrinted(v));
      const game = new MemoryGame();
      const records = new ValidationRecords(ledger, dir);
      game.tickets = { redemption: new TicketRedemption(), validationId: () => null, validationInfo: (which) => records.of(1, which) };
      const r = rig(game);
      // The state file's write goes through a temporary file beside it: a folder there refuses it.
      const blocker = path.join(dir, `${VALIDATION_READ_FILE}.${process.pid}.tmp`);
      mkdirSync(blocker);
      const read4D = appendCrc([A, 0x4d, 0x00]);
      r.send(read4D);
      const answer = r.take()[0] ?? [];
      assert.ok(
        answer.slice(2, 33).some((b) => b !== 0),
        'the ticket’s record',
      );
      // The implied ACK by a poll longer than two bytes (one of two bytes is answered before its ACK is done: below).
      const coinIn = appendCrc([A, 0x2f, 3, 0, 0, 0x00]);
      r.send(coinIn); // the implied ACK: the read cannot be kept
      r.send(coinIn);
      assert.deepEqual(r.take(), [], 'nothing answered while the read is not kept');
      assert.deepEqual(
        r.failures.map((f) => [f.command, f.stage]),
        [
          [0x4d, 'ack'],
          [0x4d, 'ack'],
        ],
      );
      rmSync(blocker, { recursive: true });
      r.send(coinIn);
      assert.deepEqual(
        r.take().map((a) => a.slice(0, 2)),
        [[A, 0x2f]],
        'the retry acknowledges it again, and is answered',
      );
      r.send(read4D);
      assert.deepEqual(r.take()[0]?.slice(2, 33), new Array<number>(31).fill(0), 'read once');
      assert.equal(new ValidationRecords(ledger, dir).of(1, 'current'), null, 'a restart does not give it again');
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the ACK of a 0x4D answer by a general poll, the read refused: the general poll is answered (its ACK held until it is whole), the read tried again at each poll after it until kept, once', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-ack-short-'));
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ACK' });
    try {
      ledger.append(billCredit(1, 12_347, 'bill-1'));
      const v = validationNumber(7, 1);
      ledger.append(ticketIssue(v, 1, 12_347));
      ledger.append(ticketPrinted(v));
      const game = new MemoryGame();
      const records = new ValidationRecords(ledger, dir);
      game.tickets = { redemption: new TicketRedemption(), validationId: () => null, validationInfo: (which) => records.of(1, which) };
      const r = rig(game);
      const blocker = path.join(dir, `${VALIDATION_READ_FILE}.${process.pid}.tmp`);
      mkdirSync(blocker);
      const read4D = appendCrc([A, 0x4d, 0x00]);
      r.send(read4D);
      r.take();
      r.send([0x80 | A]);
      assert.deepEqual(r.take(), [[0x00]], 'answered within its 20 ms, its ACK of the record held');
      assert.equal(r.failures.length, 0, 'nothing read yet');
      r.send([0x80 | A]);
      assert.deepEqual(
        r.failures.map((f) => [f.command, f.stage]),
        [[0x4d, 'ack']],
        'the general poll was whole: the read is tried, and refused',
      );
      rmSync(blocker, { recursive: true });
      r.send([0x80 | A]);
      r.take();
      assert.equal(r.failures.length, 1, 'kept at the next poll');
      r.send(read4D);
      assert.deepEqual(r.take()[0]?.slice(2, 33), new Array<number>(31).fill(0), 'read once');
      assert.equal(new ValidationRecords(ledger, dir).of(1, 'current'), null, 'a restart does not give it again');
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the handpay's 51 again (§7.8.1), read from a station that cannot be read in the watchdog's turn: reported, and the watchdog goes on", () => {
    const game = new MemoryGame();
    let unreadable = true;
    game.handpay = () => {
      if (unreadable) throw new Error('SQLITE_CORRUPT: the journal cannot be read');
      return null;
    };
    const clock = new ManualClock();
    const machine = new SasMachine({ address: A, game, clock, write: () => undefined, handpayAckedAt: 0 });
    const events: SasLinkEvent[] = [];
    machine.events.on((e) => events.push(e));
    machine.start();
    // Before: the throw left the timer's callback (in a host, the process) and the watchdog was never armed again.
    assert.doesNotThrow(() => clock.advance(15_400));
    const failed = events.filter((e) => e.type === 'poll-failed');
    assert.ok(failed.length >= 1);
    assert.equal(failed[0]?.type === 'poll-failed' && failed[0].stage, 'watchdog');
    unreadable = false;
    clock.advance(400);
    assert.ok(
      events.some((e) => e.type === 'handpay-note' && e.ackedAt === null),
      'the next turn reads it: no handpay pending, the note cleared',
    );
    machine.stop();
  });
  it('0x74 lock whose fault the journal refuses: locked with its fault held unjournalled (the station stops), the fault journalled at the next commit (a review: F2; 2 December)', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-LOCK' });
    try {
      ledger.append(billCredit(1, 10_000, 'note-1'));
      const tilts = new TiltManager({ ledger, log: pino({ level: 'silent' }) });
      const refuseIn = () => tilts.refusal(1, 'bet', 'sas-aft-locked')?.reason ?? null;
      const refuseOut = () => (ledger.credit(1) > 0 ? (tilts.refusal(1, 'cash-out', 'sas-aft-locked')?.reason ?? null) : 'no credit');
      const timers = { setTimeout: () => 1, clearTimeout: () => undefined };
      const lock = new StationAftLock({ station: 1, tilts, roundOpen: () => false, refuseIn, refuseOut, timers });
      const game = new MemoryGame();
      const local = () => ({ year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0 });
      game.aft = new StationAft({ ledger, station: 1, assetNumber: 7, limit: 1_000_000, refuseIn, refuseOut, lock, local });
      const r = rig(game);
      // The journal refuses the next append once (the data disk full for a moment).
      const append = ledger.append.bind(ledger);
      let refuse = 1;
      ledger.append = (e) => {
        if (refuse-- > 0) throw new Error('SQLITE_FULL: the journal refused the write');
        return append(e);
      };
      const lock74 = appendCrc([A, 0x74, 0x00, 0x03, 0x99, 0x99]);
      r.send(lock74);
      // The fault is held though its entry was refused (tilt-manager.ts): the lock is never armed
      // without it, the F2 defect. Throwing instead ended the host process where a fault is raised
      // from a timer or a socket's close (a review of 2 December).
      assert.equal(r.take()[0]?.[6], 0x00, 'answered: locked');
      assert.deepEqual(r.failures, []);
      assert.equal(lock.locked(), true);
      assert.notEqual(tilts.refusal(1, 'cash-out'), null, 'the fault held: no cash-out while locked');
      assert.equal(entryCount(ledger, ['tilt.raise']), 0, 'not journalled yet');
      ledger.append(billCredit(1, 10_000, 'note-2'));
      assert.equal(entryCount(ledger, ['tilt.raise']), 1, 'its fault journalled at the next commit');
      assert.notEqual(tilts.refusal(1, 'cash-out'), null, 'and still held');
    } finally {
      ledger.close();
    }
  });

  it('0x58 whose end the journal refuses: unanswered and reported (a review: F2)', () => {
    const game = new MemoryGame();
    let refuse = true;
    game.systemValidation = {
      pending: () => ({ type: 0x00, amount: 100 }),
      receive: () => {
        if (refuse) {
          refuse = false;
          throw new Error('EROFS: the journal refused the write');
        }
        return 0x00;
      },
    };
    const r = rig(game);
    const poll = appendCrc([A, 0x58, 0x01, 0x00, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34]);
    r.send(poll);
    assert.deepEqual(r.take(), [], 'no answer for an end not journalled');
    assert.deepEqual(
      r.failures.map((f) => [f.command, f.stage, message(f)]),
      [[0x58, 'answer', 'EROFS: the journal refused the write']],
    );
    r.send(poll);
    assert.equal(r.take().length, 1, 'the retry is answered');
  });
});
