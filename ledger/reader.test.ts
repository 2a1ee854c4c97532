import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ledgerFile } from './db.js';
import { bet, billCredit, settledRound } from './fixtures.js';
import { openTilts } from './floor-queries.js';
import { Ledger } from './ledger.js';
import { openLedgerReader } from './reader.js';
import { ticketIssue, ticketPrinted, ticketVoided } from './ticket-fixtures.js';
import { validationNumber } from '../terms/validation-number.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-reader-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('ledger reader (another process watching the file)', () => {
  it('follows the writer: rounds closed after a seq, and the first round with its entries so far', () => {
    const dir = path.join(tmp, 'a');
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-1' });
    const reader = openLedgerReader(ledgerFile(dir));
    try {
      assert.deepEqual(reader.roundsClosedAfter(0), { headSeq: null, closed: 0 });
      assert.equal(reader.firstRound(), null);
      l.append(billCredit(1, 100_000, 'n1'));
      l.append(bet(1, 'R-1', 1000, 'R-1:bet:1'));
      assert.deepEqual(
        reader.firstRound()?.entries.map((e) => e.type),
        ['bet.place'],
      );
      const r1 = settledRound('R-1', [1], 1000);
      l.append(r1.settle);
      const r2 = settledRound('R-2', [1], 1000);
      l.appendMany([...r2.bets, r2.settle]);
      const first = reader.firstRound();
      assert.equal(first?.roundId, 'R-1');
      assert.deepEqual(
        first?.entries.map((e) => [e.seq, e.type]),
        [
          [2, 'bet.place'],
          [3, 'round.settle'],
        ],
      );
      assert.deepEqual(first?.entries, [l.entry(2), l.entry(3)], 'the entries as the ledger has them');
      assert.deepEqual(reader.roundsClosedAfter(0), { headSeq: 5, closed: 2 });
      assert.deepEqual(reader.roundsClosedAfter(3), { headSeq: 5, closed: 1 });
      assert.deepEqual(reader.roundsClosedAfter(5), { headSeq: null, closed: 0 });
    } finally {
      reader.close();
      l.close();
    }
  });

  it('counts the tickets issued after a seq that are printing now (issued, not yet printed or voided)', () => {
    const dir = path.join(tmp, 'tickets');
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-1' });
    const reader = openLedgerReader(ledgerFile(dir));
    try {
      l.append(billCredit(1, 100_000, 'n1'));
      l.append(billCredit(2, 100_000, 'n2'));
      assert.equal(reader.ticketsPrinting(0), 0);
      const [a, b] = [validationNumber(7, 1), validationNumber(7, 2)];
      l.append(ticketIssue(a, 1, 30_000, 1)); // seq 3
      assert.equal(reader.ticketsPrinting(0), 1);
      assert.equal(reader.ticketsPrinting(3), 0, 'only those issued after the seq');
      l.append(ticketIssue(b, 2, 20_000, 2)); // seq 4
      assert.equal(reader.ticketsPrinting(3), 1);
      assert.equal(reader.ticketsPrinting(0, 3), 1, 'and up to a seq');
      l.append(ticketPrinted(a, 1));
      l.append(ticketVoided(b, 2));
      assert.equal(reader.ticketsPrinting(0), 0, 'ended, printed or voided');
    } finally {
      reader.close();
      l.close();
    }
  });

  it('throws on a file not there yet, and its queries throw while the schema is not there', () => {
    assert.throws(() => openLedgerReader(path.join(tmp, 'none', 'ledger.sqlite')));
    const file = path.join(tmp, 'empty.sqlite');
    new Database(file).close();
    const reader = openLedgerReader(file);
    try {
      assert.throws(() => reader.roundsClosedAfter(0), /no such table/);
    } finally {
      reader.close();
    }
  });

  it('lists the notes left in escrow, the faults left raised and the newest entries, as the owner sees them', () => {
    const dir = path.join(tmp, 'faults');
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-1' });
    const reader = openLedgerReader(ledgerFile(dir));
    try {
      assert.deepEqual(reader.unresolvedEscrows(), []);
      const e = l.append({ type: 'bill.escrow', payload: { station: 1, device: 'BA-1', denomination: 10_000, currency: 'MOP', escrowId: 'x' } });
      assert.deepEqual(reader.unresolvedEscrows(), [{ seq: e.entry.seq, station: 1, device: 'BA-1', denomination: 10_000, currency: 'MOP', escrowId: 'x' }]);
      l.append({
        type: 'bill.return',
        payload: { station: 1, device: 'BA-1', denomination: 10_000, currency: 'MOP', reason: 'rejected', escrowSeq: e.entry.seq },
      });
      assert.deepEqual(reader.unresolvedEscrows(), []);
      const jam = l.append({ type: 'tilt.raise', payload: { kind: 'bill-jam', station: 1 } });
      l.append({ type: 'tilt.raise', payload: { kind: 'bill-cheat', station: 2, detail: 'd' } });
      l.append({ type: 'tilt.clear', payload: { kind: 'bill-jam', station: 1, raisedSeq: jam.entry.seq, automatic: true } });
      assert.deepEqual(
        reader.openTilts().map((t) => [t.kind, t.station, t.detail]),
        [['bill-cheat', 2, 'd']],
      );
      assert.deepEqual(reader.openTilts(), openTilts(l));
      // The newest entries, oldest first, as the owner reads them.
      assert.deepEqual(
        reader.tail(2).map((t) => [t.seq, t.type]),
        [
          [jam.entry.seq + 1, 'tilt.raise'],
          [jam.entry.seq + 2, 'tilt.clear'],
        ],
      );
      assert.deepEqual(reader.tail(2), [l.entry(jam.entry.seq + 1), l.entry(jam.entry.seq + 2)]);
      assert.equal(reader.tail(1000).length, jam.entry.seq + 2);
    } finally {
      reader.close();
      l.close();
    }
  });
});
