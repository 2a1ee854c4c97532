import type { JournalledAccount } from './account-journal.js';
import { pinDigest, type PinHash } from './pin-hash.js';

/** What of a row the journal vouches for. */
export interface AuditedRow {
  staff: string;
  name: string;
  role: JournalledAccount['role'];
  pin: PinHash;
  disabled?: boolean;
  lockedUntil: string | null;
}

/**
 * How a row of the accounts store differs from what the journal says of its staff number: nothing
 * (an empty list) or each difference in words. The PIN hash, role, name and whether it is disabled
 * must be the journal's; its lock may be later than the journal's (the store counts a wrong PIN
 * before the host journals it), never earlier while the journal's still runs at `now`.
 */
export function auditAccount(staff: string, row: AuditedRow | undefined, journalled: JournalledAccount | undefined, now: number): string[] {
  if (!row && !journalled) return [];
  if (!journalled) return ['not in the journal'];
  if (!row) return ['journalled, but missing from the accounts store'];
  const problems: string[] = [];
  if (journalled.pin === null) problems.push('journalled without a digest of its PIN hash');
  else if (pinDigest(staff, row.pin) !== journalled.pin) problems.push('its PIN hash is not the one journalled');
  if (row.role !== journalled.role) problems.push(`role ${row.role} in the store, ${journalled.role} in the journal`);
  if (row.name !== journalled.name) problems.push(`named ${JSON.stringify(row.name)} in the store, ${JSON.stringify(journalled.name)} in the journal`);
  const disabled = row.disabled === true;
  if (disabled !== journalled.disabled)
    problems.push(journalled.disabled ? 'disabled in the journal, enabled in the store' : 'enabled in the journal, disabled in the store');
  const jLock = journalled.lockedUntil === null ? null : Date.parse(journalled.lockedUntil);
  const sLock = row.lockedUntil === null ? null : Date.parse(row.lockedUntil);
  if (jLock !== null && jLock > now && (sLock === null || sLock < jLock)) {
    problems.push(
      `locked until ${journalled.lockedUntil} in the journal, ${row.lockedUntil === null ? 'not locked' : `until ${row.lockedUntil}`} in the store`,
    );
  }
  return problems;
}

/** Every difference between the rows and the journal, one line per account (`service account 1002: …`). */
export function auditAccounts(rows: readonly AuditedRow[], journalled: readonly JournalledAccount[], now: number): string[] {
  const byStaff = new Map(journalled.map((a) => [a.staff, a]));
  const staffs = [...new Set([...rows.map((r) => r.staff), ...journalled.map((a) => a.staff)])].sort();
  const rowOf = new Map(rows.map((r) => [r.staff, r]));
  return staffs.flatMap((staff) => {
    const problems = auditAccount(staff, rowOf.get(staff), byStaff.get(staff), now);
    return problems.length ? [`service account ${staff}: ${problems.join('; ')}`] : [];
  });
}
