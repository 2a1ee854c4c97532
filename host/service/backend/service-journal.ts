import type { Logger } from 'pino';
import type { Ledger, NewEntry } from '../../../ledger/index.js';
import { inEnglish, journalSaidOf, serviceSaid, type Said, type SaidValue } from '../../../locales/said.js';
import type { Catalogue } from '../../../locales/index.js';
import { refusedBy } from '../refusal-words.js';
import type { BackendResult } from '../service-backend.js';
import type { Changes } from './changes.js';

/**
 * A service act's detail: a `journalSaid.act*` key and its parameters (the event log says it in
 * the reader's language, its English is the record's `detail`), or the English alone.
 */
export type ActDetail = string | Said;

/** A service act's detail by key (`journalSaid.<name>`, a phrase the event log puts after the act). */
export function actDetailSaid(name: keyof Catalogue['journalSaid'] & `act${string}`, values: Record<string, SaidValue> = {}): Said {
  return journalSaidOf(name, values);
}

/** What service mode journals of its own acts: an action (one or two people) and a device test. */
export interface ServiceJournal {
  action(by: readonly string[], action: string, detail: ActDetail): void;
  /** A test or switch of a device; the pages redraw. */
  test(who: string, device: string, test: 'note' | 'card' | 'enable' | 'disable' | 'reconnect', result: string): void;
}

/**
 * An action's `service.action` entry, to be journalled in one transaction with the step it records
 * (`appendMany`; a table's step carries it as `also`, host/table/live-table.ts SupervisorCommands):
 * both are written or neither, and the person is told "done" only once both are.
 */
export function serviceActionEntry(by: readonly string[], action: string, detail: ActDetail): NewEntry {
  const [who, second] = by;
  const english = typeof detail === 'string' ? detail : inEnglish(detail);
  return {
    type: 'service.action',
    payload: {
      who: who ?? 'unknown',
      action,
      ...(second ? { confirmedBy: second } : {}),
      detail: english.slice(0, 2000),
      ...(typeof detail === 'string' ? {} : { say: detail }),
    },
  };
}

export function serviceJournal(ledger: Ledger, changes: Changes): ServiceJournal {
  return {
    action(by, action, detail) {
      ledger.append(serviceActionEntry(by, action, detail));
    },
    test(who, device, test, result) {
      ledger.append({ type: 'service.test', payload: { who, device, test, result } });
      changes.changed();
    },
  };
}

/**
 * The record of something already done that no person waits on (an enrolment file discarded at
 * its deadline, from a timer or a session's end): it stands whatever becomes of its record, so a
 * record the journal refuses is logged, never thrown (thrown from a timer, it ended the host).
 */
export function recordOrLog(journal: ServiceJournal, log: Pick<Logger, 'error'>, by: readonly string[], action: string, detail: ActDetail): void {
  try {
    journal.action(by, action, detail);
  } catch (err) {
    log.error({ err, by, action, detail }, 'done; its service.action record was refused by the journal');
  }
}

/**
 * The record of an act whose only trace is that record (a sync retry kicked, a program hash shown),
 * journalled before the act: null when the journal took it, and the act may follow; else the
 * answer that nothing was done (a full disk), the refusal logged. The act done first and its record
 * refused after, the technician was told it failed (with SQLite's words) when it had happened.
 */
export function recordedFirst(
  journal: ServiceJournal,
  log: Pick<Logger, 'error'>,
  by: readonly string[],
  action: string,
  detail: ActDetail,
): Extract<BackendResult, { ok: false }> | null {
  try {
    journal.action(by, action, detail);
    return null;
  } catch (err) {
    log.error({ err, by, action }, 'not done: the journal refused its service.action record');
    return refusedBy(serviceSaid('actNotJournalled'));
  }
}
