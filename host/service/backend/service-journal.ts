import type { Ledger } from '../../../ledger/index.js';
import type { Changes } from './changes.js';

/** What service mode journals of its own acts: an action (one or two people) and a device test. */
export interface ServiceJournal {
  action(by: readonly string[], action: string, detail: string): void;
  /** A test or switch of a device; the pages redraw. */
  test(who: string, device: string, test: 'note' | 'card' | 'enable' | 'disable' | 'reconnect', result: string): void;
}

export function serviceJournal(ledger: Ledger, changes: Changes): ServiceJournal {
  return {
    action(by, action, detail) {
      const [who, second] = by;
      ledger.append({
        type: 'service.action',
        payload: { who: who ?? 'unknown', action, ...(second ? { confirmedBy: second } : {}), detail: detail.slice(0, 2000) },
      });
    },
    test(who, device, test, result) {
      ledger.append({ type: 'service.test', payload: { who, device, test, result } });
      changes.changed();
    },
  };
}
