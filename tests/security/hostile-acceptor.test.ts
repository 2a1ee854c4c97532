// A hostile or faulty bill acceptor (issue 28 item 3): each lie a device can tell, scripted at the
// byte level against the real ID-003 and SSP drivers (tests/fuzz/hostile-acceptor.ts: the honest
// simulator's mechanism, which decides where the note physically goes, behind lying firmware). A
// lie is never a credit: the driver reports a `protocolViolation` (the host raises the station's
// cheat fault and journals it) and credits nothing for the note it concerns. The first two ID-003
// cases are the issue's own. The drivers' model-based fuzz (tests/fuzz/drivers.ts) draws these
// lies and more at random.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CMD as ID003, STATUS } from '../../hardware/billacceptor/id003/constants.js';
import { acceptorRig, untilEnabled as acceptorEnabled, type AcceptorRig } from '../../hardware/billacceptor/acceptor-rig.js';
import { Id003Simulator } from '../../hardware/billacceptor/id003/simulator.js';
import { EVENT } from '../../hardware/billacceptor/ssp/constants.js';
import type { BillAcceptorEvent, ViolationRule } from '../../hardware/billacceptor/types.js';
import { driverRig, insert, settled, untilEnabled, type DriverRig } from '../fuzz/driver-rig.js';
import { runDriverScript } from '../fuzz/drivers.js';
import { HostileId003, HostileSsp } from '../fuzz/hostile-acceptor.js';

/** HKD escrow codes (0x61… in the currency-assign order 10, 20, 50, 100, 500, 1000) and SSP channels (1…). */
const ESCROW_100 = 0x64;
const ESCROW_1000 = 0x66;
const CHANNEL_100 = 4;
const CHANNEL_500 = 5;
const CHANNEL_1000 = 6;

type Violation = Extract<BillAcceptorEvent, { type: 'protocolViolation' }>;
const violations = (r: DriverRig): Violation[] => r.events.filter((e): e is Violation => e.type === 'protocolViolation');

function id003(r: DriverRig): HostileId003 {
  assert.ok(r.hostile instanceof HostileId003);
  return r.hostile;
}
function ssp(r: DriverRig): HostileSsp {
  assert.ok(r.hostile instanceof HostileSsp);
  return r.hostile;
}

/** Runs until every note has physically settled and a little longer; closes the driver. */
async function finish(r: DriverRig): Promise<void> {
  try {
    assert.ok(
      await r.time.runUntil(() => settled(r), 20_000),
      `notes did not settle: cashbox [${r.sim.cashbox.join(',')}], returned [${r.sim.returned.join(',')}]`,
    );
    await r.time.runFor(3_000);
  } finally {
    await r.driver.close();
  }
}

/** The lie was caught: one violation of this rule (naming the note, if given), and nothing credited for it. */
function caught(r: DriverRig, rule: ViolationRule, face?: number): void {
  const v = violations(r);
  assert.deepEqual(
    v.map((e) => e.rule),
    [rule],
    `violations: ${JSON.stringify(v)}; events: ${r.events.map((e) => e.type).join(', ')}`,
  );
  if (face !== undefined) assert.equal(v[0]?.note?.denomination, face);
  assert.ok(v[0]?.report, 'the violation says what the device reported');
}

describe('a hostile ID-003 acceptor (issue 28)', () => {
  it('RETURN refused with INVALID COMMAND, then VEND VALID: no credit, a credit-after-return violation (the issue’s case)', async () => {
    // The table takes no 1000 note; the unit escrows it anyway, refuses RETURN and stacks it.
    const r = driverRig('id003', { accept: [10, 20, 50, 100, 500] });
    id003(r).tell({ kind: 'ignore-inhibits' });
    id003(r).tell({ kind: 'return-as-stack', answer: 'invalid' });
    assert.ok(await untilEnabled(r));
    insert(r, 1000, 'stack');
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'credit-after-return', 1000);
    assert.deepEqual(r.sim.cashbox, [1000], 'the unit stacked it: the cheat fault tells the supervisor');
    assert.ok(!r.events.some((e) => e.type === 'unvaluedCredit'));
  });

  it('an escrow of 100 told STACK, then reported as 1000: escrow-changed, nothing credited, the 100 not said returned (the issue’s case)', async () => {
    const r = driverRig('id003');
    id003(r).afterCommand(ID003.STACK_1, { kind: 'status', code: STATUS.ESCROW, data: [ESCROW_1000] });
    assert.ok(await untilEnabled(r));
    insert(r, 100);
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'escrow-changed', 100);
    assert.deepEqual(
      r.events.filter((e) => e.type === 'escrowed').map((e) => e.note.denomination),
      [100],
      'no escrow of a 1000 note',
    );
    assert.ok(!r.events.some((e) => e.type === 'returned'));
    assert.deepEqual(r.sim.cashbox, [100]);
  });

  it('VEND VALID with no note in escrow: acknowledged, nothing credited, credit-without-escrow', async () => {
    const r = driverRig('id003');
    assert.ok(await untilEnabled(r));
    id003(r).tell({ kind: 'status', code: STATUS.VEND_VALID });
    await r.time.runFor(500);
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'credit-without-escrow');
    assert.ok(
      id003(r).sim.received.some((f) => f.code === ID003.ACK),
      'VEND VALID is acknowledged (or it repeats for ever)',
    );
  });

  it('VEND VALID again after the note was credited and stacked: one credit, credit-repeated', async () => {
    const r = driverRig('id003');
    id003(r).afterReport(STATUS.STACKED, { kind: 'status', code: STATUS.ENABLE }, { kind: 'status', code: STATUS.VEND_VALID });
    assert.ok(await untilEnabled(r));
    insert(r, 500);
    await finish(r);
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [500],
    );
    caught(r, 'credit-repeated', 500);
  });

  it('the credited note reported in escrow again: one credit, credit-repeated, the "new" note given back', async () => {
    const r = driverRig('id003');
    // Told although the unit holds no note then: after a credit, with no report lost, the driver sees through it.
    id003(r).afterCommand(ID003.ACK, { kind: 'status', code: STATUS.ESCROW, data: [ESCROW_100], unchecked: true });
    assert.ok(await untilEnabled(r));
    insert(r, 100);
    await finish(r);
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [100],
    );
    caught(r, 'credit-repeated', 100);
    assert.equal(r.events.filter((e) => e.type === 'escrowed').length, 1);
  });

  // A unit that answers STACK with INVALID COMMAND and stacks all the same says nothing a lossy
  // wire cannot: a STACK duplicated on the wire, its ACK lost, gets INVALID COMMAND for the copy
  // (hostile campaign seeds 2402 and 2211, no lie told). The host told it to stack this note and it
  // is in the cashbox: it is credited. The driver used to call it credit-without-stack, a false cheat
  // on an honest unit whenever the wire did that, and the note uncredited.
  it('STACK answered INVALID COMMAND yet carried out: the note the host told to stack is credited, the cashbox holds it, no violation', async () => {
    const r = driverRig('id003');
    id003(r).tell({ kind: 'refuse', command: 'stack', execute: true });
    assert.ok(await untilEnabled(r));
    insert(r, 50);
    await finish(r);
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [50],
    );
    assert.deepEqual(violations(r), []);
    assert.deepEqual(r.sim.cashbox, [50]);
  });

  it('STACK answered INVALID COMMAND and not carried out: the note still in escrow is told STACK again, then credited', async () => {
    const r = driverRig('id003');
    id003(r).tell({ kind: 'refuse', command: 'stack', execute: false });
    assert.ok(await untilEnabled(r));
    insert(r, 50);
    await finish(r);
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [50],
    );
    assert.deepEqual(violations(r), []);
    // The refused STACK never reached the mechanism: the one it took is the driver's second.
    assert.equal(id003(r).sim.received.filter((f) => f.code === ID003.STACK_1).length, 1);
    assert.deepEqual(r.sim.cashbox, [50]);
  });

  it('the note told to stack vanishes (idle with no VEND VALID): note-vanished, nothing credited', async () => {
    const r = driverRig('id003');
    id003(r).afterCommand(ID003.STACK_1, { kind: 'status', code: STATUS.ENABLE });
    assert.ok(await untilEnabled(r));
    insert(r, 20);
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'note-vanished', 20);
  });

  it('replies lost after a credit, then the next note in escrow: the credited note is never said returned', async () => {
    // An honest unit on a lossy wire: the replies after the VEND VALID's ACK are lost (STACKED, the
    // idle state and ACCEPTING go unseen), and the next report is the second note's ESCROW. The
    // first note is in the cashbox and credited; "returned" would say it went back to the player.
    const r = driverRig('id003');
    id003(r).afterReport(STATUS.VEND_VALID, { kind: 'mute' }, { kind: 'mute' }, { kind: 'mute' }, { kind: 'mute' });
    assert.ok(await untilEnabled(r));
    insert(r, 100);
    insert(r, 20);
    await finish(r);
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [100, 20],
    );
    assert.deepEqual(violations(r), []);
    const credited = new Set(r.credits.map((c) => c.escrowId));
    assert.deepEqual(
      r.events.filter((e) => e.type === 'returned' && e.note && credited.has(e.note.escrowId)),
      [],
      'a credited note said returned',
    );
  });

  it('STACKING for longer than the stack timeout (the unit never reaches its credit point): note-vanished, nothing credited', async () => {
    // A unit told to stack says STACKING at every poll and never VEND VALID, nor a jam or a return:
    // the player's note taken, no credit and no alarm, the acceptor stuck for as long as it lies.
    // After stackTimeoutMs (the rig's 2 s) the note is held for a person, as SSP's quiet polls are.
    const r = driverRig('id003');
    const stacking = Array.from({ length: 250 }, () => ({ kind: 'status' as const, code: STATUS.STACKING, unchecked: true as const }));
    id003(r).afterCommand(ID003.STACK_1, ...stacking);
    assert.ok(await untilEnabled(r));
    insert(r, 500);
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'note-vanished', 500);
    assert.ok(!r.events.some((e) => e.type === 'returned'), 'a note told to stack is not said returned');
  });

  it('a ticket told to stack, then STACKING past the stack timeout: note-vanished for the ticket, the host never told it stacked', async () => {
    const stacked: string[] = [];
    const r = driverRig('id003', { currency: 'MOP', onTicket: () => 'stack', onTicketStacked: (t) => void stacked.push(t.validationNumber) });
    const stacking = Array.from({ length: 250 }, () => ({ kind: 'status' as const, code: STATUS.STACKING, unchecked: true as const }));
    id003(r).afterCommand(ID003.STACK_1, ...stacking);
    assert.ok(await untilEnabled(r));
    assert.ok(r.sim instanceof Id003Simulator);
    r.sim.insertTicket('123456789012345678');
    await r.time.runFor(8_000);
    await r.driver.close();
    assert.deepEqual(stacked, []);
    assert.deepEqual(
      violations(r).map((v) => [v.rule, v.ticket?.validationNumber]),
      [['note-vanished', '123456789012345678']],
    );
  });

  it('RETURN refused again and again, the note kept in escrow past the stack timeout: return-refused, nothing credited', async () => {
    // The player's note stays in the unit's escrow, neither credited nor given back, for as long as
    // the unit refuses: no report a technician would see. After stackTimeoutMs it is held for a person.
    const r = driverRig('id003');
    for (let i = 0; i < 400; i++) id003(r).tell({ kind: 'refuse', command: 'return', execute: false });
    assert.ok(await untilEnabled(r));
    insert(r, 100, 'return');
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'return-refused', 100);
    assert.deepEqual(r.sim.returned, [100], 'given back once the unit takes RETURN');
  });

  it('POWER UP (no bill anywhere) while the note told to stack is stacking: note-vanished, never said returned (a reset mid-stack)', async () => {
    // The note goes on into the cashbox (the RESET finds it past the point of no return); the unit
    // says it holds no note. Said returned, the journal would close the escrow as given back and the
    // cashbox would hold a note no entry accounts for: a player's note gone without an alarm.
    const r = driverRig('id003');
    id003(r).afterReport(STATUS.STACKING, { kind: 'status', code: STATUS.POWER_UP, unchecked: true });
    assert.ok(await untilEnabled(r));
    insert(r, 500);
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'note-vanished', 500);
    assert.ok(!r.events.some((e) => e.type === 'returned'), 'a note told to stack is not taken back on the unit’s word');
    assert.deepEqual(r.sim.cashbox, [500]);
  });

  it('POWER UP WITH BILL IN STACKER for a note the host told to go back: credit-after-return, nothing credited', async () => {
    const r = driverRig('id003');
    id003(r).afterCommand(ID003.RETURN, { kind: 'status', code: STATUS.POWER_UP_BILL_IN_STACKER });
    assert.ok(await untilEnabled(r));
    insert(r, 100, 'return');
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'credit-after-return', 100);
    assert.deepEqual(r.sim.returned, [100]);
  });

  it('an escrow code outside the currency table is rejected and given back, never credited', async () => {
    const r = driverRig('id003');
    assert.ok(await untilEnabled(r));
    id003(r).tell({ kind: 'status', code: STATUS.ESCROW, data: [0x6e] });
    await r.time.runFor(500);
    await finish(r);
    assert.deepEqual(r.credits, []);
    assert.ok(r.events.some((e) => e.type === 'rejected' && e.code === 0x6e));
    assert.ok(id003(r).sim.received.some((f) => f.code === ID003.RETURN));
  });

  it('the ticket code 0x6F with no barcode, at a table that takes no tickets: refused as a ticket and given back, never credited', async () => {
    // Before issue 47 every 0x6F was an unknown escrow code; a ticket is now its own event (tests/security/hostile-acceptor-tickets.test.ts).
    const r = driverRig('id003');
    assert.ok(await untilEnabled(r));
    id003(r).tell({ kind: 'status', code: STATUS.ESCROW, data: [0x6f] });
    await r.time.runFor(500);
    await finish(r);
    assert.deepEqual(r.credits, []);
    assert.ok(r.events.some((e) => e.type === 'ticketRefused' && e.reason === 'tickets-off'));
    assert.ok(!r.events.some((e) => e.type === 'ticketEscrowed' || e.type === 'ticketStacked'));
    assert.ok(id003(r).sim.received.some((f) => f.code === ID003.RETURN));
  });

  // 4-byte currency-assign blocks [code, country 0x59, base, exponent] of the unit's own table, 10 … 1000.
  const ASSIGN = [0x61, 0x59, 1, 1, 0x62, 0x59, 2, 1, 0x63, 0x59, 5, 1, 0x64, 0x59, 1, 2, 0x65, 0x59, 5, 2, 0x66, 0x59, 1, 3];

  it('a code left out of the currency-assign table is inhibited at the unit: its note never reaches escrow', async () => {
    const r = driverRig('id003');
    id003(r).tell({ kind: 'currency-assign', blocks: ASSIGN.slice(4) }); // no 0x61 (the 10 note's code)
    assert.ok(await untilEnabled(r));
    insert(r, 10, 'return');
    await finish(r);
    assert.deepEqual(r.credits, []);
    assert.deepEqual(
      r.events.filter((e) => e.type === 'escrowed' || e.type === 'rejected').map((e) => (e.type === 'rejected' ? e.reason : e.type)),
      ['inhibited denomination'],
      'the unit itself refused it',
    );
    assert.deepEqual(r.sim.returned, [10]);
  });

  it('a code valued at no note of the currency (50,000), the inhibits ignored: that code is unknown, its note given back, never escrowed at that value', async () => {
    const r = driverRig('id003');
    id003(r).tell({ kind: 'currency-assign', blocks: [0x61, 0x59, 5, 4, ...ASSIGN.slice(4)] });
    id003(r).tell({ kind: 'ignore-inhibits' });
    assert.ok(await untilEnabled(r));
    insert(r, 10, 'return');
    await finish(r);
    assert.deepEqual(r.credits, []);
    assert.deepEqual(
      r.events.filter((e) => e.type === 'escrowed').map((e) => e.note.denomination),
      [],
      'no escrow journalled at a value no note has',
    );
    assert.ok(r.events.some((e) => e.type === 'rejected' && e.code === 0x61));
    assert.ok(id003(r).sim.received.some((f) => f.code === ID003.RETURN));
    assert.deepEqual(r.sim.returned, [10]);
  });
  it('a currency-assign table that changes after a power-up (0x61, the 10 note, now 1000): nothing credited at 1000, dataset-changed', async () => {
    const r = driverRig('id003');
    assert.ok(await untilEnabled(r));
    // The unit says POWER UP; the driver resets and configures it again, reading the table again.
    id003(r).tell({ kind: 'currency-assign', blocks: [0x61, 0x59, 1, 3, ...ASSIGN.slice(4)] });
    id003(r).tell({ kind: 'status', code: STATUS.POWER_UP });
    await r.time.runUntil(() => id003(r).queued === 0, 5_000);
    assert.equal(id003(r).queued, 0, 'both lies told');
    insert(r, 10);
    await finish(r);
    assert.deepEqual(r.credits, [], 'the driver before credited 1000 for the 10 note');
    caught(r, 'dataset-changed');
    assert.deepEqual(r.sim.cashbox, []);
    assert.deepEqual(r.sim.returned, [10]);
  });

  it('the same currency-assign table read again after a power-up: no violation, the note credited at its value', async () => {
    const r = driverRig('id003');
    assert.ok(await untilEnabled(r));
    id003(r).tell({ kind: 'currency-assign', blocks: ASSIGN });
    id003(r).tell({ kind: 'status', code: STATUS.POWER_UP });
    await r.time.runUntil(() => id003(r).queued === 0, 5_000);
    insert(r, 100);
    await finish(r);
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [100],
    );
    assert.deepEqual(violations(r), []);
  });
});

describe('a hostile SSP validator (issue 28)', () => {
  it('REJECT refused, so the next POLL takes the note and the validator credits it: no credit, credit-after-return', async () => {
    const r = driverRig('ssp', { accept: [10, 20, 50, 100, 500] });
    ssp(r).tell({ kind: 'ignore-inhibits' });
    ssp(r).tell({ kind: 'refuse', command: 'reject', execute: false });
    assert.ok(await untilEnabled(r));
    insert(r, 1000, 'stack');
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'credit-after-return', 1000);
    assert.deepEqual(r.sim.cashbox, [1000]);
  });

  it('READ and NOTE CREDIT of a 500 in one reply: credit-without-stack, nothing credited, the note not credited and given back (found by the hostile fuzz, seed 505)', async () => {
    // The host tells the note to stack while that reply is being read; only the next POLL takes
    // it, so a credit in the same reply is the validator's own doing. The lie is offered at every
    // POLL from the insertion on and told (see the hostile device's rule) at the first one whose
    // true reply has the note in escrow.
    const r = driverRig('ssp');
    assert.ok(await untilEnabled(r));
    insert(r, 500);
    for (let i = 0; i < 40; i++) ssp(r).tell({ kind: 'events', events: [EVENT.READ, CHANNEL_500, EVENT.CREDIT, CHANNEL_500] });
    await finish(r);
    assert.deepEqual(r.credits, [], 'the driver before credited it, and the note then went back');
    caught(r, 'credit-without-stack', 500);
    assert.deepEqual(r.sim.returned, [500]);
    assert.deepEqual(r.sim.cashbox, []);
  });

  it('a POLL reply with an event no driver can size hides the NOTE CREDIT after it: unreadable-report, a violation (the driver before said only a failure; found by the hostile fuzz, seeds 501–503)', async () => {
    const r = driverRig('ssp');
    ssp(r).afterReport(EVENT.STACKING, { kind: 'events', events: [0x99] });
    assert.ok(await untilEnabled(r));
    insert(r, 100);
    await finish(r);
    assert.deepEqual(r.sim.cashbox, [100]);
    // The validator here says its credit again in a later reply, which the table still judges.
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [100],
    );
    caught(r, 'unreadable-report');
  });

  it('READ of a 100 taken to the stacker, then READ of a 1000: escrow-changed, nothing credited', async () => {
    const r = driverRig('ssp');
    ssp(r).afterReport(EVENT.READ, { kind: 'events', events: [EVENT.READ, CHANNEL_1000] });
    assert.ok(await untilEnabled(r));
    insert(r, 100);
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'escrow-changed', 100);
    assert.deepEqual(r.sim.cashbox, [100]);
  });

  it('NOTE CREDIT with no note read: credit-without-escrow, nothing credited (it used to be valued by its channel and credited)', async () => {
    const r = driverRig('ssp');
    assert.ok(await untilEnabled(r));
    ssp(r).tell({ kind: 'events', events: [EVENT.CREDIT, CHANNEL_1000, EVENT.STACKED] });
    await r.time.runFor(500);
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'credit-without-escrow');
  });

  it('NOTE CREDIT again in the next reply for the same note: one credit, credit-repeated', async () => {
    const r = driverRig('ssp');
    ssp(r).afterReport(EVENT.CREDIT, { kind: 'events', events: [EVENT.CREDIT, CHANNEL_100] });
    assert.ok(await untilEnabled(r));
    insert(r, 100);
    await finish(r);
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [100],
    );
    caught(r, 'credit-repeated', 100);
  });

  it('NOTE CREDIT on another channel than the note read: credit-value-mismatch, nothing credited (it used to credit a new note of that value)', async () => {
    const r = driverRig('ssp');
    ssp(r).afterReport(EVENT.READ, { kind: 'events', events: [EVENT.CREDIT, CHANNEL_1000] });
    assert.ok(await untilEnabled(r));
    insert(r, 100);
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'credit-value-mismatch', 100);
    assert.deepEqual(r.sim.cashbox, [100]);
  });

  it('NOTE CLEARED INTO CASHBOX with no note on record: unvalued (reconciliation), not credited by its channel', async () => {
    const r = driverRig('ssp');
    assert.ok(await untilEnabled(r));
    ssp(r).tell({ kind: 'events', events: [EVENT.SLAVE_RESET, EVENT.CLEARED_INTO_CASHBOX, CHANNEL_1000] });
    await r.time.runFor(500);
    await finish(r);
    assert.deepEqual(r.credits, []);
    assert.ok(r.events.some((e) => e.type === 'unvaluedCredit' && e.code === CHANNEL_1000));
  });

  it('a note taken to the stacker whose credit never comes: note-vanished once the stack timeout passes', async () => {
    const r = driverRig('ssp');
    // The reply carrying NOTE CREDIT and STACKED comes back empty.
    ssp(r).afterReport(EVENT.STACKING, { kind: 'events', events: [EVENT.STACKING] }, { kind: 'events', events: [], swallow: true });
    assert.ok(await untilEnabled(r));
    insert(r, 10);
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'note-vanished', 10);
    assert.deepEqual(r.sim.cashbox, [10], 'stacked and never reported: the violation is what the host sees');
  });

  // Hostile campaign seed 704, case 9,341, shrunk: a stale reply (an old SLAVE RESET, its flag
  // matching by chance) arrives before the reply carrying the note's NOTE CREDIT, which arrives
  // garbled: the credit is lost for good. Then NOTE CLEARED FROM FRONT, a lie, while the note is
  // on its way to the cashbox: the driver said the note returned and the note was in the cashbox,
  // uncredited, with nothing said. Now a note the host told to stack is never taken back on the
  // validator's word: it is disputed (returned-while-stacking), settled by the drop count.
  it('NOTE CLEARED FROM FRONT for a note on its way to the cashbox, its credit lost: returned-while-stacking, never silence (found by the hostile fuzz, seed 704)', () =>
    runDriverScript('ssp', [
      { insert: 10, decision: 'stack' },
      { wait: 90 },
      { lie: { kind: 'stale', back: 6 } },
      { lie: { kind: 'events', events: [EVENT.CLEARED_FROM_FRONT, 0] } },
      { wait: 75 },
      { harm: 'garble', direction: 'to-host' },
    ]));

  // Hostile campaign seeds 5042, 5069 and 5098 (issue 28's million-case run, shrunk): an old reply
  // replayed with its sequence flag matching by chance arrives before the validator's own, and the
  // driver took the old one. The true reply (a READ, or a NOTE CREDIT) was dropped unseen: a note in
  // the cashbox with no credit and no violation (5042, 5069), or (5098) a READ of the 10 note unseen,
  // then a lie that restated it as a 50, read and credited: 50 credited for a 10 in the cashbox.
  // Now a second, different reply to one packet is a `reply-conflict` violation, and whatever may sit
  // in escrow is rejected before the next POLL. Each fails on the driver before (checked).
  it('a stale reply before the true READ, then the READ restated as a 50 and credited: reply-conflict, never 50 for a 10 (hostile fuzz, seed 5098)', () =>
    runDriverScript('ssp', [
      { harm: 'garble', direction: 'to-device' },
      { lie: { kind: 'replay', back: 0 } },
      { lie: { kind: 'answer', code: 0xf2 } },
      { lie: { kind: 'stale', back: 0 } },
      { insert: 10, decision: 'stack' },
      { lie: { kind: 'events', events: [EVENT.READ, 3] } },
      { lie: { kind: 'events', events: [EVENT.CREDIT, 3] } },
      { wait: 85 },
      { lie: { kind: 'refuse', command: 'reject', execute: false } },
    ]));
  it('a stale reply taken in place of the one with NOTE CREDIT: reply-conflict, never a silent uncredited note (hostile fuzz, seed 5042)', () =>
    runDriverScript('ssp', [
      { insert: 10, decision: 'stack' },
      { insert: 10, decision: 'stack' },
      { lie: { kind: 'dataset', channels: [0, 0, 0, 0] } },
      { lie: { kind: 'ignore-inhibits' } },
      { lie: { kind: 'events', events: [EVENT.REJECTED] } },
      { lie: { kind: 'answer', code: 0xf2 } },
      { lie: { kind: 'stale', back: 0 } },
      { unplugAfter: 6 },
      { lie: { kind: 'events', events: [] } },
    ]));
  it('a stale reply three back taken in place of the one with NOTE CREDIT: reply-conflict, never a silent uncredited note (hostile fuzz, seed 5069)', () =>
    runDriverScript('ssp', [
      { insert: 10, decision: 'stack' },
      { insert: 10, decision: 'stack' },
      { insert: 10, decision: 'stack' },
      { lie: { kind: 'events', events: [EVENT.SAFE_JAM] } },
      { lie: { kind: 'events', events: [EVENT.READ, 0] } },
      { lie: { kind: 'stale', back: 3 } },
      { wait: 20 },
      { insert: 10, decision: 'stack' },
    ]));

  it('NOTE CLEARED FROM FRONT while the note is stacking (no reset), then its NOTE CREDIT: clearing-without-reset, nothing credited, not said returned', async () => {
    const r = driverRig('ssp');
    ssp(r).afterReport(EVENT.STACKING, { kind: 'events', events: [EVENT.CLEARED_FROM_FRONT, 0] });
    assert.ok(await untilEnabled(r));
    insert(r, 10);
    await finish(r);
    assert.deepEqual(r.credits, []);
    caught(r, 'clearing-without-reset', 10); // was returned-while-stacking, before clearing events were held to a reset
    assert.deepEqual(r.sim.cashbox, [10], 'the validator stacked it: the violation is what the host sees');
    assert.ok(!r.events.some((e) => e.type === 'returned'), 'the note is not said returned on the validator’s word');
  });

  // The seed-704 script again, with the other lies a validator can tell in place of NOTE CLEARED
  // FROM FRONT once the note's credit is lost (found analysing seed 704): each left the note in the
  // cashbox uncredited, with nothing said. After STACKING, the validator has the note: REJECTING,
  // REJECTED or a jam is its word against the cashbox, disputed.
  const LOST_CREDIT_THEN = (events: number[]) =>
    runDriverScript('ssp', [
      { insert: 10, decision: 'stack' },
      { wait: 90 },
      { lie: { kind: 'stale', back: 6 } },
      { lie: { kind: 'events', events } },
      { wait: 75 },
      { harm: 'garble', direction: 'to-host' },
    ]);
  it('REJECTING for a note on its way to the cashbox, its credit lost: a violation, never silence', () => LOST_CREDIT_THEN([EVENT.REJECTING]));
  it('REJECTED for a note on its way to the cashbox, its credit lost: a violation, never silence', () => LOST_CREDIT_THEN([EVENT.REJECTED]));
  it('UNSAFE JAM for a note on its way to the cashbox, its credit lost: a violation, never a silent technician job', () =>
    LOST_CREDIT_THEN([EVENT.UNSAFE_JAM]));
  it('SAFE JAM for a note on its way to the cashbox, its credit lost: a violation, never a silent technician job', () => LOST_CREDIT_THEN([EVENT.SAFE_JAM]));

  for (const [name, code] of [
    ['REJECTING', EVENT.REJECTING],
    ['REJECTED', EVENT.REJECTED],
  ] as const)
    it(`${name} after STACKING, then the note's NOTE CREDIT: returned-while-stacking, nothing credited, not said returned`, async () => {
      const r = driverRig('ssp');
      ssp(r).afterReport(EVENT.STACKING, { kind: 'events', events: [code] });
      assert.ok(await untilEnabled(r));
      insert(r, 20);
      await finish(r);
      assert.deepEqual(r.credits, []);
      caught(r, 'returned-while-stacking', 20);
      assert.deepEqual(r.sim.cashbox, [20]);
      assert.ok(!r.events.some((e) => e.type === 'returned'), 'the note is not said returned on the validator’s word');
    });

  for (const [name, code] of [
    ['UNSAFE JAM', EVENT.UNSAFE_JAM],
    ['SAFE JAM', EVENT.SAFE_JAM],
  ] as const)
    it(`${name} after STACKING, then the note's NOTE CREDIT: a jam naming the note and jammed-while-stacking, nothing credited`, async () => {
      const r = driverRig('ssp');
      ssp(r).afterReport(EVENT.STACKING, { kind: 'events', events: [code] });
      assert.ok(await untilEnabled(r));
      insert(r, 20);
      await finish(r);
      assert.deepEqual(r.credits, []);
      caught(r, 'jammed-while-stacking', 20);
      assert.ok(r.events.some((e) => e.type === 'jam' && e.note?.denomination === 20));
      assert.deepEqual(r.sim.cashbox, [20]);
    });

  // The validator's dataset (SETUP REQUEST) says what each channel is worth; the driver used to take
  // it on the validator's word. HKD channels 1… are 10, 20, 50, 100, 500, 1000.
  const HKD_DATASET = [10, 20, 50, 100, 500, 1000];

  it('a dataset that values channel 1 (the 10 note) at 1000, against the table’s dataset: nothing credited, the note given back, dataset-mismatch', async () => {
    const r = driverRig('ssp', { sspDataset: HKD_DATASET });
    ssp(r).tell({ kind: 'dataset', channels: [1000, 20, 50, 100, 500, 1000] });
    assert.ok(await untilEnabled(r));
    insert(r, 10);
    await finish(r);
    assert.deepEqual(r.credits, [], 'the driver before credited 1000 for the 10 note');
    caught(r, 'dataset-mismatch');
    assert.deepEqual(r.sim.cashbox, []);
    assert.deepEqual(r.sim.returned, [10], 'channel 1 inhibited: the unit gives the note back');
    assert.ok(!r.events.some((e) => e.type === 'escrowed' && e.note.denomination === 1000), 'no escrow journalled at 1000');
  });

  it('a dataset that changes after a SLAVE RESET (channel 1, the 10 note, now 1000): nothing credited at 1000, dataset-changed', async () => {
    const r = driverRig('ssp');
    assert.ok(await untilEnabled(r));
    ssp(r).tell({ kind: 'dataset', channels: [1000, 20, 50, 100, 500, 1000] });
    ssp(r).tell({ kind: 'events', events: [EVENT.SLAVE_RESET] }); // the driver sets the unit up again, and reads the dataset again
    await r.time.runUntil(() => ssp(r).queued === 0, 5_000);
    insert(r, 10);
    await finish(r);
    assert.deepEqual(r.credits, [], 'the driver before credited 1000 for the 10 note');
    caught(r, 'dataset-changed');
    assert.deepEqual(r.sim.cashbox, []);
    assert.deepEqual(r.sim.returned, [10]);
  });

  it('the same dataset read again after a SLAVE RESET: no violation, the note credited at its value', async () => {
    const r = driverRig('ssp', { sspDataset: HKD_DATASET });
    assert.ok(await untilEnabled(r));
    ssp(r).tell({ kind: 'dataset', channels: HKD_DATASET });
    ssp(r).tell({ kind: 'events', events: [EVENT.SLAVE_RESET] });
    await r.time.runUntil(() => ssp(r).queued === 0, 5_000);
    insert(r, 100);
    await finish(r);
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [100],
    );
    assert.deepEqual(violations(r), []);
  });

  // The honest path these must not break: a validator that gives back, on its own, a note told to
  // stack whose accepting POLL never reached it (SSP: after 10 s without a command; 50 ms here).
  // It never said STACKING for it, so its REJECTING and REJECTED are believed.
  it('an honest validator rejects a note told to stack whose accepting POLL never reached it: returned, no violation', async () => {
    const r: AcceptorRig<'ssp'> = acceptorRig('ssp', 'HKD', {
      sim: { escrowTimeoutMs: 50 },
      onEscrow: () => {
        r.sim.unplug(); // the cable goes as the host decides: the next POLL never reaches the validator
        setTimeout(() => r.sim.replug(), 300);
        return 'stack';
      },
    });
    try {
      await acceptorEnabled(r);
      r.sim.insertNote(50);
      await r.rec.until(() => r.sim.returned.length === 1 && r.rec.of('returned').length === 1, 8000, 'returned');
      assert.deepEqual(r.sim.cashbox, []);
      assert.deepEqual(r.credits, []);
      assert.deepEqual(r.rec.of('protocolViolation'), []);
      assert.equal(r.rec.of('returned')[0]?.note?.denomination, 50);
      assert.ok(r.rec.of('escrowed').length === 1 && r.rec.of('stacking').length === 0, 'told to stack, never taken');
    } finally {
      await r.dev.close();
    }
  });
});
