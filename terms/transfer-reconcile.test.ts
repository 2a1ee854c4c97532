import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TableId, type Transfer, type TransferEntry } from './transfer-terms.js';
import { awaitedSide, reconcile } from './transfer-reconcile.js';

const HOME = TableId.parse('home');
const BACC = TableId.parse('baccarat');
const t: Transfer = { id: { origin: HOME, serial: 1 }, currency: 'MOP', station: 3, from: HOME, to: BACC, amount: 500 };

function pair(home: TransferEntry[], bacc: TransferEntry[]) {
  const [p] = reconcile(
    new Map([
      [HOME, home],
      [BACC, bacc],
    ]),
  );
  assert.ok(p);
  return { sender: p.sender, receiver: p.receiver, net: p.net, disagreements: p.disagreements };
}

const out: TransferEntry = { type: 'transfer.out', payload: { transfer: t } };
const taken: TransferEntry = { type: 'transfer.in', payload: { transfer: t } };
const refused: TransferEntry = { type: 'transfer.refuse', payload: { id: t.id, reason: 'recalled' } };
const complete: TransferEntry = { type: 'transfer.complete', payload: { transfer: t } };
const reverse: TransferEntry = { type: 'transfer.reverse', payload: { transfer: t, reason: 'recalled' } };

describe('transfers: the reconciliation pairs each id across the two ledgers', () => {
  it('agrees, with nothing made or lost, wherever two honest hosts can be', () => {
    assert.deepEqual(pair([out], []), { sender: 'open', receiver: 'none', net: 0, disagreements: [] });
    assert.deepEqual(pair([out], [taken]), { sender: 'open', receiver: 'taken', net: 0, disagreements: [] });
    assert.deepEqual(pair([out, complete], [taken]), { sender: 'completed', receiver: 'taken', net: 0, disagreements: [] });
    assert.deepEqual(pair([out], [refused]), { sender: 'open', receiver: 'refused', net: 0, disagreements: [] });
    assert.deepEqual(pair([out, reverse], [refused]), { sender: 'reversed', receiver: 'refused', net: 0, disagreements: [] });
  });

  it('names each disagreement with the money it made or lost', () => {
    assert.deepEqual(pair([out, complete], []), { sender: 'completed', receiver: 'none', net: -500, disagreements: ['completed-not-taken'] });
    assert.deepEqual(pair([out, reverse], [taken]), { sender: 'reversed', receiver: 'taken', net: 500, disagreements: ['taken-and-reversed'] });
    assert.deepEqual(pair([out, reverse], []), { sender: 'reversed', receiver: 'none', net: 0, disagreements: ['reversed-not-refused'] });
    assert.deepEqual(pair([], [taken]), { sender: 'none', receiver: 'taken', net: 500, disagreements: ['taken-not-sent'] });
    assert.deepEqual(pair([out, complete], [{ type: 'transfer.in', payload: { transfer: { ...t, amount: 700 } } }]), {
      sender: 'completed',
      receiver: 'taken',
      net: 200,
      disagreements: ['terms-differ'],
    });
  });

  it('names the side whose later sync can mend a one-sided pairing, and none for what no later entry mends', () => {
    const side = (home: TransferEntry[], bacc: TransferEntry[]) => {
      const [p] = reconcile(
        new Map([
          [HOME, home],
          [BACC, bacc],
        ]),
      );
      assert.ok(p);
      return awaitedSide(p);
    };
    // The missing entry precedes the one seen: the lagging end's sync brings it.
    assert.equal(side([], [taken]), 'sender');
    assert.equal(side([out, complete], []), 'receiver');
    assert.equal(side([out, reverse], []), 'receiver');
    // Agreeing pairings await nothing; nor does what no entry can mend.
    assert.equal(side([out], []), null);
    assert.equal(side([out, complete], [taken]), null);
    assert.equal(side([out, complete], [refused]), null);
    assert.equal(side([out, reverse], [taken]), null);
    assert.equal(side([out, complete], [{ type: 'transfer.in', payload: { transfer: { ...t, amount: 700 } } }]), null);
  });

  it('a closing two people settled pairs as any closing, and names them: returned here while taken there is money made', () => {
    const settled = { by: ['Ana Lei (1001)', 'Bo Chan (1002)'] as [string, string], reference: 'INC-7' };
    const [p] = reconcile(
      new Map([
        [HOME, [out, { type: 'transfer.reverse', payload: { transfer: t, settled } } as TransferEntry]],
        [BACC, [taken]],
      ]),
    );
    assert.deepEqual([p?.sender, p?.receiver, p?.net, p?.disagreements, p?.settled], ['reversed', 'taken', 500, ['taken-and-reversed'], settled]);
    const [q] = reconcile(
      new Map([
        [HOME, [out, { type: 'transfer.complete', payload: { transfer: t, settled } } as TransferEntry]],
        [BACC, [taken]],
      ]),
    );
    assert.deepEqual([q?.disagreements, q?.net, q?.settled], [[], 0, settled]);
    // Returned here with nothing at the receiver: what an honest settlement of a silent receiver leaves, no disagreement;
    // received there with nothing at the receiver: the station's credit lost, named with the names.
    const [r] = reconcile(new Map([[HOME, [out, { type: 'transfer.reverse', payload: { transfer: t, settled } } as TransferEntry]]]));
    assert.deepEqual([r?.disagreements, r?.net], [[], 0]);
    const [c] = reconcile(new Map([[HOME, [out, { type: 'transfer.complete', payload: { transfer: t, settled } } as TransferEntry]]]));
    assert.deepEqual([c?.disagreements, c?.net, c?.settled], [['completed-not-taken'], -500, settled]);
    // The receiver's own closing names no one.
    assert.equal(
      reconcile(
        new Map([
          [HOME, [out, reverse]],
          [BACC, [refused]],
        ]),
      )[0]?.settled,
      undefined,
    );
  });
});

// A third table's receiver's part of an id offered elsewhere (a review of the upstream, F2: a table
// whose key leaked wrote credits and refusals of an honest table's ids). Before: the credit believed
// was whichever was read first (by table id), so a third table's credit on other terms hid the
// receiver's and named `terms-differ` against the honest sender; and nothing named the third table.
describe("transfers: a receiver's part journalled by a table the id was not offered to", () => {
  const OTHER = TableId.parse('aaa-9');
  const theirs: TransferEntry = { type: 'transfer.in', payload: { transfer: { ...t, to: OTHER } } };
  const pairing = (journals: [TableId, TransferEntry[]][]) => {
    const [p] = reconcile(new Map(journals));
    assert.ok(p);
    return { receiver: p.receiver, net: p.net, disagreements: [...p.disagreements].sort(), outOfPlace: p.outOfPlace };
  };

  it("believes the credit of the debit's receiver, whatever the order read, and names the other as money made there", () => {
    const expected = { receiver: 'taken', net: 500, disagreements: ['taken-by-other'], outOfPlace: [OTHER] };
    assert.deepEqual(
      pairing([
        [OTHER, [theirs]],
        [HOME, [out, complete]],
        [BACC, [taken]],
      ]),
      expected,
    );
    assert.deepEqual(
      pairing([
        [HOME, [out, complete]],
        [BACC, [taken]],
        [OTHER, [theirs]],
      ]),
      expected,
    );
  });

  it("names a credit with no debit under the table that journalled it too, and a third table's refusal under none", () => {
    // A refusal by another table than the receiver: an honest one when the origin recalled it there (the recall trick).
    assert.deepEqual(
      pairing([
        [HOME, [out, complete]],
        [BACC, [taken]],
        [OTHER, [{ type: 'transfer.refuse', payload: { id: t.id, reason: 'recalled' } }]],
      ]),
      { receiver: 'taken', net: 0, disagreements: ['refused-by-other', 'taken-and-refused'], outOfPlace: [] },
    );
    // Never debited: the sender lied to an honest receiver, or the receiver credited itself; both are named.
    assert.deepEqual(pairing([[OTHER, [theirs]]]), { receiver: 'taken', net: 500, disagreements: ['taken-not-sent'], outOfPlace: [OTHER] });
  });
});
