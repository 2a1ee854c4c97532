// A note the host answered "stack" to that no acceptor will end (it broke its protocol over it, took
// another since, or its station is gone) waited open for ever: counted against the station's credit
// limit, listed open in the back office, with no way for the floor to close it. A person now looks in
// the cashbox and settles it; one an acceptor still has is never theirs to settle.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { entriesOfTypes, notesOnTheirWay, openLedger, type EntryBody, type Ledger } from '../../ledger/index.js';
import type { openBillAcceptor } from '../../hardware/open.js';
import type { BillAcceptorEvent, BillAcceptorOptions, EscrowedNote } from '../../hardware/billacceptor/types.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { escrowTxId, pendingNoteFor } from '../recovery/escrow.js';
import { silent } from '../testing/table-kit.js';
import { BillAcceptors } from './bill-acceptors.js';
import { tableCreditRule } from './credit-rule/table-credit-rule.js';
import { serviceActionEntry } from '../service/backend/service-journal.js';
import { NotesHeld, RETURNED_BY_HAND } from './notes-held.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { onBillAcceptorEvent } from '../tilts/tilt-sources.js';

const BY = ['Ana Lei'];

function escrow(ledger: Ledger, station: number, escrowId: string, denomination = 50_000): number {
  const device = `BA-${station}`;
  const payload = { station, device, denomination, currency: 'MOP', escrowId };
  return ledger.append({ type: 'bill.escrow', payload, txId: escrowTxId(device, escrowId) }).entry.seq;
}

function withLedger(body: (ledger: Ledger, notes: NotesHeld, configured: Set<number>) => void): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'notes-held-'));
  const ledger = openLedger(dir, 'T1');
  const configured = new Set([1, 2]);
  try {
    body(ledger, new NotesHeld({ ledger, configured: () => configured }), configured);
  } finally {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const payloadsOf = (ledger: Ledger, type: 'bill.credit' | 'bill.return' | 'service.action') =>
  [...entriesOfTypes(ledger, [type])].map((e) => ({ seq: e.seq, ...((JSON.parse(e.body) as EntryBody).payload as Record<string, unknown>) }));

describe('notes held for a person (service mode, Devices)', () => {
  it('an open escrow with no later one at its device is its acceptor’s: not held, and a settlement of it is refused', () => {
    withLedger((ledger, notes) => {
      const seq = escrow(ledger, 1, 'e1');
      assert.deepEqual(notes.held(), []);
      const r = notes.settleByHand({ station: 1, seq }, 'returned', BY);
      assert.equal(!r.ok && r.say.key, 'serviceRefusal.noteNoneHeld');
      assert.deepEqual(payloadsOf(ledger, 'bill.return'), []);
    });
  });

  it('left by its acceptor (a protocol broken over it): held; settled as not in the cashbox, returned with the record in one commit', () => {
    withLedger((ledger, notes) => {
      const seq = escrow(ledger, 1, 'e1');
      assert.equal(notes.acceptorLeft('BA-1', 'e1'), true);
      assert.deepEqual(
        notes.held().map((n) => [n.station, n.seq, n.device, n.amount, n.currency]),
        [[1, seq, 'BA-1', 50_000, 'MOP']],
      );
      assert.equal(notesOnTheirWay(ledger, 1), 50_000, 'counted against the credit limit while held');
      const record = (s: { station: number; amount: number }) => serviceActionEntry(BY, 'note-settle', `station ${s.station}: note returned (${s.amount})`);
      const r = notes.settleByHand({ station: 1, seq }, 'returned', BY, record);
      assert.deepEqual(r, { ok: true, station: 1, amount: 50_000, currency: 'MOP', outcome: 'returned' });
      const [ret] = payloadsOf(ledger, 'bill.return');
      const [act] = payloadsOf(ledger, 'service.action');
      assert.deepEqual(
        { ...ret, seq: 0 },
        { seq: 0, station: 1, device: 'BA-1', denomination: 50_000, currency: 'MOP', reason: RETURNED_BY_HAND, escrowSeq: seq },
      );
      assert.equal(act?.seq, (ret?.seq ?? 0) + 1, 'the record beside it, appended with it');
      assert.deepEqual(notes.held(), []);
      assert.equal(notesOnTheirWay(ledger, 1), 0);
      assert.equal(ledger.credit(1), 0);
      const again = notes.settleByHand({ station: 1, seq }, 'stacked', BY);
      assert.equal(!again.ok && again.say.key, 'serviceRefusal.noteNoneHeld', 'a note settled is settled once');
    });
  });

  it('behind a newer escrow at its device: held; found in the cashbox, credited to the station once', () => {
    withLedger((ledger, notes) => {
      const older = escrow(ledger, 2, 'e1', 10_000);
      const newer = escrow(ledger, 2, 'e2', 20_000);
      assert.deepEqual(
        notes.held().map((n) => n.seq),
        [older],
      );
      assert.equal(notes.settleByHand({ station: 2, seq: newer }, 'stacked', BY).ok, false, 'the newest stays its acceptor’s');
      assert.deepEqual(notes.settleByHand({ station: 2, seq: older }, 'stacked', BY), {
        ok: true,
        station: 2,
        amount: 10_000,
        currency: 'MOP',
        outcome: 'stacked',
      });
      assert.equal(ledger.credit(2), 10_000);
      assert.deepEqual(
        payloadsOf(ledger, 'bill.credit').map((p) => (p as Record<string, unknown>)['escrowSeq']),
        [older],
      );
      assert.equal(notesOnTheirWay(ledger, 2), 20_000, 'the newer note is still on its way');
    });
  });

  it('behind a newer escrow that was credited since: still held, and never handed to the driver at a restart', () => {
    withLedger((ledger, notes) => {
      const older = escrow(ledger, 2, 'e1', 10_000);
      const newer = escrow(ledger, 2, 'e2', 20_000);
      ledger.append({
        type: 'bill.credit',
        payload: { station: 2, device: 'BA-2', denomination: 20_000, currency: 'MOP', escrowSeq: newer },
        txId: 'BA-2:e2:credit',
      });
      assert.deepEqual(
        notes.held().map((n) => n.seq),
        [older],
        'its acceptor took another note since: it will never speak of this one',
      );
      assert.equal(pendingNoteFor(ledger, 'BA-2'), null, 'a driver asked about it would read the unit’s reports as this note’s');
      assert.equal(notes.settleByHand({ station: 2, seq: older }, 'returned', BY).ok, true);
    });
  });

  it('jammed (its station’s bill-jam fault journalled after it): held across a restart, never handed to the driver again', () => {
    withLedger((ledger, notes) => {
      const jam = (station: number) => ledger.append({ type: 'tilt.raise', payload: { kind: 'bill-jam', station, detail: 'jam in the stacker' } });
      jam(1);
      const before = escrow(ledger, 1, 'e0');
      const seq = escrow(ledger, 2, 'e1');
      jam(2);
      // A fresh model, as at a start: only the journal says the acceptor jammed over it.
      const fresh = new NotesHeld({ ledger, configured: () => new Set([1, 2]) });
      assert.deepEqual(
        fresh.held().map((n) => n.seq),
        [seq],
        'a jam before a note, or at another station, leaves it its acceptor’s',
      );
      assert.equal(pendingNoteFor(ledger, 'BA-2'), null, 'the attendant took it out: the unit’s next word is not about it');
      assert.equal(pendingNoteFor(ledger, 'BA-1')?.escrowId, 'e0');
      assert.deepEqual(
        notes.held().map((n) => n.seq),
        [seq],
      );
      assert.notEqual(before, seq);
    });
  });

  it('a protocol broken over it (its station’s bill-cheat raise naming its escrow): held across a restart, never handed to the driver again', () => {
    withLedger((ledger) => {
      const cheat = (station: number, escrowId?: string) =>
        ledger.append({
          type: 'tilt.raise',
          payload: {
            kind: 'bill-cheat',
            station,
            detail: 'device broke its protocol',
            say: escrowId
              ? {
                  key: 'tiltDetail.protocolBrokenNote',
                  values: { rule: 'note-vanished', report: 'idle', denomination: 100, currency: 'MOP', escrow: escrowId },
                }
              : { key: 'tiltDetail.protocolBroken', values: { rule: 'dataset-changed', report: 'a new dataset' } },
          },
        });
      const named = escrow(ledger, 1, 'e1');
      cheat(1, 'e1');
      escrow(ledger, 2, 'e2');
      cheat(2); // a violation that names no note (the unit's dataset changed) leaves e2 its acceptor's
      cheat(2, 'e9'); // …and so does one naming another note
      // A fresh model, as at a start: only the journal says the unit broke its protocol over e1.
      const fresh = new NotesHeld({ ledger, configured: () => new Set([1, 2]) });
      assert.deepEqual(
        fresh.held().map((n) => n.seq),
        [named],
      );
      assert.equal(pendingNoteFor(ledger, 'BA-1'), null, 'the unit that lied about it is not asked about it again');
      assert.equal(pendingNoteFor(ledger, 'BA-2')?.escrowId, 'e2');
    });
  });

  it('refused: another station’s note named, no one named as settling it', () => {
    withLedger((ledger, notes) => {
      const seq = escrow(ledger, 1, 'e1');
      notes.acceptorLeft('BA-1', 'e1');
      assert.equal(notes.settleByHand({ station: 2, seq }, 'returned', BY).ok, false);
      const nobody = notes.settleByHand({ station: 1, seq }, 'returned', []);
      assert.equal(!nobody.ok && nobody.say.key, 'serviceRefusal.ticketNoSettler');
      assert.equal(notes.held().length, 1);
    });
  });

  it('handed to a driver again (a restart, a driver-mode agent’s hello): its acceptor’s again, not held', () => {
    withLedger((ledger, notes) => {
      escrow(ledger, 1, 'e1');
      notes.acceptorLeft('BA-1', 'e1');
      notes.handed('BA-1', 'e1');
      assert.deepEqual(notes.held(), []);
    });
  });

  it('at a station no longer configured: held; a note resolved already is never left', () => {
    withLedger((ledger, notes, configured) => {
      const seq = escrow(ledger, 2, 'e1');
      configured.delete(2);
      assert.deepEqual(
        notes.held().map((n) => n.seq),
        [seq],
      );
      assert.equal(notes.settleByHand({ station: 2, seq }, 'returned', BY).ok, true);
      assert.equal(notes.acceptorLeft('BA-2', 'e1'), false);
      assert.equal(notes.acceptorLeft('BA-2', 'no-such'), false);
    });
  });
});

/** A station's acceptor whose events the test says (the wiring of BillAcceptors, not a driver). */
function scriptedAcceptor(): { open: typeof openBillAcceptor; say: (e: BillAcceptorEvent) => void; handed: () => EscrowedNote | null } {
  const listeners = new Set<(e: BillAcceptorEvent) => void>();
  let pending: EscrowedNote | null = null;
  const open = ((_spec: string, o: BillAcceptorOptions) => {
    pending = o.pendingNote ?? null;
    return {
      protocol: 'id003',
      currency: o.currency,
      on: (l: (e: BillAcceptorEvent) => void) => (listeners.add(l), () => listeners.delete(l)),
      onFrame: () => () => undefined,
      start: () => undefined,
      enable: () => undefined,
      disable: () => undefined,
      setAccepted: () => undefined,
      close: () => Promise.resolve(),
    };
  }) as unknown as typeof openBillAcceptor;
  return { open, say: (e) => listeners.forEach((l) => l(e)), handed: () => pending };
}

describe('the seated acceptors and their notes held', () => {
  it('a protocol broken over the note journalled in escrow, or a jam with it in the path, leaves it held; with no fault journalled over it, a restart hands it to the new driver again', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'notes-held-'));
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 1) });
    const ledger = openLedger(dir, 'T1');
    try {
      const start = (onEvent?: (station: number, e: BillAcceptorEvent) => void) => {
        const device = scriptedAcceptor();
        const credits = tableCreditRule({ config, ledger, log: silent, fault: () => undefined });
        const acceptors = new BillAcceptors({ config, ledger, log: silent, credits, open: device.open, ...(onEvent ? { onEvent } : {}) });
        acceptors.start();
        return { acceptors, device };
      };
      const first = start();
      const seq = escrow(ledger, 1, 'e1', 10_000);
      assert.deepEqual(first.acceptors.notes.held(), []);
      const note = { escrowId: 'e1', amount: 10_000, denomination: 100, currency: 'HKD', code: 0 } as EscrowedNote;
      first.device.say({ type: 'protocolViolation', rule: 'note-vanished', report: 'idle', note });
      assert.deepEqual(
        first.acceptors.notes.held().map((n) => n.seq),
        [seq],
      );
      void first.acceptors.close();
      const second = start();
      assert.equal(second.device.handed()?.escrowId, 'e1', 'the new driver is handed the note');
      assert.deepEqual(second.acceptors.notes.held(), [], 'its word ends it again');
      void second.acceptors.close();
      const third = start();
      // Jammed in its path: the driver forgot it. A jam naming a note never journalled (told to go back) holds nothing.
      third.device.say({ type: 'jam', where: 'stacker', note });
      third.device.say({ type: 'jam', where: 'acceptor', note: { ...note, escrowId: 'never-stacked' } });
      assert.deepEqual(
        third.acceptors.notes.held().map((n) => n.seq),
        [seq],
      );
      assert.equal(third.acceptors.notes.acceptorLeft('BA-1', 'e1'), false, 'left once: one warning, not one per report');
      void third.acceptors.close();
      const again = start();
      assert.equal(again.device.handed()?.escrowId, 'e1', 'no fault was journalled over it: handed again');
      void again.acceptors.close();
      // As the host runs: the station's faults journalled by the tilt manager from the unit's events.
      const tilts = new TiltManager({ ledger, log: silent });
      const fourth = start((station, e) => onBillAcceptorEvent(tilts, station, e));
      fourth.device.say({ type: 'protocolViolation', rule: 'note-vanished', report: 'idle', note });
      void fourth.acceptors.close();
      const fifth = start();
      assert.equal(fifth.device.handed(), null, 'its bill-cheat raise names it: the unit is not asked about it again');
      assert.deepEqual(
        fifth.acceptors.notes.held().map((n) => n.seq),
        [seq],
      );
      void fifth.acceptors.close();
      tilts.close();
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
