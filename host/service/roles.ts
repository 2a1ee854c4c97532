import type { ServiceActionKind, ServiceRole } from '../../protocol/index.js';

/**
 * Who may start which action. An auditor reads every page and export and changes nothing; a
 * technician runs the diagnostics and may be the second person of a two-person action; a
 * supervisor does everything and is the only one who may start a two-person action.
 */
const MAY_START: Record<ServiceRole, ReadonlySet<ServiceActionKind>> = {
  auditor: new Set(),
  technician: new Set([
    'test-note',
    'test-card',
    'device-enable',
    'device-reconnect',
    'sync-retry',
    'program-hash',
    'handpay-confirm',
    'ticket-settle',
    'ticket-in-settle',
    'note-settle',
    'clear-tilt',
  ]),
  supervisor: new Set([
    'void-round',
    'enter-card',
    'dealing-error',
    'correct',
    'meter-clear',
    'config-change',
    'handpay-confirm',
    'ticket-settle',
    'ticket-in-settle',
    'note-settle',
    'new-shoe',
    'table-open',
    'test-note',
    'test-card',
    'device-enable',
    'device-reconnect',
    'sync-retry',
    'program-hash',
    'clear-tilt',
    'station-enrol',
    'station-revoke',
    'peer-add',
    'peer-revoke',
    'peer-issue',
    'peer-withdraw',
    'transfer-settle',
    'jackpot-reset',
    'cashbox-drop',
    'account-unlock',
  ]),
};

export function mayStart(role: ServiceRole, action: ServiceActionKind): boolean {
  return MAY_START[role].has(action);
}

/** The second person of a two-person action: anyone but an auditor, and never the first person. */
export function mayConfirm(role: ServiceRole): boolean {
  return role !== 'auditor';
}

/** A two-person action must be started by a supervisor. */
export function mayStartTwoPerson(role: ServiceRole): boolean {
  return role === 'supervisor';
}
