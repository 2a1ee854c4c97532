import { bounded, type SaidValue } from '../../../locales/said.js';
import type { JournalSaidPayload } from '../../../terms/said.js';

/**
 * What the event log says of an entry of a kind it knows by its fields, as a key of the
 * catalogues' `journalSaid` section and its parameters (the screen words it in its language): a
 * note held, credited or given back, a credit cancelled, a handpay asked for and paid. Amounts are
 * minor units with their currency; a handpay's and a cancel's amount in the table's (the screen's).
 * Any other entry, or one whose fields do not read as these kinds' do, null: the log shows its
 * payload as recorded, and says so.
 */
export function entrySaid(type: string, p: Readonly<Record<string, unknown>>): JournalSaidPayload | null {
  const station = typeof p.station === 'number' && Number.isInteger(p.station) ? p.station : null;
  if (station === null) return null;
  const denomination = typeof p.denomination === 'number' && Number.isSafeInteger(p.denomination) ? p.denomination : null;
  const currency = typeof p.currency === 'string' && /^[A-Z]{3}$/.test(p.currency) ? p.currency : null;
  const amount = typeof p.amount === 'number' && Number.isSafeInteger(p.amount) ? p.amount : null;
  const said = (name: string, values: Record<string, SaidValue>): JournalSaidPayload => ({ key: `journalSaid.${name}`, values: bounded(values) });
  switch (type) {
    // Held, credited or given back: one sentence of the note; the log's type column says which.
    case 'bill.escrow':
    case 'bill.credit':
    case 'bill.return':
      return denomination !== null && currency !== null ? said('note', { station, amount: denomination, currency }) : null;
    case 'credit.cancel':
      return amount !== null ? said('creditCancel', { station, amount, reason: typeof p.reason === 'string' ? p.reason : '—' }) : null;
    case 'handpay.request':
      if (amount === null || (p.reason !== 'jackpot' && p.reason !== 'win-limit')) return null;
      return said(p.reason === 'jackpot' ? 'handpayJackpot' : 'handpayWinLimit', { station, amount });
    case 'handpay.confirm':
      if (amount === null || typeof p.attendant !== 'string') return null;
      return said('handpayConfirm', { station, amount, attendant: p.attendant, witness: typeof p.witness === 'string' ? p.witness : '—' });
    default:
      return null;
  }
}
