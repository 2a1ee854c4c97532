// The notes a host finds in escrow at start: the escrow's id comes from its entry, not from a
// transaction id cut apart; an entry of an earlier build (no id in it) is still found by its
// transaction id, and only when that is exactly the credit rule's form.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openLedger, type Ledger } from '../../ledger/index.js';
import { creditTxId, escrowTxId, lastCreditFor, openEscrows, pendingNoteFor, returnTxId } from './escrow.js';

function withLedger(fn: (l: Ledger) => void): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'escrow-'));
  const l = openLedger(dir, 'T-ESCROW');
  try {
    fn(l);
  } finally {
    l.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const escrow = (l: Ledger, o: { device: string; txId: string; escrowId?: string; currency?: string; amount?: number }) =>
  l.append({
    type: 'bill.escrow',
    payload: { station: 1, device: o.device, denomination: o.amount ?? 50_000, currency: o.currency ?? 'MOP', ...(o.escrowId ? { escrowId: o.escrowId } : {}) },
    txId: o.txId,
  });

describe('the notes left in escrow (host/recovery/escrow.ts)', () => {
  it("takes the escrow's id from its entry, whatever the transaction id looks like", () =>
    withLedger((l) => {
      escrow(l, { device: 'BA-1', escrowId: 'e:7:x', txId: escrowTxId('BA-1', 'e:7:x') });
      assert.deepEqual(pendingNoteFor(l, 'BA-1'), { escrowId: 'e:7:x', amount: 50_000, denomination: 500, currency: 'MOP', code: 0, stackSent: true });
    }));

  it('finds an earlier build’s entry (no id in it) by its transaction id, only in the exact form', () =>
    withLedger((l) => {
      escrow(l, { device: 'BA-1', txId: escrowTxId('BA-1', 'old-1') });
      escrow(l, { device: 'BA-1', txId: 'BA-1:old-2:credit' }); // not an escrow's form
      escrow(l, { device: 'BA-1', txId: 'BA-2:old-3:escrow' }); // another device's form
      escrow(l, { device: 'BA-1', txId: 'BA-1::escrow' }); // no id
      assert.deepEqual(
        openEscrows(l, 'BA-1').map((e) => e.note.escrowId),
        ['old-1'],
      );
    }));

  it('leaves out another device’s escrows and a currency no acceptor takes', () =>
    withLedger((l) => {
      escrow(l, { device: 'BA-2', escrowId: 'a', txId: escrowTxId('BA-2', 'a') });
      escrow(l, { device: 'BA-1', escrowId: 'b', txId: escrowTxId('BA-1', 'b'), currency: 'EUR' });
      assert.deepEqual(openEscrows(l, 'BA-1'), []);
      assert.equal(pendingNoteFor(l, 'BA-1'), null);
      assert.deepEqual(
        openEscrows(l, 'BA-2').map((e) => e.note.escrowId),
        ['a'],
      );
    }));

  it('names the note credited last at a device, until another note is escrowed or returned there', () =>
    withLedger((l) => {
      const credit = (device: string, escrowId: string, escrowSeq: number) =>
        l.append({
          type: 'bill.credit',
          payload: { station: 1, device, denomination: 50_000, currency: 'MOP', escrowSeq },
          txId: creditTxId(device, escrowId),
        });
      assert.equal(lastCreditFor(l, 'BA-1'), null, 'no note yet');
      const e1 = escrow(l, { device: 'BA-1', escrowId: 'n1', txId: escrowTxId('BA-1', 'n1') });
      assert.equal(lastCreditFor(l, 'BA-1'), null, 'in escrow: the pending note, not a credit');
      credit('BA-1', 'n1', e1.entry.seq);
      const e2 = escrow(l, { device: 'BA-2', escrowId: 'm1', txId: escrowTxId('BA-2', 'm1') });
      assert.deepEqual(
        lastCreditFor(l, 'BA-1'),
        { escrowId: 'n1', amount: 50_000, denomination: 500, currency: 'MOP', code: 0 },
        "another device's note changes nothing",
      );
      assert.equal(lastCreditFor(l, 'BA-2'), null);
      credit('BA-2', 'm1', e2.entry.seq);
      const e3 = escrow(l, { device: 'BA-1', escrowId: 'n2', txId: escrowTxId('BA-1', 'n2') });
      assert.equal(lastCreditFor(l, 'BA-1'), null, 'a later note escrowed');
      l.append({
        type: 'bill.return',
        payload: { station: 1, device: 'BA-1', denomination: 50_000, currency: 'MOP', reason: 'rejected', escrowSeq: e3.entry.seq },
        txId: returnTxId('BA-1', 'n2'),
      });
      assert.equal(lastCreditFor(l, 'BA-1'), null, 'a later note returned');
      assert.equal(lastCreditFor(l, 'BA-2')?.escrowId, 'm1');
    }));
});
