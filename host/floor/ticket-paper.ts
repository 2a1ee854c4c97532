import type { TicketData } from '../../hardware/printer/ticket.js';
import type { TicketTerms } from '../../terms/ticket-terms.js';
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

/** `2026-11-26 16:40:12` in Macau's time (UTC+8, no summer time), as the ticket prints it. */
function macauStamp(iso: string): string {
  const t = new Date(Date.parse(iso) + 8 * 3_600_000).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)}`;
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
    issuedAt: macauStamp(terms.issuedAt),
    expiresOn: macauStamp(terms.expiresAt).slice(0, 10),
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
