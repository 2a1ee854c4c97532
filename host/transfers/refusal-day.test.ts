// The allowance of refusals a link may have journalled beyond the ids taken from it
// (`SPARE_REFUSALS`), per day. Before, it was counted over the link's whole life: an honest
// table whose offers were lost while this one was unreachable (a restart, a switch replaced, a
// table closed for the night) recalls each a minute later, and each recall of an id never seen
// here is a refusal journalled. A link that moved rarely but lost offers on many nights wore its
// 64 out for good, restarts included: from then on every lost offer's recall went unanswered and
// the player's debit stayed in flight for ever. Now the count is the receiver's UTC day's, stamped
// on each refusal (`day`) and folded from the journal, as the refusals at the credit limit are; a
// lying link adds at most the allowance a day (docs/transfers.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TableId, type Transfer } from '../../terms/transfer-terms.js';
import { entriesOfTypes, Ledger, verifyLedger } from '../../ledger/index.js';
import { LedgerTransferJournal } from './ledger-journal.js';
import { SPARE_REFUSALS } from './receiver.js';
import { TransferHost } from './transfer-host.js';
import { fold } from './state.js';

const HOME = TableId.parse('home');
const BACC = TableId.parse('baccarat');
const HOMES = { 103: HOME, 104: HOME };
const DAY_MS = 86_400_000;
/** 1 December 2026, 00:00 UTC. */
const DAY_1 = Date.UTC(2026, 11, 1);

/** A baccarat table that hears recalls of offers lost on the wire, over a ledger that outlives a host (a restart). */
class Floor {
  readonly ledger = Ledger.open({ file: ':memory:', terminalId: 'bacc' });
  readonly clock = { ms: DAY_1 };
  readonly answers: string[] = [];
  host: TransferHost;
  serial = 0;
  constructor() {
    this.host = this.start();
  }
  start(): TransferHost {
    return new TransferHost({
      now: () => this.clock.ms,
      self: BACC,
      currency: 'MOP',
      homes: HOMES,
      journal: new LedgerTransferJournal(this.ledger),
      send: (o) => this.answers.push(o.message.kind === 'refused' ? `refused ${o.message.reason}` : o.message.kind),
      alarm: () => {},
    });
  }
  restart(): void {
    this.host.sumUpAll();
    this.host = this.start();
  }
  atDay(day: number, hour = 1): void {
    this.clock.ms = DAY_1 + (day - 1) * DAY_MS + hour * 3_600_000;
  }
  /** Recalls of `n` offers this table never saw (lost on the wire); how many were answered. */
  recallLost(n: number): number {
    const before = this.answers.length;
    for (let i = 0; i < n; i++) this.host.receive(HOME, { kind: 'recall', id: { origin: HOME, serial: ++this.serial } });
    return this.answers.length - before;
  }
  /** The same recalls asked again (an honest sender asks until it is answered); how many were answered. */
  askAgain(serials: readonly number[]): number {
    const before = this.answers.length;
    for (const serial of serials) this.host.receive(HOME, { kind: 'recall', id: { origin: HOME, serial } });
    return this.answers.length - before;
  }
  move(): void {
    const t: Transfer = { id: { origin: HOME, serial: ++this.serial }, currency: 'MOP', station: 104, from: HOME, to: BACC, amount: 100 };
    this.host.receive(HOME, { kind: 'offer', transfer: t });
  }
  refusalsJournalled(): number {
    return [...entriesOfTypes(this.ledger, ['transfer.refuse'])].length;
  }
}

describe('transfers: the allowance of refusals a link may have journalled, per day', () => {
  it(`an honest link that lost offers on five nights, 40 a night (200 in all, more than ${SPARE_REFUSALS} beyond the 10 moves taken): every recall answered`, () => {
    const f = new Floor();
    const answered: number[] = [];
    for (const day of [1, 2, 3, 4, 5]) {
      f.atDay(day, 2);
      answered.push(f.recallLost(40));
      f.atDay(day, 12);
      f.move();
      f.move();
    }
    assert.deepEqual(answered, [40, 40, 40, 40, 40]);
    assert.equal(f.refusalsJournalled(), 200);
    assert.deepEqual(verifyLedger(f.ledger).problems, []);
  });

  it(`a lying link recalling serials 1, 2, 3… all day: at most ${SPARE_REFUSALS} refusals journalled that day beyond the moves taken, the rest unanswered; the next day ${SPARE_REFUSALS} more`, () => {
    const f = new Floor();
    f.atDay(1);
    assert.equal(f.recallLost(500), SPARE_REFUSALS);
    assert.equal(f.refusalsJournalled(), SPARE_REFUSALS);
    f.move();
    assert.equal(f.recallLost(5), 1);
    f.atDay(2);
    assert.equal(f.recallLost(500), SPARE_REFUSALS + 1);
    assert.equal(f.refusalsJournalled(), 2 * SPARE_REFUSALS + 2);
  });

  it("a recall left unanswered past the day's allowance is answered when its sender asks again the next day, so the debit is reversed, not left in flight", () => {
    const f = new Floor();
    f.atDay(1, 23);
    f.recallLost(SPARE_REFUSALS);
    const first = f.serial + 1;
    assert.equal(f.recallLost(3), 0);
    f.atDay(2, 0);
    assert.equal(f.askAgain([first, first + 1, first + 2]), 3);
    assert.deepEqual(f.answers.slice(-3), ['refused recalled', 'refused recalled', 'refused recalled']);
  });

  it("a restart mid-day keeps the day's count (folded from the journal), and the fold agrees with the live state", () => {
    const f = new Floor();
    f.atDay(1);
    assert.equal(f.recallLost(40), 40);
    f.restart();
    assert.equal(f.recallLost(40), SPARE_REFUSALS - 40);
    f.restart();
    assert.equal(f.recallLost(5), 0);
    f.atDay(2);
    f.restart();
    assert.equal(f.recallLost(5), 5);
    assert.deepEqual(fold(BACC, 'MOP', HOMES, new LedgerTransferJournal(f.ledger).entries()), f.host.state);
  });
});
