// Test-only: what a table does in a gaming day besides notes, rounds and tickets, so that every
// column of the back office's report moves (tests/sync/backoffice-report.test.ts): AFT in and out,
// a cash-out paid by hand, a jackpot paid by hand, a progressive award, a voided round, a dealing
// error corrected, and transfers to and from the other table (one completed, one reversed). And
// the ledger's own figures for the transfers, which no meter counts: read from its postings.
import type { NewEntry } from '../../ledger/entries.js';
import { TableId, transferTxId, type Transfer } from '../../terms/transfer-terms.js';

/** The article of the void and of the correction in the scenario (Macau 2009 Art. 6 1), Art. 5 n.1 1); engine/blackjack/table-corrections.ts). */
export const VOID_RULE = 'macau-2009 art.5 n.1 2)';
export const CORRECTION_ARTICLE = 'macau-2009 art.5 n.1 1)';

/** A transfer of station 1's credit from `from` to `to`, the `serial`th of `from`. */
export function transfer(from: string, to: string, serial: number, amount: number): Transfer {
  const [a, b] = [TableId.parse(from), TableId.parse(to)];
  return { id: { origin: a, serial }, currency: 'MOP', station: 1, from: a, to: b, amount };
}

/**
 * What table `id` journals after its rounds: all at station 1 (which AFT gives the credit for),
 * on rounds it settled (`settled`, for the progressive). `incoming` is the other table's transfer
 * this one credits.
 */
export function everyColumn(id: string, peer: string, settled: string, incoming: Transfer): NewEntry[] {
  const aft = (type: 'aft.in' | 'aft.out', n: number, amount: number): NewEntry => ({
    type,
    txId: `aft:1:${id}-aft-${n}`,
    payload: { station: 1, transactionId: `${id}-aft-${n}`, amount, requested: amount, assetNumber: 7 },
  });
  const paid = (request: string, amount: number): NewEntry => ({
    type: 'handpay.confirm',
    txId: `${request}:paid`,
    payload: { station: 1, requestTxId: request, amount, attendant: 'att-1' },
  });
  const sent = transfer(id, peer, 1, 4_000);
  const reversed = transfer(id, peer, 2, 1_500);
  const voided = `${id}-void`;
  const core = { tableId: id, game: 'blackjack' as const, profile: 'macau-2009', cards: [], decisions: [] };
  return [
    aft('aft.in', 1, 30_000),
    aft('aft.out', 2, 6_000),
    { type: 'credit.cancel', txId: `${id}-cancel`, payload: { station: 1, amount: 3_000, reason: 'cash-out at the cage' } },
    paid(`${id}-cancel`, 3_000),
    ...handPaidJackpot(id),
    paid(`${id}-hp`, 8_000),
    { type: 'bet.place', txId: `${voided}:bet:1`, payload: { station: 1, roundId: voided, tableId: id, bets: [{ seat: 1, bet: 'main', amount: 2_000 }] } },
    // At T2 the void lifts a hold for a dealing error, as the engine journals it: the misread's
    // resolution, then the void (engine/table/holds.ts): one line of the report, a dealing error that voided its round.
    ...(id === 'T2' ? [liftedByVoid(id, voided)] : []),
    { type: 'round.void', txId: `${voided}:void`, payload: { ...core, roundId: voided, reason: 'the shoe jammed', authorisedBy: ['sup-1'], rule: VOID_RULE } },
    {
      type: 'misread',
      payload: {
        tableId: id,
        roundId: settled,
        detail: 'the dealer exposed a card',
        resolution: 'corrected',
        correction: 'exposed-card',
        article: CORRECTION_ARTICLE,
      },
    },
    // At T1 a hold in the results phase, after the round settled and was paid, lifted by a "void"
    // that voids no round: the misread says round-void, and no `round.void` follows.
    ...(id === 'T1' ? [liftedByVoid(id, settled)] : []),
    {
      type: 'jackpot.reset',
      txId: `${id}-jackpot-reset`,
      payload: { tableId: id, level: 'major', to: 50_000, unfunded: 0, who: 'sup-1', authorisation: 'DICJ-J-1', witness: 'sup-2' },
    },
    {
      type: 'jackpot.settle',
      txId: `${settled}:jackpot`,
      payload: {
        roundId: settled,
        tableId: id,
        reference: 'DICJ-J-1',
        levels: [{ level: 'major', before: 50_000, funded: 0, contribution: 0, award: 12_000, hits: 1, seed: 0, after: 38_000 }],
        hits: [{ station: 1, seat: 1, hand: 0, combination: 'suited-777', level: 'major', amount: 12_000 }],
      },
    },
    { type: 'transfer.out', txId: transferTxId('out', sent.id), payload: { transfer: sent } },
    { type: 'transfer.complete', txId: transferTxId('close', sent.id), payload: { transfer: sent } },
    { type: 'transfer.out', txId: transferTxId('out', reversed.id), payload: { transfer: reversed } },
    { type: 'transfer.reverse', txId: transferTxId('close', reversed.id), payload: { transfer: reversed, reason: 'over-limit' } },
    { type: 'transfer.in', txId: transferTxId('decide', incoming.id), payload: { transfer: incoming } },
  ];
}

/** The misread a void journals when it lifts a hold (engine/table/holds.ts `voidRound`). */
function liftedByVoid(id: string, roundId: string): NewEntry {
  return {
    type: 'misread',
    payload: { tableId: id, roundId, detail: 'out-of-turn hold lifted by a void: the shoe jammed', resolution: 'round-void', confirmedBy: ['sup-1', 'sup-2'] },
  };
}

/**
 * A round at station 1 whose jackpot award is paid by hand (engine/table/dealing.ts): 1,000 on the
 * main bet, lost, and 500 on the jackpot bet, which wins 7,500; the award, 8,000 with its stake, is
 * above the table's handpay amount, so the settlement credits none of it and the same transaction
 * asks an attendant to pay it (`handpay.request`, where the house's loss is journalled). The
 * house's result on the round: 1,000 − 7,500 = −6,500.
 */
export function handPaidJackpot(id: string): NewEntry[] {
  const roundId = `${id}-hp-round`;
  const core = { roundId, tableId: id, game: 'blackjack' as const, profile: 'macau-2009', cards: [], decisions: [] };
  const line = (bet: string, stake: number, net: number, rule: string) => ({ station: 1, seat: 1, bet, hand: 0, stake, net, rule });
  return [
    {
      type: 'bet.place',
      txId: `${roundId}:bet:1`,
      payload: {
        station: 1,
        roundId,
        tableId: id,
        bets: [
          { seat: 1, bet: 'main', amount: 1_000 },
          { seat: 1, bet: 'jackpot', amount: 500 },
        ],
      },
    },
    {
      type: 'round.settle',
      txId: `${roundId}:settle`,
      payload: {
        ...core,
        lines: [line('main', 1_000, -1_000, 'macau-2009 art.9'), { ...line('jackpot', 500, 7_500, 'portugal-2001 rules 40-43 jackpot award'), handpay: 8_000 }],
      },
    },
    { type: 'handpay.request', txId: `${id}-hp`, payload: { station: 1, amount: 8_000, reason: 'jackpot', detail: `round ${roundId} seat 1` } },
  ];
}

// The ledger's own transfer and hand-paid sums (their SQL stays in ledger/): re-exported for the report's test.
export { ledgerTransfers } from '../../ledger/testing/transfer-sums.js';
export { ledgerHandpaidWins } from '../../ledger/testing/handpay-sums.js';
