// After a change of currency (a new configuration file, a restart) the event log said a credit
// cancelled, a handpay, a casino system's transfer and stakes in the table's currency NOW: those
// entries journalled none, so 12,345 avos cancelled under MOP read as HK$123.45 once the table
// took HKD. They name theirs now; an older entry without one is said in the currency in force at
// its seq (its start's, or what the entries of its run that always named one say), else as recorded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger } from '../../../ledger/ledger.js';
import type { NewEntry } from '../../../ledger/index.js';
import { billCredit } from '../../../ledger/fixtures.js';
import { eventLogReader } from './event-log.js';

const start = (currency?: string): NewEntry => ({ type: 'power.reset', payload: { clean: true, softwareVersion: '3.1.0', ...(currency ? { currency } : {}) } });

/** The money entries at issue, in their old shape, or naming `currency`. */
function moneyEntries(tag: string, currency?: string): NewEntry[] {
  const c = currency ? { currency } : {};
  return [
    // The transfer in first: the credit the cancel and the stakes take.
    { type: 'aft.in', txId: `${tag}a`, payload: { station: 3, transactionId: `${tag}X`, amount: 20_000, requested: 20_000, assetNumber: 7, flags: 0, ...c } },
    { type: 'credit.cancel', txId: `${tag}c`, payload: { station: 3, amount: 12_345, reason: 'player left', ...c } },
    { type: 'handpay.request', txId: `${tag}h`, payload: { station: 4, amount: 900_000, reason: 'win-limit', ...c } },
    { type: 'handpay.confirm', txId: `${tag}p`, payload: { station: 4, requestTxId: `${tag}h`, amount: 900_000, attendant: 'Ana', ...c } },
    { type: 'bet.place', txId: `${tag}b`, payload: { station: 3, roundId: `${tag}R`, tableId: 'T-7', bets: [{ seat: 3, bet: 'main', amount: 2_000 }], ...c } },
  ];
}

/** Each entry's words' currency, by type (undefined: said without one; null: not said, shown as recorded). */
function currencies(ledger: Ledger, seqs: readonly number[]): Record<string, unknown> {
  const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
  return Object.fromEntries(
    seqs.map((seq) => {
      const r = rows.find((x) => x.seq === seq);
      return [r?.type ?? String(seq), r?.said ? r.said.values.currency : null];
    }),
  );
}

const all = (c: unknown) => ({ 'credit.cancel': c, 'handpay.request': c, 'handpay.confirm': c, 'aft.in': c, 'bet.place': c });

describe("the event log says a cancel, a handpay, a transfer and stakes in their own currency, not the table's now", () => {
  it('an entry that names its currency is said in it, after the table changed to another', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    ledger.append(start('MOP'));
    const seqs = moneyEntries('m', 'MOP').map((e) => ledger.append(e).entry.seq);
    ledger.append(start('HKD'));
    ledger.append(billCredit(1, 100_000, 'b1', 'HKD'));
    assert.deepEqual(currencies(ledger, seqs), all('MOP'));
    ledger.close();
  });

  it("an older entry without one is said in its start's currency, or in the one its run's notes name", () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    // A run of an older host: its start names no currency; its notes name MOP.
    ledger.append(start());
    ledger.append(billCredit(1, 100_000, 'b0', 'MOP'));
    const older = moneyEntries('o').map((e) => ledger.append(e).entry.seq);
    // A start that names its currency: the entries of its run without one are in it.
    ledger.append(start('HKD'));
    const named = moneyEntries('n').map((e) => ledger.append(e).entry.seq);
    ledger.append(start('MOP'));
    assert.deepEqual(currencies(ledger, older), all('MOP'));
    assert.deepEqual(currencies(ledger, named), all('HKD'));
    ledger.close();
  });

  it('an older entry of a run no entry says the currency of is shown as recorded, not said in a currency it may not be in', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    ledger.append(start());
    const unknown = moneyEntries('u').map((e) => ledger.append(e).entry.seq);
    ledger.append(start());
    ledger.append(billCredit(1, 100_000, 'b1', 'HKD'));
    assert.deepEqual(currencies(ledger, unknown), all(null));
    ledger.close();
  });

  it('an entry naming a currency the screens have no money for is shown as recorded', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    ledger.append(start('MOP'));
    const seqs = moneyEntries('x', 'CNY').map((e) => ledger.append(e).entry.seq);
    assert.deepEqual(currencies(ledger, seqs), all(null));
    ledger.close();
  });
});
