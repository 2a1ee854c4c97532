// The journal's entries that always named the table's currency, and where each names it: notes
// credited, a cashbox counted, tickets printed or taken in, credit moved between tables (the table
// refuses a note, a ticket or a transfer in another currency). Written once for the two that read
// them: the kiosk's ledger, which finds a run's currency by them when its start names none
// (ledger/currency-at.ts), and the upstream, which checks a table's synced journal against the
// currency it holds (upstream/table-currency.ts). A note refused or returned names the currency it
// claimed, which is no money of the table's; the entries that named one only from 7 December 2026
// (a credit cancelled, a handpay, stakes, a start) are read by the currency in force at their seq.
// ledger/currency-naming.test.ts holds every payload schema carrying a currency to this list.

/** An entry type and the path of its currency in the entry's JSON body (from `payload`). */
export interface CurrencyNaming {
  readonly type: string;
  readonly path: readonly string[];
}

/** In the order the ledger looks for them in a run (the first type found names the run's currency). */
export const CURRENCY_NAMING: readonly CurrencyNaming[] = [
  { type: 'bill.credit', path: ['payload', 'currency'] },
  { type: 'cashbox.drop', path: ['payload', 'currency'] },
  { type: 'ticket.issue', path: ['payload', 'currency'] },
  { type: 'ticket.redeem.stacked', path: ['payload', 'currency'] },
  { type: 'transfer.out', path: ['payload', 'transfer', 'currency'] },
  { type: 'transfer.in', path: ['payload', 'transfer', 'currency'] },
];
