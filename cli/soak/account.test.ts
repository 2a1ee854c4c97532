import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bet, billCredit, settledRound } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import type { NewEntry } from '../../ledger/entries.js';
import { tamperBalance, tamperJournalBody } from '../../ledger/testing/tamper.js';
import { redeemApproved, redeemRequest, redeemReturned, redeemStacked, ticketIssue, ticketPrinted, ticketVoided } from '../../ledger/ticket-fixtures.js';
import { TICKET_ACCOUNTS, ticketOutTxId } from '../../ledger/ticket-postings.js';
import { validationNumber, type ValidationNumber } from '../../terms/validation-number.js';
import { accountFor } from './account.js';
import { ticketSummary } from './ticket-account.js';
import { unexpectedAlarms } from './report.js';

const T1 = validationNumber(7, 1);
const T2 = validationNumber(7, 2);
const T3 = validationNumber(7, 3);
const T4 = validationNumber(7, 4);
const T5 = validationNumber(7, 5);

function redeem(
  requestId: string,
  validation: ValidationNumber,
  station: number,
  amount: number | null,
  outcome: 'stacked' | 'returned' | 'pending',
): NewEntry[] {
  const out: NewEntry[] = [redeemRequest(requestId, validation, station)];
  if (amount !== null) out.push(redeemApproved(requestId, validation, station, amount));
  if (outcome === 'stacked' && amount !== null) out.push(redeemStacked(requestId, validation, station, amount));
  if (outcome === 'returned') out.push(redeemReturned(requestId, validation, station));
  return out;
}

/**
 * The soak's journal with cash-out tickets besides: station 1 prints one of 30,000, another is
 * voided (its 20,000 back on the meter), a third of 10,000 is still in print, a fourth of 5,000
 * held and voided by a person; station 2 redeems a
 * ticket of 25,000 another table printed, has one returned and one approved and not yet stacked.
 */
function withTickets(): Ledger {
  const l = journal();
  l.append(ticketIssue(T1, 1, 30_000, 1));
  l.append(ticketPrinted(T1, 1));
  l.append(ticketIssue(T2, 2, 20_000, 1));
  l.append(ticketVoided(T2, 1));
  l.append(ticketIssue(T3, 3, 10_000, 1));
  // Held after a kill (the printer could not say), then settled void by the (simulated) attendant.
  l.append(ticketIssue(T5, 5, 5_000, 1));
  l.append({
    type: 'ticket.void',
    payload: { validation: T5, station: 1, reason: 'settled by hand: not printed', settledBy: ['autoplay-attendant'] },
    txId: ticketOutTxId(T5, 'end'),
  });
  for (const e of redeem('req-00001', T4, 2, 25_000, 'stacked')) l.append(e);
  for (const e of redeem('req-00002', T4, 2, null, 'returned')) l.append(e);
  for (const e of redeem('req-00003', T1, 2, 30_000, 'pending')) l.append(e);
  return l;
}

/** A journal of every kind the soak accounts: notes, a settled round, a voided one, one still open, a cash-out. */
function journal(): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
  l.append(billCredit(1, 100_000, 'n1'));
  l.append(billCredit(2, 50_000, 'n2'));
  const { bets, settle } = settledRound('R-1', [1, 2], 10_000); // station 1 wins 3:2, station 2 loses
  for (const b of bets) l.append(b);
  l.append(settle);
  l.append(bet(1, 'R-2', 20_000, 'R-2:bet:1'));
  l.append({
    type: 'round.void',
    txId: 'R-2:void',
    payload: {
      roundId: 'R-2',
      tableId: 'T1',
      game: 'blackjack',
      profile: 'macau-2009',
      cards: [],
      decisions: [],
      reason: 'test',
      authorisedBy: ['sup-1', 'wit-2'],
    },
  });
  l.append({ type: 'credit.cancel', txId: 'c1', payload: { station: 2, amount: 40_000, reason: 'cash-out' } });
  l.append(bet(1, 'R-3', 30_000, 'R-3:bet:1')); // still in play when the soak stopped
  return l;
}

describe('soak accounting', () => {
  it('balances a journal: credits in = on the meters + cashed out + the house result + what is still in play', () => {
    const l = journal();
    try {
      const a = accountFor(l);
      assert.deepEqual(
        {
          rounds: a.rounds,
          voided: a.voided,
          creditsIn: a.creditsIn,
          creditsOut: a.creditsOut,
          wagered: a.wagered,
          won: a.won,
          inPlay: a.inPlay,
          houseNet: a.houseNet,
        },
        { rounds: 2, voided: 1, creditsIn: 150_000, creditsOut: 40_000, wagered: 70_000, won: 25_000, inPlay: 30_000, houseNet: -5_000 },
      );
      // Station 1: 100,000 − 10,000 + 25,000 (3:2) − 20,000 + 20,000 (void) − 30,000; station 2: 50,000 − 10,000 − 40,000.
      assert.equal(a.creditsOnMeters, 85_000);
      assert.deepEqual([a.conserved, a.ledgerVerified], [true, true]);
    } finally {
      l.close();
    }
  });

  it('holds each jackpot pool against its movements, the house’s rounding up of a shared award included (Portugal rule 50 b))', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    try {
      const stations = [1, 2];
      for (const s of stations) l.append(billCredit(s, 100_000, `b${s}`));
      l.appendMany([
        ...stations.map((s) => bet(s, 'r1', 100, `r1:bet:${s}`, s, 'jackpot')),
        {
          type: 'round.settle',
          txId: 'r1:settle',
          payload: {
            roundId: 'r1',
            tableId: 'T1',
            game: 'blackjack',
            profile: 'portugal-2001',
            shoeId: 'shoe-1',
            cards: [],
            decisions: [],
            // 1,000,015 shared by two: 500,008 each, the house adding 1.
            lines: stations.map((s) => ({ station: s, seat: s, bet: 'jackpot', stake: 100, net: 500_008 - 100, rule: 'portugal-2001 rules 42-43, 50 b)' })),
          },
        },
      ]);
      const level = {
        level: 'main',
        before: 1_000_000,
        funded: 1_000_000,
        contribution: 15,
        award: 1_000_016,
        hits: 2,
        rounding: 1,
        seed: 1_000_000,
        after: 1_000_000,
      };
      const hits = stations.map((s) => ({ station: s, seat: s, hand: 0, combination: 'suited-blackjack', level: 'main', amount: 500_008 }));
      l.append({ type: 'jackpot.settle', txId: 'r1:jackpot', payload: { roundId: 'r1', tableId: 'T1', reference: 'TEST', levels: [level], hits } });
      const jp = accountFor(l).jackpot;
      assert.deepEqual(jp.problems, []);
      assert.deepEqual(jp.levels.main, { contributions: 15, awards: 1_000_016, seeded: 2_000_000, rounded: 1, pool: 1_000_000, ledgerPool: 1_000_000 });
      assert.equal(jp.conserved, true);
    } finally {
      l.close();
    }
  });

  it('says not conserved when a credit meter holds money the journal does not account for', () => {
    const l = journal();
    try {
      // A projection gone wrong: station 1's meter shows 1.00 more than its entries give it.
      tamperBalance(l, 'station:1:credit', -100);
      const a = accountFor(l);
      assert.equal(a.creditsOnMeters, 85_100);
      assert.equal(a.conserved, false, 'the mismatch is caught');
    } finally {
      l.close();
    }
  });

  it('counts tickets: printed and in print are cashed out, voided ones went back, redeemed ones came in; each ticket once', () => {
    const l = withTickets();
    try {
      const a = accountFor(l);
      const t = a.tickets;
      assert.deepEqual(
        {
          printed: t.printed,
          voided: t.voided,
          byHand: t.settledByHand,
          inPrint: t.inPrint,
          redeemed: t.redeemed,
          pending: t.pendingRedemptions,
          returned: t.returned,
        },
        {
          printed: { count: 1, amount: 30_000 },
          voided: { count: 2, amount: 25_000 },
          byHand: { count: 1, amount: 5_000 },
          inPrint: { count: 1, amount: 10_000 },
          redeemed: { count: 1, amount: 25_000 },
          pending: 1,
          returned: 1,
        },
      );
      assert.deepEqual(t.problems, []);
      // The soak's printed summary says the same.
      assert.equal(
        ticketSummary(t),
        'printed 1 (30000), redeemed 1 (25000), refused 1; voided 2 (25000), settled by hand 1 (5000), in print 1 (10000), redemptions pending 1',
      );
      // Station 1's 85,000 less the 30,000 printed and the 10,000 in print; station 2 got 25,000 by ticket.
      assert.equal(a.creditsOnMeters, 85_000 - 40_000 + 25_000);
      assert.deepEqual([a.conserved, a.ledgerVerified], [true, true]);
      // The check without the tickets could not balance this journal: they are what it now counts.
      assert.notEqual(a.creditsIn, a.creditsOnMeters + a.creditsOut + a.houseNet + a.inPlay);
    } finally {
      l.close();
    }
  });

  it('says not conserved when a ticket is miscounted: its amount in the journal, or the ledger’s ticket accounts', () => {
    for (const harm of ['journal', 'printed-account', 'printing-account'] as const) {
      const l = withTickets();
      try {
        if (harm === 'journal') {
          // The issue of the printed ticket rewritten to say 300.00 more left the meter than did.
          const seq = [...Array(l.headOf().seq).keys()].map((i) => i + 1).find((s) => l.entry(s)?.txId === ticketOutTxId(T1, 'issue'));
          assert.ok(seq !== undefined && tamperJournalBody(l, seq, '"amount":30000', '"amount":30300'));
          // Refused before any sum: every read of the journal by type hashes each body against its
          // content hash (ledger/journal-queries.ts), so the rewritten issue is never counted at all.
          assert.throws(() => accountFor(l), /entry \d+ \(ticket\.issue\) does not hash to its content hash/);
          continue;
        }
        tamperBalance(l, harm === 'printed-account' ? TICKET_ACCOUNTS.out : TICKET_ACCOUNTS.printing, 100);
        const a = accountFor(l);
        assert.equal(a.conserved, false, `${harm}: the miscount is caught`);
        assert.match(a.tickets.problems.join('\n'), /holds .*, the journal's tickets give/);
      } finally {
        l.close();
      }
    }
  });

  it('counts a shoe change where a round closed on the new shoe, after the cut card or a round of the same run; counts each hold once', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    try {
      const shoe = (event: 'loaded' | 'cut-card') => l.append({ type: 'shoe.change', payload: { tableId: 'T1', event } });
      let n = 0;
      const round = () => {
        const { bets, settle } = settledRound(`R-${++n}`, [1], 10_000);
        for (const b of bets) l.append(b);
        l.append(settle);
      };
      const misread = (duringHold: boolean) =>
        l.append({
          type: 'misread',
          payload: { tableId: 'T1', detail: 'extra-card', resolution: 'pending', ...(duringHold ? { duringHold: true as const } : {}) },
        });
      l.append(billCredit(1, 100_000, 'n1'));
      shoe('loaded'); // the first shoe: no cut card before it
      round();
      shoe('cut-card');
      round(); // the last round of the shoe
      shoe('loaded');
      round(); // a shoe change
      l.append({ type: 'power.reset', payload: { clean: false, softwareVersion: '0.1.0', programHash: 'a'.repeat(64), programMode: 'tsx', programFiles: 1 } });
      shoe('loaded'); // a restart's fresh shoe, no cut card: not one
      round();
      shoe('loaded'); // blackjack's own count ended the shoe (no cut card journalled): one
      round();
      shoe('cut-card');
      shoe('loaded'); // the cut card, a new shoe, but no round closed on it yet
      misread(false);
      misread(true); // a read during that hold: the same hold
      const a = accountFor(l);
      assert.deepEqual({ shoeChanges: a.shoeChanges, holds: a.holds }, { shoeChanges: 2, holds: 1 });
    } finally {
      l.close();
    }
  });
});

describe("the soak's upstream alarms", () => {
  it('fail the soak when the upstream raised any but the refusals its players earn', () => {
    assert.deepEqual(unexpectedAlarms({ upstreamAlarms: null }), []);
    assert.deepEqual(unexpectedAlarms({ upstreamAlarms: { 'ticket-refused': 60 } }), []);
    assert.deepEqual(
      unexpectedAlarms({ upstreamAlarms: { 'ticket-refused': 3, 'ticket-disagreement: registered on the table’s word and never in its journal': 1 } }),
      ['ticket-disagreement: registered on the table’s word and never in its journal'],
    );
  });
});
