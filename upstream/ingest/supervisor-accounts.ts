// Every account a table's journal makes a supervisor reaches the floor as an alarm
// (`supervisor-account`). A second process of the kiosk user can append a well-formed
// `service.account` entry through the ledger's own code, and the matching accounts-store row: the
// table's audit and its witness pass it (docs/security.md, "Service accounts"); the upstream's copy
// of the journal is what sees it. Raised in the batch's transaction, as the kiosk faults are
// (kiosk-faults.ts), and bounded the same way per batch.
import { z } from 'zod';
import { raiseAlarm } from '../alarm.js';
import type { Sql } from '../sql.js';
import type { JournalColumns } from './fresh-rows.js';
import { FAULT_ALARMS_EACH, payloadOf } from './kiosk-faults.js';

export const SUPERVISOR_ACCOUNT_ALARM = 'supervisor-account';

/** How many staff numbers the adoption's one alarm lists (its count says how many there were). */
export const ADOPTED_STAFF_LISTED = 100;

export const ACCOUNT_ROLES = ['technician', 'supervisor', 'auditor'] as const;
export const ACCOUNT_ACTIONS = ['disable', 'enable', 'unlock', 'reset-pin', 'role', 'adopt'] as const;

/**
 * What the fold reads of a `service.account` payload (ledger/service-payloads.ts, which the
 * upstream does not import; tests/security/supervisor-account-fold.test.ts keeps the two in step).
 * Not strict: an entry with a field more is refused by the table's reading, and alarming it costs nothing.
 */
const AccountEntry = z.object({
  by: z.string(),
  staff: z.string(),
  name: z.string(),
  role: z.enum(ACCOUNT_ROLES),
  action: z.enum(ACCOUNT_ACTIONS).optional(),
  pin: z.string().optional(),
  disabled: z.boolean().optional(),
});
export type AccountEntry = z.infer<typeof AccountEntry>;

/** An account as the table's journal leaves it, what of it makes a supervisor. */
export interface Standing {
  role: AccountEntry['role'];
  disabled: boolean;
  pin: string | null;
}

/**
 * The account after the entry, folded as the table folds it (host/service/account-journal.ts
 * `JournalledAccounts.apply`): an add or an adoption is the account anew, and so is any action on a
 * staff number no entry named before (with the entry's role and PIN); an enable keeps the role the
 * account had, whatever the entry says. Reading the entry alone would miss both.
 */
export function foldAccount(known: Standing | undefined, p: AccountEntry): Standing {
  if (p.action === undefined || p.action === 'adopt' || !known)
    return { role: p.role, disabled: p.action === 'disable' ? true : (p.disabled ?? false), pin: p.pin ?? known?.pin ?? null };
  switch (p.action) {
    case 'disable':
      return { ...known, disabled: true };
    case 'enable':
      return { ...known, disabled: false };
    case 'role':
      return { ...known, role: p.role };
    case 'reset-pin':
      return { ...known, pin: p.pin ?? known.pin };
    default:
      return known;
  }
}

const acts = (s: Standing | undefined): boolean => s !== undefined && s.role === 'supervisor' && !s.disabled;

/**
 * Whether the entry made a supervisor: an account that acts as one after it and did not before, or
 * did with another PIN (whoever set the new one knows it). A supervisor's own new PIN counts too:
 * `by` is what the appender wrote, so it cannot exempt an entry.
 */
export function makesSupervisor(before: Standing | undefined, after: Standing): boolean {
  return acts(after) && (!acts(before) || before?.pin !== after.pin);
}

type Detail = { seq: number; staff: string; name: string; action: string; role: string; by: string };

/**
 * Raises `supervisor-account` for each of the batch's `service.account` entries that makes a
 * supervisor, `{seq, staff, name, action, role, by}` (never the PIN's digest), up to
 * FAULT_ALARMS_EACH; past them one alarm more, the first's detail with their `count` and `seqs`.
 * The adoptions (the one-time baseline) that leave a supervisor are one alarm, `{seq, action:
 * 'adopt', role, count, staff}`. The accounts the batch names are folded from the table's earlier
 * entries first (journal_type index), so an entry is read as the table reads it.
 */
export async function raiseSupervisorAccountAlarms(tx: Sql, terminal: string, cols: JournalColumns): Promise<void> {
  const entries = accountEntries(cols);
  const first = cols.seq[0];
  if (entries.length === 0 || first === undefined) return;
  const standing = await standingBefore(tx, terminal, first, [...new Set(entries.map((e) => e.p.staff))]);
  const made: Detail[] = [];
  const adopted: { seq: number; staff: string }[] = [];
  for (const { seq, p } of entries) {
    const before = standing.get(p.staff);
    const after = foldAccount(before, p);
    standing.set(p.staff, after);
    if (p.action === 'adopt') {
      if (acts(after)) adopted.push({ seq, staff: p.staff.slice(0, 16) });
    } else if (makesSupervisor(before, after)) {
      made.push({ seq, staff: p.staff.slice(0, 16), name: p.name.slice(0, 128), action: p.action ?? 'add', role: after.role, by: p.by.slice(0, 128) });
    }
  }
  for (const d of made.slice(0, FAULT_ALARMS_EACH)) await raiseAlarm(tx, terminal, SUPERVISOR_ACCOUNT_ALARM, d);
  const rest = made.slice(FAULT_ALARMS_EACH);
  if (rest[0]) await raiseAlarm(tx, terminal, SUPERVISOR_ACCOUNT_ALARM, { ...rest[0], count: rest.length, seqs: rest.map((d) => d.seq) });
  if (adopted[0]) {
    await raiseAlarm(tx, terminal, SUPERVISOR_ACCOUNT_ALARM, {
      seq: adopted[0].seq,
      action: 'adopt',
      role: 'supervisor',
      count: adopted.length,
      staff: adopted.slice(0, ADOPTED_STAFF_LISTED).map((a) => a.staff),
    });
  }
}

/** The batch's `service.account` entries that read as one (the others the table's reading refuses: no account). */
function accountEntries(cols: JournalColumns): { seq: number; p: AccountEntry }[] {
  const out: { seq: number; p: AccountEntry }[] = [];
  for (let i = 0; i < cols.type.length; i++) {
    if (cols.type[i] !== 'service.account') continue;
    const p = AccountEntry.safeParse(payloadOf(cols.body[i] ?? ''));
    if (p.success) out.push({ seq: cols.seq[i] as number, p: p.data });
  }
  return out;
}

/** The accounts `staff` as the table's entries before `seq` leave them. */
async function standingBefore(tx: Sql, terminal: string, seq: number, staff: string[]): Promise<Map<string, Standing>> {
  const r = await tx.query<{ body: string }>(
    `SELECT body FROM journal
     WHERE terminal_id = $1 AND type = 'service.account' AND seq < $2 AND doc->'payload'->>'staff' = ANY($3::text[])
     ORDER BY seq`,
    [terminal, seq, staff],
  );
  const standing = new Map<string, Standing>();
  for (const row of r.rows) {
    const p = AccountEntry.safeParse(payloadOf(row.body));
    if (p.success) standing.set(p.data.staff, foldAccount(standing.get(p.data.staff), p.data));
  }
  return standing;
}
