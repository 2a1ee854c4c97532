// What the station credit limit's room counts (docs/sas.md, "The station credit limit"): every
// credit the station has been promised and may yet be credited whatever its meter says then, not
// only its credit. A review found two gaps, each taking a station past its limit:
// - a second ticket asked about made the room forget a first one approved and held for a person
//   (only the newest open attempt was counted): the first, settled stacked later, was on top;
// - a move out still in flight (debited, not answered) was not counted: notes and AFT filled the
//   room on the reduced credit, and the receiver's refusal reversed the debit on top.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openLedger, type Ledger, type NewEntry } from '../../ledger/index.js';
import { redeemApproved, redeemRequest, redeemStacked } from '../../ledger/ticket-fixtures.js';
import { TableId, transferTxId, type Transfer } from '../../terms/transfer-terms.js';
import { validationNumber } from '../../terms/validation-number.js';
import { creditRoom, passesCreditLimit } from './credit-rule/credit-limit.js';

const LIMIT = 100_000;
const HOME = TableId.parse('home');
const BACC = TableId.parse('baccarat');

function ledgerAt(t: { after: (fn: () => void) => void }): Ledger {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credit-room-'));
  const ledger = openLedger(dir, 'SIM-WAR-01');
  t.after(() => (ledger.close(), rmSync(dir, { recursive: true, force: true })));
  return ledger;
}
const aftIn = (station: number, id: string, amount: number): NewEntry => ({
  type: 'aft.in',
  payload: { station, transactionId: id, amount, requested: amount, assetNumber: 7 },
  txId: `aft:${station}:${id}`,
});
const move = (serial: number, station: number, amount: number): Transfer => ({
  id: { origin: HOME, serial },
  currency: 'MOP',
  station,
  from: HOME,
  to: BACC,
  amount,
});
const out = (t: Transfer): NewEntry => ({ type: 'transfer.out', payload: { transfer: t }, txId: transferTxId('out', t.id) });
const closed = (t: Transfer, type: 'transfer.reverse' | 'transfer.complete'): NewEntry =>
  type === 'transfer.reverse'
    ? { type, payload: { transfer: t, reason: 'credit-limit' }, txId: transferTxId('close', t.id) }
    : { type, payload: { transfer: t }, txId: transferTxId('close', t.id) };

describe('the station credit limit: what the room counts', () => {
  it('every ticket approved and not settled, not only the newest attempt: a first one held for a person, a second asked about', (t) => {
    const ledger = ledgerAt(t);
    ledger.append(aftIn(103, 'A1', 60_000));
    const a = validationNumber(31, 5);
    const b = validationNumber(31, 6);
    // A approved for 30,000: the acceptor jammed after STACK, A held for a person (no end journalled).
    ledger.appendMany([redeemRequest('req-00000A', a, 103), redeemApproved('req-00000A', a, 103, 30_000)]);
    assert.equal(creditRoom(ledger, 103, LIMIT), 10_000);
    // The player inserts B: its request is journalled, A still held.
    ledger.append(redeemRequest('req-00000B', b, 103));
    assert.equal(creditRoom(ledger, 103, LIMIT), 10_000, 'A still counted once B is asked about');
    assert.equal(passesCreditLimit(ledger, 103, 10_001, LIMIT), true);
    assert.equal(passesCreditLimit(ledger, 103, 10_000, LIMIT), false);
    ledger.appendMany([redeemApproved('req-00000B', b, 103, 10_000)]);
    assert.equal(creditRoom(ledger, 103, LIMIT), 0, 'both approvals counted');
    ledger.append(redeemStacked('req-00000B', b, 103, 10_000));
    // A person finds A in the cashbox and settles it stacked: the station at its limit, not past it.
    ledger.append(redeemStacked('req-00000A', a, 103, 30_000));
    assert.equal(ledger.credit(103), LIMIT);
    // Another station's approvals are not this one's.
    assert.equal(creditRoom(ledger, 104, LIMIT), LIMIT);
  });

  it('a move out still in flight: counted until it completes; reversed, the station within its limit', (t) => {
    const ledger = ledgerAt(t);
    ledger.append(aftIn(103, 'A1', 90_000));
    const first = move(1, 103, 50_000);
    ledger.append(out(first));
    assert.equal(ledger.credit(103), 40_000);
    assert.equal(creditRoom(ledger, 103, LIMIT), 10_000, 'the debit in flight still counted');
    ledger.append(aftIn(103, 'A2', creditRoom(ledger, 103, LIMIT))); // notes or AFT fill the room
    // The receiver refuses (its own credit limit, say): the debit comes back, always.
    ledger.append(closed(first, 'transfer.reverse'));
    assert.equal(ledger.credit(103), LIMIT);
    // A move that completes leaves the room for good.
    const second = move(2, 103, 30_000);
    ledger.append(out(second));
    assert.equal(creditRoom(ledger, 103, LIMIT), 0);
    ledger.append(closed(second, 'transfer.complete'));
    assert.equal(creditRoom(ledger, 103, LIMIT), 30_000);
    // Another station's move is not this one's.
    ledger.append(aftIn(104, 'B1', 1_000));
    ledger.append(out(move(3, 104, 1_000)));
    assert.equal(creditRoom(ledger, 103, LIMIT), 30_000);
    assert.equal(creditRoom(ledger, 104, LIMIT), LIMIT - 1_000);
  });
});
