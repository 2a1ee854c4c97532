// A fault whose entry the journal refuses (SQLITE_FULL, a disk full for a moment) is held, never
// thrown at its source: the sources run where nothing catches (a timer, a socket's close, a
// device's loop), and a throw there ended the host process (a review of 2 December, H1-H6). The
// raise is held unjournalled (the table stops as the fault says) and journalled at the ledger's
// next commit; a clear refused keeps the fault held and is retried at the next commit, or when
// its condition is seen gone again. Each refusal is logged at error level.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger, openTilts, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { refusingOnce, refusingUntilReleased } from '../testing/refusing-ledger.js';
import { TiltManager } from './tilt-manager.js';

function rig() {
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-TILT' });
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as { level: number; msg: string }) });
  const tilts = new TiltManager({ ledger, log });
  const note = () => ledger.append({ type: 'service.denied', payload: { staff: '1', reason: 'unknown' } });
  const tiltEntries = () =>
    [...ledger.entries(1)]
      .filter((e) => e.type.startsWith('tilt.'))
      .map((e) => ({ seq: e.seq, type: e.type, payload: (JSON.parse(e.body) as EntryBody).payload as Record<string, unknown> }));
  const errors = () => lines.filter((l) => l.level >= 50).length;
  return { ledger, tilts, note, tiltEntries, errors };
}

describe('a fault the journal refuses', () => {
  it('a refused raise is held (the table halts), not thrown, logged, and journalled at the next commit', () => {
    const { ledger, tilts, note, tiltEntries, errors } = rig();
    try {
      refusingOnce(ledger, 'tilt.raise');
      assert.doesNotThrow(() => tilts.raise('shoe-alarm', { detail: 'a card out of order' }));
      assert.equal(tilts.effects().halted, true, 'the table halts on the fault held unjournalled');
      assert.deepEqual(tiltEntries(), [], 'nothing journalled yet');
      assert.equal(errors(), 1, 'the refusal logged at error level');
      note();
      const raised = tiltEntries();
      assert.deepEqual(
        raised.map((e) => [e.type, e.payload.kind, e.payload.detail]),
        [['tilt.raise', 'shoe-alarm', 'a card out of order']],
        'the raise journalled at the next commit, once',
      );
      note();
      assert.equal(tiltEntries().length, 1, 'not journalled twice');
      assert.deepEqual(
        openTilts(ledger).map((t) => t.kind),
        ['shoe-alarm'],
        'a restart now restores it',
      );
      assert.equal(tilts.list()[0]?.raisedSeq, raised[0]?.seq);
      assert.equal(verifyLedger(ledger).ok, true);
    } finally {
      ledger.close();
    }
  });

  it('a condition seen gone by another commit listener while the held raise is being journalled: one raise, one clear', () => {
    // The held raise's own commit wakes every listener of the ledger before the raise's append
    // returns. One of them (ticket in reopening a station) finding the condition gone must not
    // journal the raise a second time: the clear would name the first, and a restart restore the
    // second (found by the ticket-in-closed fault's helper, 2 December).
    const { ledger, tilts, note, tiltEntries } = rig();
    try {
      refusingOnce(ledger, 'tilt.raise');
      tilts.raise('ticket-in-closed', { station: 3 });
      const stop = ledger.onAppended((entries) => {
        if (entries.some((e) => e.type === 'tilt.raise')) tilts.conditionGone('ticket-in-closed', 3);
      });
      note();
      stop();
      note();
      const entries = tiltEntries();
      assert.deepEqual(
        entries.map((e) => e.type),
        ['tilt.raise', 'tilt.clear'],
        'the raise journalled once, then its clear',
      );
      assert.equal(entries[1]?.payload.raisedSeq, entries[0]?.seq, 'the clear names the one raise');
      assert.deepEqual(openTilts(ledger), [], 'a restart restores nothing');
      assert.deepEqual(tilts.list(), []);
    } finally {
      ledger.close();
    }
  });

  it("two held raises: the second cleared by a listener of the first one's commit is raised once, cleared once", () => {
    // The pass journalling held raises worked from a list taken before it began: a second fault
    // raised and cleared by a listener of the first one's commit was raised again after its clear
    // (a restart then restored it as open).
    const { ledger, tilts, note, tiltEntries } = rig();
    try {
      const release = refusingUntilReleased(ledger, 'tilt.raise');
      tilts.raise('disk-low');
      tilts.raise('ticket-in-closed', { station: 3 });
      release();
      const stop = ledger.onAppended((entries) => {
        if (entries.some((e) => e.type === 'tilt.raise')) tilts.conditionGone('ticket-in-closed', 3);
      });
      note();
      stop();
      const ours = tiltEntries().filter((e) => e.payload.kind === 'ticket-in-closed');
      assert.deepEqual(
        ours.map((e) => e.type),
        ['tilt.raise', 'tilt.clear'],
      );
      assert.deepEqual(
        openTilts(ledger).map((t) => t.kind),
        ['disk-low'],
        'a restart restores disk-low only',
      );
    } finally {
      ledger.close();
    }
  });

  it('an automatic clear refused keeps the fault held, is retried at the next commit, and names its raise', () => {
    const { ledger, tilts, note, tiltEntries, errors } = rig();
    try {
      tilts.raise('printer-paper-out', { station: 2 });
      refusingOnce(ledger, 'tilt.clear');
      assert.doesNotThrow(() => tilts.conditionGone('printer-paper-out', 2));
      assert.deepEqual(
        tilts.list().map((t) => t.kind),
        ['printer-paper-out'],
        'held: never cleared only in memory',
      );
      assert.equal(errors(), 1);
      note();
      assert.deepEqual(tilts.list(), [], 'cleared once its clear is journalled');
      const [raise, clear] = tiltEntries();
      assert.equal(clear?.type, 'tilt.clear');
      assert.equal(clear?.payload.raisedSeq, raise?.seq);
      assert.deepEqual(openTilts(ledger), []);
    } finally {
      ledger.close();
    }
  });

  it('a clear refused is retried when its condition is seen gone again; a condition come back cancels it', () => {
    const { ledger, tilts, tiltEntries } = rig();
    try {
      tilts.raise('upstream-offline');
      refusingOnce(ledger, 'tilt.clear');
      tilts.conditionGone('upstream-offline');
      assert.equal(tilts.effects().newBetsStopped, true, 'still stopped while the clear is not journalled');
      tilts.conditionGone('upstream-offline');
      assert.equal(tilts.effects().newBetsStopped, false);
      assert.deepEqual(
        tiltEntries().map((e) => e.type),
        ['tilt.raise', 'tilt.clear'],
      );

      tilts.raise('shoe-lost');
      refusingOnce(ledger, 'tilt.clear');
      tilts.conditionGone('shoe-lost');
      tilts.raise('shoe-lost');
      ledger.append({ type: 'service.denied', payload: { staff: '1', reason: 'unknown' } });
      assert.deepEqual(
        tilts.list().map((t) => t.kind),
        ['shoe-lost'],
        'the condition came back before the retry: nothing cleared',
      );
      assert.equal(tiltEntries().filter((e) => e.type === 'tilt.clear').length, 1);
    } finally {
      ledger.close();
    }
  });

  it('a raise and its clear both refused: held until both are journalled, in order', () => {
    const { ledger, tilts, note, tiltEntries } = rig();
    try {
      refusingOnce(ledger, 'tilt.raise');
      tilts.raise('sas-aft-locked', { station: 3 });
      refusingOnce(ledger, 'tilt.raise');
      assert.doesNotThrow(() => tilts.conditionGone('sas-aft-locked', 3));
      assert.deepEqual(tilts.effects().disabledStations, new Set([3]), 'still held');
      note();
      assert.deepEqual(tilts.list(), []);
      const [raise, clear] = tiltEntries();
      assert.deepEqual([raise?.type, clear?.type], ['tilt.raise', 'tilt.clear']);
      assert.equal(clear?.payload.raisedSeq, raise?.seq);
    } finally {
      ledger.close();
    }
  });

  it('a person clearing a fault whose clear the journal refuses is told so; the fault stays held', () => {
    const { ledger, tilts, tiltEntries } = rig();
    try {
      tilts.raise('bill-jam', { station: 1 });
      tilts.conditionGone('bill-jam', 1);
      refusingOnce(ledger, 'tilt.clear');
      const r = tilts.clear('bill-jam', 1, { user: 'att-1', role: 'attendant' });
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.say.key, 'serviceRefusal.tiltLedgerRefuses');
      assert.deepEqual(tilts.effects().disabledStations, new Set([1]));
      assert.deepEqual(tilts.clear('bill-jam', 1, { user: 'att-1', role: 'attendant' }), { ok: true });
      assert.deepEqual(
        tiltEntries().map((e) => e.type),
        ['tilt.raise', 'tilt.clear'],
      );
    } finally {
      ledger.close();
    }
  });
});
