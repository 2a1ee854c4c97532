import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BillAcceptorEvent, BillAcceptorOptions, Credit } from '../../hardware/billacceptor/types.js';
import { acceptorTruth, applyNoteEvent, FakeAcceptor, FakeAcceptorError, type NoteEvent } from './fake-acceptor.js';
import { stackedCredited } from './note-invariants.js';

/** A fake acceptor whose host stacks every note and takes every credit, with what it saw. */
function rig(o: Partial<Omit<BillAcceptorOptions, 'currency'>> = {}, record?: (e: NoteEvent) => void) {
  const truth = acceptorTruth('BA-1');
  const credits: Credit[] = [];
  const events: BillAcceptorEvent[] = [];
  const a = new FakeAcceptor(truth, { currency: 'MOP', enabled: true, onEscrow: () => 'stack', onCredit: (c) => void credits.push(c), ...o }, record);
  a.on((e) => events.push(e));
  return { truth, credits, events, a };
}

describe('the campaigns’ fake bill acceptor', () => {
  it('escrows, stacks on the host’s word, and reports the credit at the next poll until acknowledged', () => {
    const { truth, credits, a } = rig();
    assert.equal(a.insert(10_000), true);
    assert.deepEqual([...truth.notes], [['N1', { amount: 10_000, where: 'stacker' }]]);
    assert.deepEqual(truth.owed, ['N1']);
    assert.equal(a.insert(50_000), false, 'the slot refuses a note while a credit is owed');
    a.poll(false, true);
    a.poll(true);
    assert.deepEqual(
      credits.map((c) => [c.escrowId, c.amount, c.recovered]),
      [
        ['N1', 10_000, false],
        ['N1', 10_000, true],
      ],
      'an acknowledgement lost: the same credit reported again',
    );
    assert.deepEqual(truth.owed, []);
    a.poll(false);
    assert.equal(credits.length, 2, 'an acknowledged credit is not reported again');
    assert.equal(a.insert(50_000), true);
    assert.deepEqual([...truth.notes.keys()], ['N1', 'N2']);
  });

  it('keeps a credit owed when the host dies taking it, and refuses an asynchronous handler', () => {
    const { truth, a } = rig({
      onCredit: () => {
        throw new Error('killed');
      },
    });
    a.insert(10_000);
    assert.throws(() => a.poll(false), /killed/);
    assert.deepEqual(truth.owed, ['N1']);
    const later = rig({ onCredit: async () => undefined });
    later.a.insert(10_000);
    assert.throws(() => later.a.poll(false), FakeAcceptorError);
  });

  it('gives back a note left in escrow at power-up and at the escrow timeout, and takes none while inhibited', () => {
    const { truth, events, a } = rig({ onEscrow: () => 'return' });
    a.insert(10_000);
    assert.equal(truth.notes.get('N1')?.where, 'escrow');
    a.escrowTimeout();
    a.insert(20_000);
    a.start();
    assert.deepEqual(
      events.filter((e) => e.type === 'returned').map((e) => (e.type === 'returned' ? [e.note?.escrowId, e.reason] : [])),
      [
        ['N1', 'escrow-timeout'],
        ['N2', 'power-up'],
      ],
    );
    a.disable();
    assert.equal(a.insert(10_000), false);
    assert.equal(truth.notes.size, 2);
  });

  it('records each event before the truth changes: a record that fails (the kill inside the write) leaves the note where it was', () => {
    const recorded: NoteEvent[] = [];
    let fail = false;
    const { truth, a } = rig({}, (e) => {
      if (fail) throw new Error('killed inside the write');
      recorded.push(e);
    });
    a.insert(10_000);
    fail = true;
    assert.throws(() => a.poll(false), /killed inside the write/);
    assert.deepEqual(truth.owed, ['N1'], 'the acknowledgement never reached the record: still owed');
    assert.deepEqual(recorded, [
      { e: 'escrow', id: 'N1', amount: 10_000 },
      { e: 'stack', id: 'N1' },
    ]);
    // The record replayed gives the same truth.
    const again = acceptorTruth('BA-1');
    for (const e of recorded) applyNoteEvent(again, e);
    assert.deepEqual(again, truth);
  });

  it('refuses an event about a note never in escrow', () => {
    assert.throws(() => applyNoteEvent(acceptorTruth('BA-1'), { e: 'stack', id: 'N3' }), FakeAcceptorError);
  });
});

describe('the notes’ invariant', () => {
  it('finds a stacked note never credited, one credited twice and a credit with no note', () => {
    const t = acceptorTruth('BA-1');
    for (const e of [
      { e: 'escrow', id: 'N1', amount: 10_000 },
      { e: 'stack', id: 'N1' },
      { e: 'escrow', id: 'N2', amount: 50_000 },
      { e: 'stack', id: 'N2' },
      { e: 'escrow', id: 'N3', amount: 100_000 },
      { e: 'stack', id: 'N3' },
      { e: 'escrow', id: 'N4', amount: 20_000 },
      { e: 'return', id: 'N4' },
    ] satisfies NoteEvent[])
      applyNoteEvent(t, e);
    const violations: string[] = [];
    const credits = new Map([
      ['BA-1:N1:credit', 1],
      ['BA-1:N2:credit', 2],
      ['BA-1:N4:credit', 1],
    ]);
    assert.deepEqual(stackedCredited([t], credits, violations), { stacked: 3, stackedAmount: 160_000, lost: 1, duplicated: 2 });
    assert.deepEqual(violations, [
      'note N2 of BA-1 was credited 2 times',
      'note N3 of BA-1 is in the stacker and was never credited',
      'a credit with no stacked note: BA-1:N4:credit',
    ]);
    const clean: string[] = [];
    assert.equal(stackedCredited([t], new Map([1, 2, 3].map((n) => [`BA-1:N${n}:credit`, 1])), clean).lost, 0);
    assert.deepEqual(clean, []);
  });
});
