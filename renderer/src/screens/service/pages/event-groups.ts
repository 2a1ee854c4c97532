/** The event log's type groups: every journal entry type is in one (ledger/entries.ts). */
export const EVENT_GROUPS = {
  service: ['service.enter', 'service.exit', 'service.denied', 'service.account', 'station.credential', 'peer.credential', 'service.test', 'service.action'],
  round: ['table.input', 'bet.place', 'round.decision', 'round.settle', 'round.void', 'held.return'],
  card: ['card.read', 'misread', 'shoe.change'],
  bill: ['bill.escrow', 'bill.credit', 'bill.return', 'bill.refused', 'cashbox.drop'],
  handpay: ['credit.cancel', 'handpay.request', 'handpay.confirm'],
  tilt: ['tilt.raise', 'tilt.clear'],
  config: ['config.change', 'config.refused', 'rules.record'],
  door: ['door.open', 'door.close'],
  power: ['power.reset'],
  meter: ['meter.clear'],
  jackpot: ['jackpot.settle', 'jackpot.reset'],
  transfer: [
    'transfer.out',
    'transfer.recall',
    'transfer.complete',
    'transfer.reverse',
    'transfer.in',
    'transfer.refuse',
    'transfer.alarm',
    'aft.in',
    'aft.out',
    'aft.register',
  ],
  ticket: [
    'ticket.issue',
    'ticket.printed',
    'ticket.void',
    'ticket.redeem.request',
    'ticket.redeem.approved',
    'ticket.redeem.stacked',
    'ticket.redeem.returned',
    'ticket.validation.request',
    'ticket.validation.end',
  ],
} as const;
export type EventGroup = keyof typeof EVENT_GROUPS;
export const GROUP_NAMES = Object.keys(EVENT_GROUPS) as EventGroup[];
