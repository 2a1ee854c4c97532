import type { TicketData } from '../../hardware/printer/ticket.js';
import type { TicketTerms } from '../../terms/ticket-terms.js';
import { MACAU_OFFSET_MS, macauDay, macauStamp } from '../config/macau-time.js';
import { amountInWordsPt, amountInWordsZh, catalogues, wordAt } from '../../locales/index.js';

// What a cash-out ticket prints (docs/tito.md): the terms journalled in `ticket.issue`, in the
// words of the ticket's two languages (Chinese and Portuguese, as Macau's official documents),
// from the catalogues — never written here.

function label(key: keyof TicketData['labels']): string {
  const zh = wordAt(catalogues['zh-Hant'], `ticketPaper.${key}`);
  const pt = wordAt(catalogues.pt, `ticketPaper.${key}`);
  if (!zh || !pt) throw new Error(`the catalogues have no ticketPaper.${key}`);
  return `${zh} ${pt}`;
}

const DAY_MS = 86_400_000;

/**
 * When a ticket issued at `issued` stops being redeemable: as the day in Macau `days` after its
 * issue ends (the instant the next one begins there). The paper prints that day as the last it is
 * valid ("valid until", `expiresOn`), and a player reads it so. Until 6 December the expiry was the
 * hour of issue `days` later: a ticket issued at 18:00 was refused `expired` from 18:00 of the day
 * its paper named, and one issued just after midnight named the day after its expiry.
 */
export function ticketExpiresAt(issued: Date, days: number): Date {
  const lastDay = Math.floor((issued.getTime() + MACAU_OFFSET_MS) / DAY_MS) + days;
  return new Date((lastDay + 1) * DAY_MS - MACAU_OFFSET_MS);
}

/** The last day in Macau a ticket expiring at `expiresAt` is valid: the day of the instant before. */
function lastDayValid(expiresAt: string): string {
  return macauDay(Date.parse(expiresAt) - 1);
}

export function ticketPaper(terms: TicketTerms, tableId: string): TicketData {
  const currency = terms.currency === 'HKD' ? 'HKD' : 'MOP';
  return {
    validationNumber: terms.validation,
    amount: { minor: terms.amount, currency },
    amountInWords: { zh: amountInWordsZh(terms.amount, currency), pt: amountInWordsPt(terms.amount, currency) },
    table: tableId,
    station: terms.station,
    ticketNumber: terms.sequence,
    issuedAt: macauStamp(Date.parse(terms.issuedAt)),
    expiresOn: lastDayValid(terms.expiresAt),
    labels: {
      title: label('title'),
      validation: label('validation'),
      table: label('table'),
      station: label('station'),
      ticketNumber: label('ticketNumber'),
      issued: label('issued'),
      expires: label('expires'),
    },
  };
}
