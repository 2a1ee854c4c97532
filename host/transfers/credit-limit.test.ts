// Credit moved in from another table and the station credit limit (docs/sas.md, "The station
// credit limit"; docs/transfers.md): an offer that would take the station's credit here past the
// table's `creditLimit` is refused `credit-limit` — journalled as every refusal (the id spent),
// answered so the sender reverses its debit (nothing lost), and no alarm: the sender cannot know
// the credit here, so an honest table makes such an offer. The sender is distrusted all the same:
// amounts one unit either side of the room, and an id offered again for less after its refusal.
// Such a refusal is not counted against the link's allowance of refusals (a review: a player
// pressing Move at a full station spent it, and later refusals on the link went unanswered, the
// debits stranded); a flood of them is bounded by the host's budget a minute instead.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TableId, type Transfer, type TransferEntry } from '../../terms/transfer-terms.js';
import { billCredit } from '../../ledger/fixtures.js';
import { entriesOfTypes, Ledger, verifyLedger } from '../../ledger/index.js';
import { LedgerTransferJournal } from './ledger-journal.js';
import { AT_LIMIT_SPARE, SPARE_REFUSALS } from './receiver.js';
import { ALARM_BUDGET, ALARM_WINDOW_MS, AT_LIMIT_BUDGET, TransferHost } from './transfer-host.js';
import { fold, initialState, outgoingOf, type TransferState } from './state.js';
import { step, type TransferEvent, type TransferStep } from './step.js';

const HOME = TableId.parse('home');
const BACC = TableId.parse('baccarat');
const HOMES = { 103: HOME };
const LIMIT = 100_000;

class Host {
  state: TransferState;
  readonly journal: TransferEntry[] = [];
  credit = new Map<number, number>();
  constructor(readonly self: TableId) {
    this.state = initialState(self, 'MOP', HOMES);
  }
  on(event: TransferEvent): TransferStep {
    const r = step(this.state, event);
    this.journal.push(...r.journal);
    this.state = r.state;
    return r;
  }
  hear(link: TableId, message: unknown): TransferStep {
    return this.on({ kind: 'receive', link, message, credit: (s) => this.credit.get(s) ?? 0, creditLimit: LIMIT });
  }
}

const offer = (serial: number, amount: number): Transfer => ({ id: { origin: HOME, serial }, currency: 'MOP', station: 103, from: HOME, to: BACC, amount });

describe('transfers: the station credit limit at the receiver', () => {
  it('one unit over the room: refused credit-limit, journalled and answered, no alarm, nothing credited', () => {
    const bacc = new Host(BACC);
    bacc.credit.set(103, LIMIT - 500);
    const t = offer(1, 501);
    const r = bacc.hear(HOME, { kind: 'offer', transfer: t });
    assert.deepEqual(r.journal, [{ type: 'transfer.refuse', payload: { id: t.id, reason: 'credit-limit', offered: t } }]);
    assert.deepEqual(r.send, [{ to: HOME, message: { kind: 'refused', id: t.id, reason: 'credit-limit' } }]);
    assert.deepEqual(r.alarms, []);
    // Offered again for less under the same id: the journal's answer, and the changed terms raised.
    const again = bacc.hear(HOME, { kind: 'offer', transfer: { ...t, amount: 1 } });
    assert.deepEqual([again.journal, again.alarms.map((a) => a.reason)], [[], ['terms-changed']]);
  });

  it(`a player pressing Move again and again at a full station (${SPARE_REFUSALS + 2} moves of 1): every one refused and reversed, none left in flight`, () => {
    const home = new Host(HOME);
    home.credit.set(103, 1_000);
    const bacc = new Host(BACC);
    bacc.credit.set(103, LIMIT); // a win took it there
    const unanswered: number[] = [];
    for (let serial = 1; serial <= SPARE_REFUSALS + 2; serial++) {
      const sent = home.on({ kind: 'start', station: 103, to: BACC, amount: 1, available: home.credit.get(103) ?? 0 }).send[0]?.message;
      home.credit.set(103, (home.credit.get(103) ?? 0) - 1);
      const reply = bacc.hear(HOME, sent).send[0]?.message;
      if (!reply) {
        unanswered.push(serial);
        continue;
      }
      if (home.hear(BACC, reply).journal.some((e) => e.type === 'transfer.reverse')) home.credit.set(103, (home.credit.get(103) ?? 0) + 1);
    }
    assert.deepEqual(unanswered, []);
    assert.equal(home.credit.get(103), 1_000);
  });

  it(`refusals at the credit limit leave the link's allowance of refusals whole: past ${SPARE_REFUSALS} of them, a recall of an offer lost on the wire is still refused (journalled and answered)`, () => {
    const bacc = new Host(BACC);
    bacc.credit.set(103, LIMIT);
    for (let serial = 1; serial <= SPARE_REFUSALS + 10; serial++) bacc.hear(HOME, { kind: 'offer', transfer: offer(serial, 1) });
    const recall = bacc.hear(HOME, { kind: 'recall', id: { origin: HOME, serial: 1_000 } });
    assert.deepEqual([recall.journal.map((e) => e.type), recall.send.map((s) => s.message.kind), recall.alarms], [['transfer.refuse'], ['refused'], []]);
  });

  it(`a flood of offers at a full station through the host: ${AT_LIMIT_BUDGET} refusals journalled a minute per link, the rest the credit-limit alarm within its budget, neither journalled nor answered; the next minute, answered again`, () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'bacc' });
    ledger.append(billCredit(103, LIMIT, 'b1'));
    const clock = { ms: 1_000_000 };
    const sent: string[] = [];
    const raised: string[] = [];
    const bacc = new TransferHost({
      now: () => clock.ms,
      self: BACC,
      currency: 'MOP',
      homes: HOMES,
      journal: new LedgerTransferJournal(ledger),
      send: (o) => sent.push(o.message.kind),
      alarm: (a) => raised.push(a.reason),
      creditLimit: () => LIMIT,
    });
    const rows = () => [...entriesOfTypes(ledger, ['transfer.refuse', 'transfer.alarm'])].map((e) => e.type);
    for (let serial = 1; serial <= 1_000; serial++) bacc.receive(HOME, { kind: 'offer', transfer: offer(serial, 1) });
    assert.equal(sent.length, AT_LIMIT_BUDGET);
    assert.equal(raised.length, 1_000 - AT_LIMIT_BUDGET);
    assert.ok(raised.every((r) => r === 'credit-limit'));
    const counts = (xs: string[]) => [xs.filter((x) => x === 'transfer.refuse').length, xs.filter((x) => x === 'transfer.alarm').length];
    assert.deepEqual(counts(rows()), [AT_LIMIT_BUDGET, ALARM_BUDGET]);
    // The honest sender asks again about an offer left unanswered: answered once the minute is over.
    bacc.receive(HOME, { kind: 'offer', transfer: offer(500, 1) });
    assert.equal(sent.length, AT_LIMIT_BUDGET);
    clock.ms += ALARM_WINDOW_MS;
    bacc.receive(HOME, { kind: 'offer', transfer: offer(500, 1) });
    assert.deepEqual(sent.slice(AT_LIMIT_BUDGET), ['refused']);
    // The link's allowance of refusals (lies) untouched: a recall of an id never seen is refused.
    bacc.receive(HOME, { kind: 'recall', id: { origin: HOME, serial: 5_000 } });
    assert.deepEqual(sent.slice(AT_LIMIT_BUDGET), ['refused', 'refused']);
    assert.deepEqual(verifyLedger(ledger).problems, []);
  });

  it(`a link's refusals at the credit limit are bounded (a review: 20 a minute, for ever, at an empty station offered more than the whole limit): ${AT_LIMIT_SPARE} beyond the moves it had taken, then the alarm only; a move taken allows one more; a restart counts them from the journal (a step given no clock: undated refusals, one day of their own; the days: at-limit-day.test.ts)`, () => {
    const bacc = new Host(BACC);
    const journalled = () => bacc.journal.filter((e) => e.type === 'transfer.refuse').length;
    let serial = 0;
    for (let i = 0; i < AT_LIMIT_SPARE + 5; i++) bacc.hear(HOME, { kind: 'offer', transfer: offer(++serial, LIMIT + 1) });
    assert.equal(journalled(), AT_LIMIT_SPARE);
    const past = bacc.hear(HOME, { kind: 'offer', transfer: offer(++serial, LIMIT + 1) });
    assert.deepEqual([past.journal, past.send, past.alarms.map((a) => a.reason)], [[], [], ['credit-limit']]);
    // One move taken from the link: one more refusal at the limit may be journalled, and no more.
    assert.deepEqual(
      bacc.hear(HOME, { kind: 'offer', transfer: offer(++serial, 1) }).journal.map((e) => e.type),
      ['transfer.in'],
    );
    bacc.credit.set(103, 1);
    assert.deepEqual(
      bacc.hear(HOME, { kind: 'offer', transfer: offer(++serial, LIMIT) }).send.map((s) => s.message.kind),
      ['refused'],
    );
    assert.deepEqual(bacc.hear(HOME, { kind: 'offer', transfer: offer(++serial, LIMIT) }).send, []);
    // A restart folds the same count: still nothing journalled past the bound.
    bacc.state = fold(BACC, 'MOP', HOMES, bacc.journal);
    assert.deepEqual(bacc.hear(HOME, { kind: 'offer', transfer: offer(serial + 1, LIMIT + 1) }).journal, []);
    // The link's allowance of lies is another count: a recall of an id never seen is still refused.
    assert.deepEqual(
      bacc.hear(HOME, { kind: 'recall', id: { origin: HOME, serial: 99_999 } }).send.map((s) => s.message.kind),
      ['refused'],
    );
  });

  it('the room exactly, or one unit under it: taken', () => {
    for (const [serial, amount] of [
      [2, 500],
      [3, 499],
    ] as const) {
      const bacc = new Host(BACC);
      bacc.credit.set(103, LIMIT - 500);
      assert.deepEqual(
        bacc.hear(HOME, { kind: 'offer', transfer: offer(serial, amount) }).journal.map((e) => e.type),
        ['transfer.in'],
      );
    }
  });

  it('the sender reverses its debit on the refusal: the credit is back at the station, nothing lost', () => {
    const home = new Host(HOME);
    const bacc = new Host(BACC);
    bacc.credit.set(103, LIMIT);
    const r = home.on({ kind: 'start', station: 103, to: BACC, amount: 700, available: 1_000 });
    const sent = r.send[0]?.message;
    assert.equal(sent?.kind, 'offer');
    const answer = bacc.hear(HOME, sent).send[0]?.message;
    assert.deepEqual(answer && answer.kind === 'refused' ? answer.reason : answer, 'credit-limit');
    const back = home.on({ kind: 'receive', link: BACC, message: answer, credit: () => 0 });
    assert.deepEqual(
      back.journal.map((e) => [e.type, e.type === 'transfer.reverse' ? e.payload.reason : null]),
      [['transfer.reverse', 'credit-limit']],
    );
    assert.equal(outgoingOf(home.state, { origin: HOME, serial: 1 })?.phase, 'reversed');
    // Kept in the state (the journal's fold), so the station's list of moves says why it came back.
    assert.equal(outgoingOf(home.state, { origin: HOME, serial: 1 })?.creditLimit, true);
    assert.deepEqual(fold(HOME, 'MOP', HOMES, home.journal), home.state);
  });
});
