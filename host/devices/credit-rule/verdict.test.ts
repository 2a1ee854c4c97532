import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { judgeCredit, judgeEscrow, judgeReturn, type AcceptorNow, type NoteClaim, type StackedEscrow } from './verdict.js';

// Whatever an acceptor's side claims, in any state the host can be in: the rule stacks only a note
// of the table that it takes while the acceptor takes notes, and credits only the unresolved escrow
// it stacked, for that note, once per message.

const FACES = [10, 20, 50, 100, 500, 1000];
const claim = fc.record({
  escrowId: fc.constantFrom('e1', 'e2'),
  denomination: fc.oneof(fc.constantFrom(...FACES), fc.integer({ min: 1, max: 10_000_000 })),
  currency: fc.constantFrom('MOP', 'HKD', 'USD'),
  amountFactor: fc.oneof(fc.constant(100), fc.integer({ min: 1, max: 1_000 })),
});
const toNote = (c: { escrowId: string; denomination: number; currency: string; amountFactor: number }): NoteClaim => ({
  escrowId: c.escrowId,
  denomination: c.denomination,
  amount: c.denomination * c.amountFactor,
  currency: c.currency,
});
const now = fc.record({
  currency: fc.constant('MOP' as const),
  accepted: fc.subarray(FACES),
  enabled: fc.boolean(),
});
const stacked = fc.option(
  fc.record({
    seq: fc.integer({ min: 1, max: 1000 }),
    amount: fc.constantFrom(...FACES.map((f) => f * 100)),
    currency: fc.constant('MOP'),
    resolution: fc.option(
      fc.oneof(fc.record({ kind: fc.constant('credit' as const), ref: fc.option(fc.constantFrom('m1', 'm2')) }), fc.constant({ kind: 'return' as const })),
    ),
  }),
);
const ref = fc.option(fc.constantFrom('m1', 'm2'), { nil: undefined });

const isTableNote = (n: NoteClaim, a: AcceptorNow) => n.currency === a.currency && FACES.includes(n.denomination) && n.amount === n.denomination * 100;

describe('the credit rule (verdict.ts)', () => {
  it('stacks only a note of the table, that it takes, while the acceptor takes notes, and never one already resolved or another than the escrow held', () => {
    fc.assert(
      fc.property(now, claim, stacked, (a: AcceptorNow, c, s: StackedEscrow | null) => {
        const n = toNote(c);
        const v = judgeEscrow(a, n, s);
        if (!v.stack) return;
        assert.ok(isTableNote(n, a) && a.accepted.includes(n.denomination) && a.enabled);
        assert.ok(!s || (s.resolution === null && s.amount === n.amount));
      }),
      { numRuns: 5_000 },
    );
  });

  it('a lie (another currency, an amount that is not the face value) is a security event, never a plain return', () => {
    fc.assert(
      fc.property(now, claim, stacked, (a: AcceptorNow, c, s: StackedEscrow | null) => {
        const n = toNote(c);
        const v = judgeEscrow(a, n, s);
        if (!isTableNote(n, a)) assert.ok(!v.stack && v.refusal !== null);
      }),
      { numRuns: 5_000 },
    );
  });

  it('credits only the unresolved escrow it stacked, for that note; the credited message again is a duplicate, any other report a refusal', () => {
    fc.assert(
      fc.property(now, claim, stacked, ref, (a: AcceptorNow, c, s: StackedEscrow | null, r) => {
        const n = toNote(c);
        const v = judgeCredit(a, { ...n, ref: r }, s);
        if (v.kind === 'credit') assert.ok(s && s.resolution === null && s.amount === n.amount && isTableNote(n, a));
        if (v.kind === 'duplicate') assert.ok(s?.resolution?.kind === 'credit' && s.resolution.ref === (r ?? null) && s.amount === n.amount);
        if (!s) assert.equal(v.kind, 'refused');
      }),
      { numRuns: 10_000 },
    );
  });

  it('names why: no escrow, another currency, a note the table refuses, an inhibited acceptor, twice, returned, another note', () => {
    const a: AcceptorNow = { currency: 'MOP', accepted: [100, 500], enabled: true };
    const n = (denomination: number, currency = 'MOP', amount = denomination * 100): NoteClaim => ({ escrowId: 'e', denomination, amount, currency });
    const open: StackedEscrow = { seq: 3, amount: 10_000, currency: 'MOP', resolution: null };
    assert.deepEqual(judgeCredit(a, n(100), null), { kind: 'refused', refusal: 'no-escrow' });
    assert.deepEqual(judgeCredit(a, n(100, 'HKD'), null), { kind: 'refused', refusal: 'wrong-currency' });
    assert.deepEqual(judgeCredit(a, n(100, 'MOP', 50_000_000), null), { kind: 'refused', refusal: 'bad-note' });
    assert.deepEqual(judgeCredit(a, n(1000), null), { kind: 'refused', refusal: 'note-not-accepted' });
    assert.deepEqual(judgeCredit({ ...a, enabled: false }, n(100), null), { kind: 'refused', refusal: 'acceptor-inhibited' });
    assert.deepEqual(judgeCredit(a, n(500), open), { kind: 'refused', refusal: 'escrow-mismatch' });
    assert.deepEqual(judgeCredit(a, n(100), { ...open, resolution: { kind: 'return' } }), { kind: 'refused', refusal: 'escrow-returned' });
    assert.deepEqual(judgeCredit(a, { ...n(100), ref: 'm2' }, { ...open, resolution: { kind: 'credit', ref: 'm1' } }), {
      kind: 'refused',
      refusal: 'already-credited',
    });
    assert.deepEqual(judgeCredit(a, { ...n(100), ref: 'm1' }, { ...open, resolution: { kind: 'credit', ref: 'm1' } }), { kind: 'duplicate' });
    // The escrow was stacked while the acceptor took notes: a fault since does not take the note in the cashbox back.
    assert.deepEqual(judgeCredit({ ...a, enabled: false, accepted: [] }, n(100), open), { kind: 'credit' });
  });

  it("journals a return only against the unresolved escrow it stacked, for that escrow's note; another note under its id is a refusal", () => {
    fc.assert(
      fc.property(claim, stacked, (c, s) => {
        const n = toNote(c);
        const v = judgeReturn(n, s);
        if (!s || s.resolution) return assert.deepEqual(v, { kind: 'nothing' });
        const same = n.amount === s.amount && n.currency === s.currency && n.amount === n.denomination * 100;
        assert.deepEqual(v, same ? { kind: 'return' } : { kind: 'refused', refusal: 'escrow-mismatch' });
      }),
    );
    const open: StackedEscrow = { seq: 5, amount: 50_000, currency: 'MOP', resolution: null };
    const n = (d: number, currency = 'MOP'): NoteClaim => ({ escrowId: 'e1', amount: d * 100, denomination: d, currency });
    assert.deepEqual(judgeReturn(n(100), open), { kind: 'refused', refusal: 'escrow-mismatch' });
    assert.deepEqual(judgeReturn(n(500, 'HKD'), open), { kind: 'refused', refusal: 'escrow-mismatch' });
    assert.deepEqual(judgeReturn(n(500), open), { kind: 'return' });
    assert.deepEqual(judgeReturn(n(500), { ...open, resolution: { kind: 'credit', ref: null } }), { kind: 'nothing' });
  });
});
