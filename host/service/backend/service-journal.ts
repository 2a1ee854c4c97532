import type { Logger } from 'pino';
import type { Ledger, NewEntry } from '../../../ledger/index.js';
import type { Changes } from './changes.js';

/** What service mode journals of its own acts: an action (one or two people) and a device test. */
export interface ServiceJournal {
  action(by: readonly string[], action: string, detail: string): void;
  /**
   * The record of an action whose step another part has journalled already (the table's, a
   * ticket's end): the step stands whatever becomes of its record, so a record the journal refuses
   * is logged, never thrown, and the person is told the action is done (a throw would tell them it
   * failed, and a retry could journal the step twice). False when refused.
   */
  recordAfter(by: readonly string[], action: string, detail: string): boolean;
  /** A test or switch of a device; the pages redraw. */
  test(who: string, device: string, test: 'note' | 'card' | 'enable' | 'disable' | 'reconnect', result: string): void;
}

/** An action's `service.action` entry, to be journalled in one transaction with the step it records (`appendMany`). */
export function serviceActionEntry(by: readonly string[], action: string, detail: string): NewEntry {
  const [who, second] = by;
  return {
    type: 'service.action',
    payload: { who: who ?? 'unknown', action, ...(second ? { confirmedBy: second } : {}), detail: detail.slice(0, 2000) },
  };
}

export function serviceJournal(ledger: Ledger, changes: Changes, log: Pick<Logger, 'error'>): ServiceJournal {
  return {
    action(by, action, detail) {
      ledger.append(serviceActionEntry(by, action, detail));
    },
    recordAfter(by, action, detail) {
      try {
        ledger.append(serviceActionEntry(by, action, detail));
        return true;
      } catch (err) {
        log.error({ err, by, action, detail }, 'a service action is done and journalled; its service.action record was refused by the journal');
        return false;
      }
    },
    test(who, device, test, result) {
      ledger.append({ type: 'service.test', payload: { who, device, test, result } });
      changes.changed();
    },
  };
}
