// Credit moved in from another table while the casino system holds the station's AFT game lock
// (SAS 6.02 §8.4; docs/sas.md, "The game lock"; docs/transfers.md). The system locks a station so
// that nothing else changes its credit meter between its 0x74 (which reports the credit and the
// room a transfer in has) and its 0x72: the locked station takes no bet, note, ticket or cash-out.
// A move in is credit in like a note: taken during the lock, a system's transfer out of the credit
// it read leaves the move behind on the station, and its transfer in of the room it read is
// refused 84. So an offer the station would take waits, neither journalled nor answered (the
// honest sender asks again every tick), and is taken once the lock has ended; an offer refused for
// good, an id already decided and a recall are answered as ever (none moves credit here).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TableId, type Transfer, type TransferEntry } from '../../terms/transfer-terms.js';
import { TransferHost } from './transfer-host.js';
import { initialState, type TransferState } from './state.js';
import { step, type TransferStep } from './step.js';

const HOME = TableId.parse('home');
const BACC = TableId.parse('baccarat');
const HOMES = { 103: HOME, 104: HOME };

const offer = (serial: number, amount: number, station = 103): Transfer => ({
  id: { origin: HOME, serial },
  currency: 'MOP',
  station,
  from: HOME,
  to: BACC,
  amount,
});

class Receiver {
  state: TransferState = initialState(BACC, 'MOP', HOMES);
  readonly locked = new Set<number>();
  hear(message: unknown): TransferStep {
    const r = step(this.state, { kind: 'receive', link: HOME, message, credit: () => 0, locked: (s) => this.locked.has(s) });
    this.state = r.state;
    return r;
  }
}

describe('transfers: a move in waits while the station is under the AFT game lock', () => {
  it('an offer to a locked station is neither journalled nor answered; once the lock ends, the same offer is taken', () => {
    const bacc = new Receiver();
    bacc.locked.add(103);
    const t = offer(1, 5_000);
    const waiting = bacc.hear({ kind: 'offer', transfer: t });
    assert.deepEqual([waiting.journal, waiting.send, waiting.alarms], [[], [], []], 'credit moved onto a locked station');
    // Another station of the table is not held by the lock.
    const other = offer(2, 700, 104);
    assert.deepEqual(bacc.hear({ kind: 'offer', transfer: other }).journal, [{ type: 'transfer.in', payload: { transfer: other } }]);
    bacc.locked.delete(103);
    const taken = bacc.hear({ kind: 'offer', transfer: t });
    assert.deepEqual(taken.journal, [{ type: 'transfer.in', payload: { transfer: t } }]);
    assert.deepEqual(taken.send, [{ to: HOME, message: { kind: 'taken', transfer: t } }]);
  });

  it('what moves no credit here is answered as ever under the lock: a refusal for good, an id decided, a recall', () => {
    const bacc = new Receiver();
    const decided = offer(1, 100);
    bacc.hear({ kind: 'offer', transfer: decided });
    bacc.locked.add(103);
    // Decided before the lock: the journal's answer.
    assert.deepEqual(bacc.hear({ kind: 'offer', transfer: decided }).send, [{ to: HOME, message: { kind: 'taken', transfer: decided } }]);
    // In another currency: refused for good (the sender reverses its debit), lock or not.
    const dollars = { ...offer(2, 100), currency: 'HKD' };
    assert.deepEqual(bacc.hear({ kind: 'offer', transfer: dollars }).send, [
      { to: HOME, message: { kind: 'refused', id: dollars.id, reason: 'wrong-currency' } },
    ]);
    // The sender gave up waiting: its recall is refused, and its debit goes back to the station there.
    const recalled = bacc.hear({ kind: 'recall', id: offer(3, 100).id });
    assert.deepEqual(recalled.send, [{ to: HOME, message: { kind: 'refused', id: offer(3, 100).id, reason: 'recalled' } }]);
  });

  it("the host asks its table whether the station is locked at each offer (TransferHost's `locked`)", () => {
    const journal: TransferEntry[] = [];
    const locked = new Set([103]);
    const sent: unknown[] = [];
    const host = new TransferHost({
      self: BACC,
      currency: 'MOP',
      homes: HOMES,
      journal: { entries: () => journal, append: (es) => journal.push(...es), credit: () => 0 },
      send: (out) => sent.push(out.message),
      alarm: () => {},
      locked: (s) => locked.has(s),
    });
    const t = offer(1, 5_000);
    host.receive(HOME, { kind: 'offer', transfer: t });
    assert.deepEqual([journal, sent], [[], []], 'credit moved onto a locked station');
    locked.clear();
    host.receive(HOME, { kind: 'offer', transfer: t });
    assert.deepEqual(journal, [{ type: 'transfer.in', payload: { transfer: t } }]);
  });
});

// The other way: a move out of a locked station that the receiving table refuses. The station's
// gate holds a move out off during the lock, but one debited before it may be answered during it;
// its reversal puts the credit back on the station between the system's 0x74 and its 0x72. So a
// refusal waits while the station is locked, neither journalled nor acted on: the receiver has
// journalled it and answers it again at the sender's every ask (an offer or a recall), so the
// next answer after the lock reverses the debit. Nothing is lost: the transfer stays open.
class Sender {
  state: TransferState = initialState(HOME, 'MOP', { 103: HOME, 104: HOME });
  readonly locked = new Set<number>();
  on(event: Parameters<typeof step>[1]): TransferStep {
    const r = step(this.state, event);
    this.state = r.state;
    return r;
  }
  hear(message: unknown): TransferStep {
    return this.on({ kind: 'receive', link: BACC, message, credit: () => 0, locked: (s) => this.locked.has(s) });
  }
}

/** The sending table's host, its stations with 5,000 each, its journal and which stations the test locks. */
function homeHost(lockedAtFirst: number[]): { journal: TransferEntry[]; locked: Set<number>; host: TransferHost } {
  const journal: TransferEntry[] = [];
  const locked = new Set(lockedAtFirst);
  const host = new TransferHost({
    self: HOME,
    currency: 'MOP',
    homes: HOMES,
    journal: { entries: () => journal, append: (es) => journal.push(...es), credit: () => 5_000 },
    send: () => {},
    alarm: () => {},
    locked: (s) => locked.has(s),
  });
  return { journal, locked, host };
}

describe('transfers: a move out refused while its station is under the AFT game lock waits to be reversed', () => {
  it("a refusal heard during the lock reverses nothing; the receiver's answer to the next ask after it does", () => {
    const home = new Sender();
    const started = home.on({ kind: 'start', station: 103, to: BACC, amount: 2_000, available: 5_000 });
    const t = (started.journal[0] as Extract<TransferEntry, { type: 'transfer.out' }>).payload.transfer;
    home.locked.add(103);
    const refused = { kind: 'refused', id: t.id, reason: 'credit-limit' };
    const waiting = home.hear(refused);
    assert.deepEqual([waiting.journal, waiting.send, waiting.alarms], [[], [], []], 'credit came back onto a locked station');
    // Still open: the tick asks again, and the receiver answers again from its journal.
    assert.deepEqual(home.on({ kind: 'tick' }).send, [{ to: BACC, message: { kind: 'offer', transfer: t } }]);
    home.locked.delete(103);
    assert.deepEqual(home.hear(refused).journal, [{ type: 'transfer.reverse', payload: { transfer: t, reason: 'credit-limit' } }]);
  });

  it('a recalled transfer is reversed by the answer to a recall after the lock, not during it; a taken one completes as ever', () => {
    const home = new Sender();
    const a = (home.on({ kind: 'start', station: 103, to: BACC, amount: 100, available: 500 }).journal[0] as Extract<TransferEntry, { type: 'transfer.out' }>)
      .payload.transfer;
    const b = (home.on({ kind: 'start', station: 103, to: BACC, amount: 200, available: 400 }).journal[0] as Extract<TransferEntry, { type: 'transfer.out' }>)
      .payload.transfer;
    home.on({ kind: 'recall', id: a.id });
    home.locked.add(103);
    const refused = { kind: 'refused', id: a.id, reason: 'recalled' };
    assert.deepEqual(home.hear(refused).journal, [], 'credit came back onto a locked station');
    // "Taken" moves nothing onto the station (its debit was before the lock): it completes.
    assert.deepEqual(home.hear({ kind: 'taken', transfer: b }).journal, [{ type: 'transfer.complete', payload: { transfer: b } }]);
    assert.deepEqual(home.on({ kind: 'tick' }).send, [{ to: BACC, message: { kind: 'recall', id: a.id } }]);
    home.locked.delete(103);
    assert.deepEqual(home.hear(refused).journal, [{ type: 'transfer.reverse', payload: { transfer: a, reason: 'recalled' } }]);
  });

  it("the host asks its table whether the station is locked at each refusal (TransferHost's `locked`)", () => {
    const { journal, locked, host } = homeHost([103]);
    host.start(103, BACC, 1_000);
    const t = (journal[0] as Extract<TransferEntry, { type: 'transfer.out' }>).payload.transfer;
    host.receive(BACC, { kind: 'refused', id: t.id, reason: 'credit-limit' });
    assert.equal(journal.length, 1, 'credit came back onto a locked station');
    locked.clear();
    host.receive(BACC, { kind: 'refused', id: t.id, reason: 'credit-limit' });
    assert.deepEqual(journal.slice(1), [{ type: 'transfer.reverse', payload: { transfer: t, reason: 'credit-limit' } }]);
  });
});

describe("transfers: two people's reversal of a move out waits for the end of the AFT game lock", () => {
  it("is refused 'station-locked' while the station is locked, journalling nothing; a completion is settled as ever; after the lock the reversal is", () => {
    const { journal, locked, host } = homeHost([]);
    host.start(103, BACC, 1_000);
    host.start(103, BACC, 500);
    const [a, b] = journal.map((e) => (e as Extract<TransferEntry, { type: 'transfer.out' }>).payload.transfer);
    assert.ok(a && b);
    const settled = { by: ['ana', 'rui'] as [string, string], reference: 'INC-9' };
    locked.add(103);
    // The reversal puts the credit back on the station: not between the system's 0x74 and its 0x72.
    assert.deepEqual(host.settle({ id: a.id, as: 'reversed', settled, receiverAnswers: false }), { refused: 'station-locked' });
    assert.equal(journal.length, 2, 'credit came back onto a locked station');
    // A completion moves nothing onto the station (its debit was before the lock).
    assert.deepEqual(host.settle({ id: b.id, as: 'completed', settled, receiverAnswers: false }), {});
    locked.clear();
    assert.deepEqual(host.settle({ id: a.id, as: 'reversed', settled, receiverAnswers: false }), {});
    assert.deepEqual(journal.slice(2), [
      { type: 'transfer.complete', payload: { transfer: b, settled } },
      { type: 'transfer.reverse', payload: { transfer: a, settled } },
    ]);
  });
});
