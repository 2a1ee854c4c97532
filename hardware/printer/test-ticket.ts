// A well-formed ticket for tests, the simulated mode and the fuzz (each caller changes what it needs).
import type { TicketData } from './ticket.js';

export function sampleTicket(over: Partial<TicketData> = {}): TicketData {
  return {
    validationNumber: '123456789012345678',
    amount: { minor: 10_000, currency: 'MOP' },
    amountInWords: { zh: '澳門元壹佰圓正', pt: 'cem patacas' },
    table: 'T-01',
    station: 3,
    ticketNumber: 42,
    issuedAt: '2026-11-26 16:40:12',
    expiresOn: '2027-02-24',
    labels: {
      title: '兌現票 TALÃO DE PAGAMENTO',
      validation: '驗證號碼 VALIDAÇÃO',
      table: '博彩桌 MESA',
      station: '投注機 POSTO',
      ticketNumber: '票號 TALÃO N.º',
      issued: '日期 DATA',
      expires: '有效期至 VÁLIDO ATÉ',
    },
    ...over,
  };
}
