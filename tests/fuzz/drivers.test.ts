// The seeded slice of the drivers' model-based fuzz (tests/fuzz/drivers.ts) that `npm test` runs:
// a few hundred cases per driver with the hostile device, a few hundred on the lossy wire alone;
// `npm run fuzz -- --only driver-id003,driver-ssp [--cases N]` runs the campaign.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuzzDriver, runDriverScript } from './drivers.js';

const CASES = 300;
const SEED = 20_020;

describe('bill acceptor drivers under a fuzzed wire (model-based, seeded slice)', () => {
  // The fuzzer's findings, kept as written cases (both were SSP driver faults; ID-003 runs them too).
  for (const protocol of ['id003', 'ssp'] as const) {
    it(`${protocol}: the cable pulled as the reply to a POLL carrying a credit starts: the credit is not lost`, () =>
      runDriverScript(protocol, [
        { insert: 10, decision: 'stack' },
        { insert: 10, decision: 'stack' },
        { unplugAfter: 0 },
        { insert: 10, decision: 'stack' },
        { insert: 10, decision: 'stack' },
        { unplugAfter: 0 },
      ]));
    it(`${protocol}: the cable pulled while REJECT is on its way: the refused note is not stacked and credited`, () =>
      runDriverScript(protocol, [{ insert: 10, decision: 'return' }, { insert: 10, decision: 'stack' }, { unplugAfter: 8 }, { unplugAfter: 0 }]));
  }
  // Campaign seed 133, case 1905: the POLL carrying NOTE CREDIT is cut by the cable, and the
  // validator's repeats of that reply in the next session all arrive garbled; the re-sent packet
  // used to be dropped then, and SYNC made the validator forget the credit (3 notes stacked, 2
  // credited). ID-003 runs it too.
  for (const protocol of ['id003', 'ssp'] as const)
    it(`${protocol}: a cable pulled as a credit's reply starts, then its repeats garbled: the credit is not lost`, () =>
      runDriverScript(protocol, [
        { insert: 10, decision: 'stack' },
        { insert: 10, decision: 'stack' },
        { wait: 206 },
        { unplugAfter: 0 },
        { harm: 'garble', direction: 'to-host' },
        { harm: 'garble', direction: 'to-host' },
        { insert: 10, decision: 'stack' },
        { wait: 99 },
        { harm: 'garble', direction: 'to-host' },
      ]));
  // Hostile campaign seed 503, case 2,755 (ID-003), with no lie told: STACK sent, duplicated on
  // the wire; the unit ACKs the first and answers INVALID COMMAND to the second, the ACK arrives
  // garbled, so the driver read the INVALID COMMAND as STACK refused, went back to escrow and took
  // the unit's STACKING for a credit-without-stack: a false cheat and the note uncredited.
  for (const protocol of ['id003', 'ssp'] as const)
    it(`${protocol}: STACK duplicated on the wire and its ACK garbled: not read as refused, the note credited`, () =>
      runDriverScript(protocol, [
        { insert: 10, decision: 'stack' },
        { unplugAfter: 5 },
        { unplugAfter: 0 },
        { harm: 'duplicate', direction: 'to-device' },
        { harm: 'garble', direction: 'to-host' },
      ]));
  // Hostile campaign seeds 2402 (case 1,462) and 2211 (case 8,354), no lie told, shrunk: the same
  // duplicated STACK, its ACK dropped rather than garbled, so nothing showed the driver that the
  // INVALID COMMAND answered the copy: it read STACK as refused, went back to escrow and took the
  // unit's STACKING for a credit-without-stack (a false cheat, the note uncredited).
  for (const protocol of ['id003', 'ssp'] as const)
    it(`${protocol}: STACK duplicated on the wire and its ACK dropped: not read as refused, the note credited`, () =>
      runDriverScript(protocol, [
        { insert: 10, decision: 'stack' },
        { unplugAfter: 5 },
        { wait: 10 },
        { harm: 'drop', direction: 'to-host' },
        { harm: 'duplicate', direction: 'to-device' },
        { wait: 10 },
      ]));
  // Found checking the reply-conflict rule (SSP), hostile campaign seeds 6001–6055, no lie told:
  // the cable pulled as a POLL's reply began, the POLL re-sent after the reconnect and duplicated on
  // the wire; the validator's repeat of its reply carried SYNC's flag (SYNC restarts it at 1) and
  // was taken as SYNC's answer, the true one following. The rule, held to every packet then, called
  // that a reply-conflict: a false cheat on an honest unit. It holds POLL replies only now.
  it('ssp: a POLL re-sent after the reconnect and duplicated: no violation, the credits the cashbox', () =>
    runDriverScript('ssp', [{ insert: 10, decision: 'stack' }, { unplugAfter: 0 }, { harm: 'duplicate', direction: 'to-device' }, { wait: 15 }]));
  // Hostile campaign seed 2604, case 326 (ID-003; fails on e438451 too): the cable pulled right
  // after the 20's ESCROW report, so STACK was never written; the driver had entered stack-sent
  // before writing it, and took the unit's VEND VALID after the reconnect (a lie: the note was
  // never told to stack, and went back) for the 20's credit: a credit the cashbox does not hold.
  it('id003: the link lost before STACK is written: a VEND VALID after the reconnect is no credit', () =>
    runDriverScript('id003', [
      { lie: { kind: 'status', code: 0x13, data: [0x62] } },
      { lie: { kind: 'status', code: 0x11 } },
      { lie: { kind: 'status', code: 0x15 } },
      { insert: 20, decision: 'stack' },
      { unplugAfter: 6 },
    ]));
  // Hostile campaign seed 1322, case 3,361 (SSP): the 10's READ left out of a reply and its
  // STACKING hidden by an error answer, so the 10 was taken unseen; a READ of channel 2 (a lie) was
  // offered and told to stack; then NOTE CLEARED INTO CASHBOX with channel 0, mid-session with no
  // reset, was read as the power-up recovery of that 20 and credited: 20 credited, a 10 in the cashbox.
  it('ssp: NOTE CLEARED INTO CASHBOX in the middle of a session (no reset) is no credit', () =>
    runDriverScript('ssp', [
      { insert: 10, decision: 'stack' },
      { lie: { kind: 'events', events: [] } },
      { lie: { kind: 'answer', code: 0xf2 } },
      { lie: { kind: 'events', events: [0xef, 2] } },
      { lie: { kind: 'events', events: [0xe2, 0] } },
      { wait: 70 },
    ]));
  // Hostile campaign seed 502, case 35,876 (ID-003): STACK of a 20 answered INVALID COMMAND yet
  // carried out; a status reply lost (a gap), then ESCROW of a 10 (a lie) was taken as a new note
  // after the 20 gone back unseen, and the 20's VEND VALID credited the 10: the player short by 10.
  it('id003: a STACK refused yet carried out, a reply lost, another note claimed in escrow: no credit the cashbox does not hold', () =>
    runDriverScript('id003', [
      { lie: { kind: 'refuse', command: 'stack', execute: true } },
      { insert: 20, decision: 'stack' },
      { lie: { kind: 'status', code: 0x13, data: [0x61] } },
      { lie: { kind: 'mute' } },
      { harm: 'duplicate', direction: 'to-host' },
      { lie: { kind: 'return-as-stack', answer: 'ack' } },
      { insert: 10, decision: 'stack' },
      { unplugAfter: 6 },
    ]));
  for (const protocol of ['id003', 'ssp'] as const) {
    it(`${protocol}: ${CASES} command sequences with a lying device, seed ${SEED}: no credit the cashbox does not hold`, () =>
      fuzzDriver(protocol, CASES, SEED));
    it(`${protocol}: ${CASES} command sequences on the lossy wire alone, seed ${SEED}: credits are exactly the cashbox, no violation`, () =>
      fuzzDriver(protocol, CASES, SEED, { hostile: false }));
    it(`${protocol}: the property catches a host that credits a note twice`, async () => {
      await assert.rejects(
        fuzzDriver(protocol, 200, SEED, { sabotage: { creditTwiceFace: 100 }, hostile: false }),
        /credits the cashbox does not hold|credited twice/,
      );
    });
  }
});
