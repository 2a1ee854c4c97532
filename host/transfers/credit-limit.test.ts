// Credit moved in from another table and the station credit limit (docs/sas.md, "The station
// credit limit"; docs/transfers.md): an offer that would take the station's credit here past the
// table's `creditLimit` is refused `credit-limit` — journalled as every refusal (the id spent),
// answered so the sender reverses its debit (nothing lost), and no alarm: the sender cannot know
// the credit here, so an honest table makes such an offer. The sender is distrusted all the same:
// amounts one unit either side of the room, and an id offered again for less after its refusal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TableId, type Transfer, type TransferEntry } from '../../terms/transfer-terms.js';
import { SPARE_REFUSALS } from './receiver.js';
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

  it(`past the link's allowance (${SPARE_REFUSALS} refusals beyond those taken) a flood of such offers is the credit-limit alarm, neither journalled nor answered`, () => {
    const bacc = new Host(BACC);
    bacc.credit.set(103, LIMIT);
    for (let serial = 1; serial <= SPARE_REFUSALS; serial++) {
      const r = bacc.hear(HOME, { kind: 'offer', transfer: offer(serial, 1) });
      assert.deepEqual([r.journal.map((e) => e.type), r.alarms], [['transfer.refuse'], []], `offer ${serial}: refused, no alarm`);
    }
    const flood = bacc.hear(HOME, { kind: 'offer', transfer: offer(SPARE_REFUSALS + 1, 1) });
    assert.deepEqual([flood.journal, flood.send, flood.alarms.map((a) => a.reason)], [[], [], ['credit-limit']]);
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
