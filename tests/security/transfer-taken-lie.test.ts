// One "taken" on other terms (review, MEDIUM): the sender raised a `terms-mismatch` alarm and left
// the transfer open, so its timer asked again every tick (offer, then recall), the lying receiver
// answered every question with the same lie, and the sender journalled one `transfer.alarm` a tick
// (86,400 a day, each its own alarm upstream) with nothing that could close the transfer. Now the
// first such answer is journalled once, as the alarm that marks the transfer disputed: its credit
// stays in flight (no host guesses who has it), it is asked about no more, the same lie again
// journals nothing, and a restart folds the same (the alarm entry is the mark).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LedgerTransferJournal } from '../../host/transfers/ledger-journal.js';
import { outgoingTransfers } from '../../host/transfers/state.js';
import { TransferHost } from '../../host/transfers/transfer-host.js';
import type { Outbound } from '../../host/transfers/effects.js';
import { billCredit } from '../../ledger/fixtures.js';
import { entriesOfTypes, Ledger, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { TableId, type Transfer } from '../../terms/transfer-terms.js';

const V = TableId.parse('bac-1');
const W = TableId.parse('war-1');
const STATION = 101;

describe('a receiver that answers every question with one "taken" on other terms', () => {
  it('30 ticks (a recall at tick 10): the alarm is journalled once, the credit stays in flight, nothing is asked after the lie; a restart keeps it so', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: V });
    ledger.append(billCredit(STATION, 10_000, 'note-1'));
    const wire: Outbound[] = [];
    const journal = new LedgerTransferJournal(ledger);
    const open = () => new TransferHost({ self: V, currency: 'MOP', homes: { [STATION]: V }, journal, send: (o) => wire.push(o), alarm: () => {} });
    let v = open();
    assert.deepEqual(v.start(STATION, W, 10_000), {});
    const id = { origin: V, serial: 1 };
    const lie: Transfer = { id, currency: 'MOP', station: STATION, from: V, to: W, amount: 1 };
    const liar = () => {
      // W answers every offer and every recall that reached it with the same lie.
      for (const m of wire.splice(0)) if (m.to === W) v.receive(W, { kind: 'taken', transfer: lie });
    };
    const alarms = () => [...entriesOfTypes(ledger, ['transfer.alarm'])].map((e) => (JSON.parse(e.body) as EntryBody).payload as { reason: string });
    let asked = 0;
    for (let tick = 1; tick <= 30; tick++) {
      liar();
      if (tick === 10) v.recall(id);
      v.tick();
      asked += wire.length;
      if (tick === 15) v = open(); // a restart from the journal
    }
    liar();
    const [o] = outgoingTransfers(v.state);
    assert.ok(o && (o.phase === 'offering' || o.phase === 'recalling'), `still open: ${o?.phase}`);
    assert.deepEqual(
      alarms().map((a) => a.reason),
      ['terms-mismatch'],
      'one alarm for the one lie, not one a tick',
    );
    assert.deepEqual(o.disputed, lie, 'marked disputed with the lie it was told');
    assert.equal(ledger.credit(STATION), 0, 'the credit is in flight, not given back on a guess');
    // Once disputed, the timer asks about it no more (the recall at tick 10 is the host's own ask: once).
    assert.ok(asked <= 1, `${asked} questions sent after the lie`);
    // The same lie again, after a restart: nothing; another lie: an alarm of its own.
    v = open();
    v.receive(W, { kind: 'taken', transfer: lie });
    assert.equal(alarms().length, 1);
    v.receive(W, { kind: 'taken', transfer: { ...lie, amount: 2 } });
    assert.equal(alarms().length, 2);
    assert.deepEqual(verifyLedger(ledger).problems, []);
  });
});
