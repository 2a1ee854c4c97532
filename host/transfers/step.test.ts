import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TableId, type Transfer, type TransferEntry } from '../../terms/transfer-terms.js';
import { fold, initialState, outgoingOf, TransferJournalError, type TransferState } from './state.js';
import { step, type TransferEvent, type TransferStep } from './step.js';
import { MAX_OPEN_PER_STATION } from './sender.js';

// The transfer protocol's two sides, one step at a time, and the attacks a lying peer can make
// with the messages the protocol allows (docs/transfers.md). Written before the machine.

const HOME = TableId.parse('home');
const BACC = TableId.parse('baccarat');
const WAR = TableId.parse('war');
/** Stations 1, 3 and 4 are homed at HOME, 5 at WAR; every table has these four. */
const HOMES = { 1: HOME, 3: HOME, 4: HOME, 5: WAR };

class Host {
  state: TransferState;
  readonly journal: TransferEntry[] = [];
  constructor(
    readonly self: TableId,
    readonly currency = 'MOP',
  ) {
    this.state = initialState(self, currency, HOMES);
  }
  on(event: TransferEvent): TransferStep {
    const r = step(this.state, event);
    this.journal.push(...r.journal);
    this.state = r.state;
    return r;
  }
  /** Each station's credit here, as far as a test says (an offer must fit in it). */
  credit = new Map<number, number>();
  hear(link: TableId, message: unknown): TransferStep {
    return this.on({ kind: 'receive', link, message, credit: (s) => this.credit.get(s) ?? 0 });
  }
}

function started(home: Host, amount = 500, to = BACC): Transfer {
  const r = home.on({ kind: 'start', station: 3, to, amount, available: 1000 });
  const out = r.journal[0];
  assert.equal(out?.type, 'transfer.out');
  assert.ok(out.type === 'transfer.out');
  return out.payload.transfer;
}

describe('transfers: the sender', () => {
  it('journals the debit before it asks, with a typed id of its own', () => {
    const home = new Host(HOME);
    const r = home.on({ kind: 'start', station: 3, to: BACC, amount: 500, available: 1000 });
    assert.deepEqual(
      r.journal.map((e) => e.type),
      ['transfer.out'],
    );
    const t = started(home, 200);
    assert.deepEqual(t.id, { origin: HOME, serial: 2 });
    assert.deepEqual(r.send, [
      { to: BACC, message: { kind: 'offer', transfer: { id: { origin: HOME, serial: 1 }, currency: 'MOP', station: 3, from: HOME, to: BACC, amount: 500 } } },
    ]);
  });

  it('refuses a transfer above the credit, to itself, or of no amount, journalling nothing', () => {
    const home = new Host(HOME);
    assert.equal(home.on({ kind: 'start', station: 3, to: BACC, amount: 1001, available: 1000 }).refused, 'insufficient-credit');
    assert.equal(home.on({ kind: 'start', station: 3, to: HOME, amount: 1, available: 1000 }).refused, 'to-self');
    assert.equal(home.on({ kind: 'start', station: 3, to: BACC, amount: 0, available: 1000 }).refused, 'bad-amount');
    assert.equal(home.on({ kind: 'start', station: 3, to: BACC, amount: 1.5, available: 1000 }).refused, 'bad-amount');
    assert.deepEqual(home.journal, []);
  });

  it('never reverses on silence: a tick only asks again', () => {
    const home = new Host(HOME);
    const t = started(home);
    for (let i = 0; i < 5; i++) {
      const r = home.on({ kind: 'tick' });
      assert.deepEqual(r.journal, []);
      assert.deepEqual(r.send, [{ to: BACC, message: { kind: 'offer', transfer: t } }]);
    }
    assert.equal(outgoingOf(home.state, { origin: HOME, serial: 1 })?.phase, 'offering');
  });

  it('completes once on "taken" on its own terms; the same answer again changes nothing', () => {
    const home = new Host(HOME);
    const t = started(home);
    assert.deepEqual(
      home.hear(BACC, { kind: 'taken', transfer: t }).journal.map((e) => e.type),
      ['transfer.complete'],
    );
    const again = home.hear(BACC, { kind: 'taken', transfer: t });
    assert.deepEqual([again.journal, again.alarms], [[], []]);
    assert.deepEqual(home.on({ kind: 'tick' }).send, []);
  });
});

describe('transfers: the receiver', () => {
  it('credits an id once, journalled before it answers; asked again it answers from the journal', () => {
    const home = new Host(HOME);
    const bacc = new Host(BACC);
    const t = started(home);
    const first = bacc.hear(HOME, { kind: 'offer', transfer: t });
    assert.deepEqual(first.journal, [{ type: 'transfer.in', payload: { transfer: t } }]);
    assert.deepEqual(first.send, [{ to: HOME, message: { kind: 'taken', transfer: t } }]);
    for (let i = 0; i < 3; i++) {
      const again = bacc.hear(HOME, { kind: 'offer', transfer: t });
      assert.deepEqual(again.journal, []);
      assert.deepEqual(again.send, first.send);
    }
  });

  it('a recall that arrives first is a refusal for ever: the offer arriving later is refused, and the sender reverses once', () => {
    const home = new Host(HOME);
    const bacc = new Host(BACC);
    const t = started(home);
    const recall = home.on({ kind: 'recall', id: t.id });
    assert.deepEqual(recall.journal, [{ type: 'transfer.recall', payload: { id: t.id } }]);
    const refused = bacc.hear(HOME, recall.send[0]?.message);
    assert.deepEqual(refused.journal, [{ type: 'transfer.refuse', payload: { id: t.id, reason: 'recalled' } }]);
    // The delayed offer: never taken now.
    const late = bacc.hear(HOME, { kind: 'offer', transfer: t });
    assert.deepEqual(late.journal, []);
    assert.deepEqual(late.send, [{ to: HOME, message: { kind: 'refused', id: t.id, reason: 'recalled' } }]);
    const rev = home.hear(BACC, refused.send[0]?.message);
    assert.deepEqual(rev.journal, [{ type: 'transfer.reverse', payload: { transfer: t, reason: 'recalled' } }]);
    assert.deepEqual(home.hear(BACC, late.send[0]?.message).journal, []);
  });

  it('a recall after the credit was taken gets "taken": the transfer completes, never reversed', () => {
    const home = new Host(HOME);
    const bacc = new Host(BACC);
    const t = started(home);
    bacc.hear(HOME, { kind: 'offer', transfer: t });
    const recall = home.on({ kind: 'recall', id: t.id });
    const answer = bacc.hear(HOME, recall.send[0]?.message);
    assert.deepEqual(answer.journal, []);
    assert.deepEqual(
      home.hear(BACC, answer.send[0]?.message).journal.map((e) => e.type),
      ['transfer.complete'],
    );
  });

  it('refuses a transfer in another currency, for ever, and the sender gets its credit back', () => {
    const home = new Host(HOME, 'HKD');
    const bacc = new Host(BACC, 'MOP');
    const t = started(home);
    const r = bacc.hear(HOME, { kind: 'offer', transfer: t });
    assert.deepEqual(r.journal, [{ type: 'transfer.refuse', payload: { id: t.id, reason: 'wrong-currency', offered: t } }]);
    assert.deepEqual(
      r.alarms.map((a) => a.reason),
      ['wrong-currency'],
    );
    // The same id in the right currency later is still refused: the id was answered "never", and the other terms are an alarm.
    const again = bacc.hear(HOME, { kind: 'offer', transfer: { ...t, currency: 'MOP' } });
    assert.deepEqual([again.journal, again.send, again.alarms.map((a) => a.reason)], [[], r.send, ['terms-changed']]);
    assert.deepEqual(
      home.hear(BACC, r.send[0]?.message).journal.map((e) => e.type),
      ['transfer.reverse'],
    );
  });
});

describe('transfers: a receiver that lies', () => {
  it('"taken" for an id the sender never sent: an alarm, nothing journalled', () => {
    const home = new Host(HOME);
    started(home);
    const forged: Transfer = { id: { origin: HOME, serial: 9 }, currency: 'MOP', station: 3, from: HOME, to: BACC, amount: 500 };
    const r = home.hear(BACC, { kind: 'taken', transfer: forged });
    assert.deepEqual(r.journal, []);
    assert.deepEqual(
      r.alarms.map((a) => a.reason),
      ['unknown-transfer'],
    );
  });

  it('"taken" on another amount, currency or station: an alarm, and the transfer stays open', () => {
    const home = new Host(HOME);
    const t = started(home);
    const lies = [{ amount: 50 }, { currency: 'HKD' }, { station: 4 }, { to: WAR }];
    for (const [i, lie] of lies.entries()) {
      const r = home.hear(BACC, { kind: 'taken', transfer: { ...t, ...lie } });
      // The first is journalled in the step (it marks the transfer disputed); the others are alarms only.
      assert.deepEqual(
        r.journal.map((e) => e.type),
        i === 0 ? ['transfer.alarm'] : [],
        JSON.stringify(lie),
      );
      assert.deepEqual(
        r.alarms.map((a) => a.reason),
        ['terms-mismatch'],
      );
    }
    const o = outgoingOf(home.state, t.id);
    assert.equal(o?.phase, 'offering');
    assert.deepEqual(o.disputed, { ...t, amount: 50 });
  });

  it('a transfer disputed ("taken" on other terms) is asked about no more, the same lie again changes nothing, and its fold is the same', () => {
    const home = new Host(HOME);
    const t = started(home);
    const lie = { kind: 'taken', transfer: { ...t, amount: 1 } };
    const first = home.hear(BACC, lie);
    assert.deepEqual(
      first.alarms.map((a) => [a.reason, a.journalled]),
      [['terms-mismatch', true]],
    );
    assert.deepEqual(home.on({ kind: 'tick' }).send, []);
    assert.deepEqual(home.hear(BACC, lie), { journal: [], send: [], alarms: [], state: home.state });
    // The host's own recall still goes out once (journalled); the lie in answer changes nothing.
    assert.equal(home.on({ kind: 'recall', id: t.id }).send.length, 1);
    assert.deepEqual(home.hear(BACC, lie).journal, []);
    assert.deepEqual(home.on({ kind: 'tick' }).send, []);
    assert.deepEqual(fold(HOME, 'MOP', HOMES, home.journal), home.state);
    // Its receiver's own word still closes it: "taken" on the debit's terms.
    assert.deepEqual(
      home.hear(BACC, { kind: 'taken', transfer: t }).journal.map((e) => e.type),
      ['transfer.complete'],
    );
  });

  it('an answer over another link than the receiver’s: an alarm, nothing journalled', () => {
    const home = new Host(HOME);
    const t = started(home);
    for (const m of [
      { kind: 'taken', transfer: t },
      { kind: 'refused', id: t.id, reason: 'recalled' },
    ]) {
      const r = home.hear(WAR, m);
      assert.deepEqual(r.journal, []);
      assert.deepEqual(
        r.alarms.map((a) => a.reason),
        ['wrong-peer'],
      );
    }
  });

  it('"never took it" after "taken" (and the reverse): the first answer stands, the second is an alarm', () => {
    const home = new Host(HOME);
    const t = started(home);
    home.hear(BACC, { kind: 'taken', transfer: t });
    const lie = home.hear(BACC, { kind: 'refused', id: t.id, reason: 'recalled' });
    assert.deepEqual([lie.journal, lie.alarms.map((a) => a.reason)], [[], ['contradiction']]);
    const u = started(home, 100);
    home.hear(BACC, { kind: 'refused', id: u.id, reason: 'recalled' });
    const lie2 = home.hear(BACC, { kind: 'taken', transfer: u });
    assert.deepEqual([lie2.journal, lie2.alarms.map((a) => a.reason)], [[], ['contradiction']]);
  });

  it('malformed answers (a float amount, an id as a string, an unknown kind) are alarms, not crashes', () => {
    const home = new Host(HOME);
    const t = started(home);
    for (const m of [
      { kind: 'taken', transfer: { ...t, amount: 500.5 } },
      { kind: 'taken', transfer: { ...t, id: 'home#1' } },
      { kind: 'refused', id: t.id, reason: 'because' },
      { kind: 'taken', transfer: t, extra: 1 },
      { kind: 'nope' },
      null,
      'taken',
    ]) {
      const r = home.hear(BACC, m);
      assert.deepEqual(r.journal, [], JSON.stringify(m));
      assert.deepEqual(
        r.alarms.map((a) => a.reason),
        ['malformed'],
      );
    }
  });
});

describe('transfers: a sender that lies', () => {
  it('an id of another host’s, offered or recalled over this link: an alarm, nothing journalled, so no third host can spend or spoil another’s transfer', () => {
    const bacc = new Host(BACC);
    const t: Transfer = { id: { origin: HOME, serial: 1 }, currency: 'MOP', station: 3, from: HOME, to: BACC, amount: 500 };
    for (const m of [
      { kind: 'offer', transfer: t },
      { kind: 'offer', transfer: { ...t, from: WAR } },
      { kind: 'recall', id: t.id },
    ]) {
      const r = bacc.hear(WAR, m);
      assert.deepEqual([r.journal, r.send], [[], []]);
      assert.deepEqual(
        r.alarms.map((a) => a.reason),
        ['wrong-link'],
      );
    }
    // The real offer is still taken.
    assert.deepEqual(
      bacc.hear(HOME, { kind: 'offer', transfer: t }).journal.map((e) => e.type),
      ['transfer.in'],
    );
  });

  it('an id taken offered again for more: no second credit, the terms taken are answered, an alarm', () => {
    const bacc = new Host(BACC);
    const t: Transfer = { id: { origin: HOME, serial: 1 }, currency: 'MOP', station: 3, from: HOME, to: BACC, amount: 500 };
    bacc.hear(HOME, { kind: 'offer', transfer: t });
    const r = bacc.hear(HOME, { kind: 'offer', transfer: { ...t, amount: 5000 } });
    assert.deepEqual(r.journal, []);
    assert.deepEqual(r.send, [{ to: HOME, message: { kind: 'taken', transfer: t } }]);
    assert.deepEqual(
      r.alarms.map((a) => a.reason),
      ['terms-changed'],
    );
  });

  it('an offer naming another receiver: an alarm, not taken', () => {
    const bacc = new Host(BACC);
    const t: Transfer = { id: { origin: HOME, serial: 1 }, currency: 'MOP', station: 3, from: HOME, to: WAR, amount: 500 };
    const r = bacc.hear(HOME, { kind: 'offer', transfer: t });
    assert.deepEqual([r.journal, r.alarms.map((a) => a.reason)], [[], ['not-for-us']]);
  });
});

describe('transfers: a sender that offers a station not its to move', () => {
  const offer = (over: Partial<Transfer>): Transfer => ({
    id: { origin: HOME, serial: 1 },
    currency: 'MOP',
    station: 3,
    from: HOME,
    to: BACC,
    amount: 500,
    ...over,
  });
  const refusedWith = (r: TransferStep, t: Transfer, reason: string) => {
    assert.deepEqual(r.journal, [{ type: 'transfer.refuse', payload: { id: t.id, reason, offered: t } }]);
    assert.deepEqual(r.send, [{ to: t.from, message: { kind: 'refused', id: t.id, reason } }]);
    assert.deepEqual(
      r.alarms.map((a) => [a.reason, a.link]),
      [[reason, t.from]],
    );
  };

  it('a station homed at a third table: refused for ever, journalled, answered, an alarm', () => {
    const bacc = new Host(BACC);
    const t = offer({ station: 5 });
    refusedWith(bacc.hear(HOME, { kind: 'offer', transfer: t }), t, 'homed-elsewhere');
    // Offered again, answered from the journal.
    assert.deepEqual(bacc.hear(HOME, { kind: 'offer', transfer: t }).journal, []);
  });

  it('a station this table does not have (a seated number, a remote one not here): unknown-station', () => {
    const bacc = new Host(BACC);
    for (const [serial, station] of [
      [1, 2],
      [2, 150],
    ] as const) {
      const t = offer({ id: { origin: HOME, serial }, station });
      refusedWith(bacc.hear(HOME, { kind: 'offer', transfer: t }), t, 'unknown-station');
    }
  });

  it('a station homed here comes home only from a table this one sent it to', () => {
    const home = new Host(HOME);
    const back = (serial: number): Transfer => ({ id: { origin: BACC, serial }, currency: 'MOP', station: 3, from: BACC, to: HOME, amount: 900 });
    refusedWith(home.hear(BACC, { kind: 'offer', transfer: back(1) }), back(1), 'never-sent-there');
    // Sent to war: still nothing of it at baccarat.
    started(home, 100, WAR);
    refusedWith(home.hear(BACC, { kind: 'offer', transfer: back(2) }), back(2), 'never-sent-there');
    started(home, 100, BACC);
    assert.deepEqual(
      home.hear(BACC, { kind: 'offer', transfer: back(3) }).journal.map((e) => e.type),
      ['transfer.in'],
    );
    // After a restart too: the pairs sent are the journal's.
    assert.deepEqual(fold(HOME, 'MOP', HOMES, home.journal), home.state);
  });

  it('an amount the credit cannot hold: over-limit', () => {
    const bacc = new Host(BACC);
    bacc.credit.set(3, 10);
    const t = offer({ amount: Number.MAX_SAFE_INTEGER - 9 });
    refusedWith(bacc.hear(HOME, { kind: 'offer', transfer: t }), t, 'over-limit');
    const fits = offer({ id: { origin: HOME, serial: 2 }, amount: Number.MAX_SAFE_INTEGER - 10 });
    assert.deepEqual(
      bacc.hear(HOME, { kind: 'offer', transfer: fits }).journal.map((e) => e.type),
      ['transfer.in'],
    );
  });

  it('an honest sender never starts what its peer would refuse: an unknown station, or a station away from home sent elsewhere than home', () => {
    const bacc = new Host(BACC);
    assert.equal(bacc.on({ kind: 'start', station: 2, to: HOME, amount: 1, available: 10 }).refused, 'unknown-station');
    assert.equal(bacc.on({ kind: 'start', station: 3, to: WAR, amount: 1, available: 10 }).refused, 'away-to-away');
    assert.equal(bacc.on({ kind: 'start', station: 3, to: HOME, amount: 1, available: 10 }).refused, undefined);
    assert.deepEqual(
      bacc.journal.map((e) => e.type),
      ['transfer.out'],
    );
  });
});

describe('transfers: the journal is the state', () => {
  it('a host started again from its journal is where it was, and asks again about every open transfer', () => {
    const home = new Host(HOME);
    const bacc = new Host(BACC);
    const a = started(home, 100);
    const b = started(home, 200);
    started(home, 300);
    home.hear(BACC, bacc.hear(HOME, { kind: 'offer', transfer: a }).send[0]?.message);
    home.on({ kind: 'recall', id: b.id });
    const again = fold(HOME, 'MOP', HOMES, home.journal);
    assert.deepEqual(again, home.state);
    assert.deepEqual(fold(BACC, 'MOP', HOMES, bacc.journal), bacc.state);
    assert.deepEqual(
      step(again, { kind: 'tick' }).send.map((s) => s.message.kind),
      ['recall', 'offer'],
    );
    // Ids are never reused after a restart.
    assert.deepEqual(step(again, { kind: 'start', station: 1, to: BACC, amount: 1, available: 1 }).state.lastSerial, 4);
  });

  it('refuses to fold a journal this code could not have written', () => {
    const t: Transfer = { id: { origin: HOME, serial: 1 }, currency: 'MOP', station: 3, from: HOME, to: BACC, amount: 500 };
    assert.throws(() => fold(HOME, 'MOP', HOMES, [{ type: 'transfer.complete', payload: { transfer: t } }]), TransferJournalError);
    assert.throws(
      () =>
        fold(BACC, 'MOP', HOMES, [
          { type: 'transfer.in', payload: { transfer: t } },
          { type: 'transfer.refuse', payload: { id: t.id, reason: 'recalled' } },
        ]),
      TransferJournalError,
    );
    assert.throws(
      () =>
        fold(HOME, 'MOP', HOMES, [
          { type: 'transfer.out', payload: { transfer: t } },
          { type: 'transfer.reverse', payload: { transfer: t, reason: 'recalled' } },
          { type: 'transfer.complete', payload: { transfer: t } },
        ]),
      TransferJournalError,
    );
  });
});

describe('transfers: two people settle what no answer will close', () => {
  const BY = ['ana', 'rui'] as const;
  const settled = { by: [...BY] as [string, string], reference: 'INC-2026-114' };

  it('a disputed transfer: settled as completed or reversed, journalled with both names, and closed as the receiver’s answer would', () => {
    for (const as of ['completed', 'reversed'] as const) {
      const home = new Host(HOME);
      const t = started(home);
      home.hear(BACC, { kind: 'taken', transfer: { ...t, amount: 1 } });
      const r = home.on({ kind: 'settle', id: t.id, as, settled, receiverAnswers: true });
      assert.equal(r.settleRefused, undefined);
      assert.deepEqual(r.journal, [
        as === 'completed' ? { type: 'transfer.complete', payload: { transfer: t, settled } } : { type: 'transfer.reverse', payload: { transfer: t, settled } },
      ]);
      assert.deepEqual(r.send, []);
      assert.equal(outgoingOf(home.state, t.id)?.phase, as);
      assert.deepEqual(fold(HOME, 'MOP', HOMES, home.journal), home.state);
      // The receiver's word afterwards, whichever it is, changes nothing: a contradiction is an alarm.
      const late = home.hear(BACC, as === 'completed' ? { kind: 'refused', id: t.id, reason: 'recalled' } : { kind: 'taken', transfer: t });
      assert.deepEqual([late.journal, late.alarms.map((a) => a.reason)], [[], ['contradiction']]);
    }
  });

  it('an open transfer whose receiver can still answer is refused (recall it and wait); one whose receiver cannot is settled', () => {
    const home = new Host(HOME);
    const t = started(home);
    const asked = { kind: 'settle', id: t.id, as: 'reversed', settled } as const;
    const r = home.on({ ...asked, receiverAnswers: true });
    assert.deepEqual([r.settleRefused, r.journal], ['receiver-answers', []]);
    home.on({ kind: 'recall', id: t.id });
    assert.equal(home.on({ ...asked, receiverAnswers: true }).settleRefused, 'receiver-answers');
    assert.deepEqual(
      home.on({ ...asked, receiverAnswers: false }).journal.map((e) => e.type),
      ['transfer.reverse'],
    );
    // Once closed, no second settlement: the journal has its closing.
    assert.equal(home.on({ ...asked, receiverAnswers: false }).settleRefused, 'closed');
  });

  it('refuses an id this host never sent, and one it took as a receiver', () => {
    const bacc = new Host(BACC);
    const t: Transfer = { id: { origin: HOME, serial: 1 }, currency: 'MOP', station: 3, from: HOME, to: BACC, amount: 500 };
    bacc.hear(HOME, { kind: 'offer', transfer: t });
    for (const id of [t.id, { origin: BACC, serial: 9 }]) {
      const r = bacc.on({ kind: 'settle', id, as: 'completed', settled, receiverAnswers: false });
      assert.deepEqual([r.settleRefused, r.journal], ['unknown-transfer', []]);
    }
  });
});

describe('transfers: a station’s moves under way at once', () => {
  it('are at most MAX_OPEN_PER_STATION: a screen sending many small moves to a peer that does not answer is refused past them, journalling nothing', () => {
    const home = new Host(HOME);
    for (let i = 0; i < MAX_OPEN_PER_STATION; i++) started(home, 1);
    const before = home.journal.length;
    assert.equal(home.on({ kind: 'start', station: 3, to: BACC, amount: 1, available: 1000 }).refused, 'too-many-open');
    assert.equal(home.on({ kind: 'start', station: 3, to: WAR, amount: 1, available: 1000 }).refused, 'too-many-open', 'to any peer');
    assert.equal(home.journal.length, before, 'nothing journalled');
    // Another station's moves are its own.
    assert.equal(home.on({ kind: 'start', station: 4, to: BACC, amount: 1, available: 1000 }).refused, undefined);
    // One closed (taken on its terms), and the station may move again.
    const first = outgoingOf(home.state, { origin: HOME, serial: 1 });
    assert.ok(first);
    assert.deepEqual(
      home.hear(BACC, { kind: 'taken', transfer: first.transfer }).journal.map((e) => e.type),
      ['transfer.complete'],
    );
    assert.equal(home.on({ kind: 'start', station: 3, to: BACC, amount: 1, available: 1000 }).refused, undefined);
  });
});
