// The SAS meters of a station in the units Table C-7 gives each one (docs/sas.md, "The meter
// map"): most in credits of the accounting denomination, but the in-house cashable transfers
// (00A0 to the machine, 00B8 to the host) in cents — the ledger's minor units — whatever the
// denomination. A credits meter the denomination does not divide is refused, not floored.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sasHandpayOf, sasMetersOf } from './sas-meters.js';

const station = (s: Record<string, number>, credit = 0) => ({ station: s, credit, powerResets: 0 });

describe('sasMetersOf: each meter in its Table C-7 unit', () => {
  it('00A0 and 00B8 are in cents whatever the accounting denomination', () => {
    // Before: divided by the denomination like a credits meter, so at 5 avos a transfer of
    // MOP 123.45 read 2,469 — a fifth of what moved — on the meter the system reconciles its AFT log by.
    for (const denomination of [1, 5, 100]) {
      const m = sasMetersOf(station({ aftInAmount: 12_345, aftIn: 1, aftOutAmount: 6_790, aftOut: 2 }), denomination);
      assert.equal(m.aftInCents, 12_345, `A0 at a denomination of ${denomination}`);
      assert.equal(m.aftOutCents, 6_790, `B8 at a denomination of ${denomination}`);
      assert.equal(m.aftIn, 1);
      assert.equal(m.aftOut, 2);
    }
  });

  it('a credits meter is the amount in credits when the denomination divides it', () => {
    const m = sasMetersOf(station({ creditsWagered: 10_000, creditsWon: 2_500, voidRefunds: 500, totalBillsIn: 50_000, totalIn: 50_000 }, 43_000), 100);
    assert.equal(m.coinIn, 100);
    assert.equal(m.coinOut, 30);
    assert.equal(m.billsInCredits, 500);
    assert.equal(m.drop, 500);
    assert.equal(m.currentCredits, 430);
  });

  it('a credits meter the denomination does not divide is refused, never floored to the house’s side', () => {
    // Before: Math.floor, so a player's credit of 0.07 at a denomination of 5 avos read 1 credit
    // (0.05) and 0.02 of it was silently missing from the system's view of the station.
    assert.throws(() => sasMetersOf(station({}, 7), 5), /currentCredits.*7.*5/);
    assert.throws(() => sasMetersOf(station({ creditsWagered: 12 }), 5), /coinIn/);
  });

  it('at the kiosk’s own denomination (one minor unit) every amount is the ledger’s exactly', () => {
    const amounts = {
      creditsWagered: 1_234_567,
      creditsWon: 1_100_001,
      voidRefunds: 3,
      jackpotHandpays: 99,
      handpaidCancelledCredits: 250_001,
      cancelledCredits: 250_001,
      totalBillsIn: 900_000,
      ticketsInAmount: 50_007,
      ticketsOutAmount: 70_009,
      totalIn: 950_007,
      aftInAmount: 12_345,
      aftOutAmount: 6_789,
    };
    const m = sasMetersOf(station(amounts, 12_345), 1);
    assert.deepEqual(
      [m.coinIn, m.coinOut, m.jackpot, m.handpaidCancelledCredits, m.cancelledCredits, m.billsInCredits],
      [1_234_567, 1_100_004, 99, 250_001, 250_001, 900_000],
    );
    assert.deepEqual(
      [m.ticketInCredits, m.ticketOutCredits, m.drop, m.aftInCents, m.aftOutCents, m.currentCredits],
      [50_007, 70_009, 950_007, 12_345, 6_789, 12_345],
    );
  });

  it('0x1B’s handpay amount (credits of the denomination, level 80: cancelled credits) is refused the same way, never floored', () => {
    // Before: host/start/sas-links.ts floored it (Math.floor(amount / denomination)), latent at one minor unit.
    assert.deepEqual(sasHandpayOf({ amount: 12_347 }, 1), { progressiveGroup: 0, level: 0x80, amount: 12_347, partialPay: 0, resetId: 0 });
    assert.equal(sasHandpayOf({ amount: 12_345 }, 5)?.amount, 2_469);
    assert.throws(() => sasHandpayOf({ amount: 12_347 }, 5), /handpay/);
    assert.equal(sasHandpayOf(null, 1), null);
  });
});
