import { ENTRY_TYPES } from '../../ledger/index.js';

export type Severity = 'info' | 'warning' | 'critical';

/**
 * How the event log ranks journal entries. By type only, so the filter is a plain SQL `IN`:
 * critical = money or records changed by authority or a card anomaly; warning = what an
 * attendant should look at; info = ordinary play.
 */
const CRITICAL = new Set(['round.void', 'meter.clear', 'misread', 'service.denied']);
const WARNING = new Set(['bill.return', 'door.open', 'door.close', 'power.reset', 'config.change', 'credit.cancel', 'handpay.request', 'handpay.confirm', 'service.action', 'service.account']);

export function severityOf(type: string): Severity {
  return CRITICAL.has(type) ? 'critical' : WARNING.has(type) ? 'warning' : 'info';
}

export function typesOfSeverity(severity: Severity): string[] {
  return ENTRY_TYPES.filter((t) => severityOf(t) === severity);
}
