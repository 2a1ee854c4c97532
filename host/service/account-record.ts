import { z } from 'zod';
import { ServiceRole, StaffNumber } from '../../protocol/index.js';
import { inEnglish, serviceSaid, type Said } from '../../locales/said.js';

// A service account as its row in the accounts store holds it (host/service/accounts.ts), and
// what a change does to that row. A change is written first as a proposal, journalled, then
// applied (`AccountStore.mutate`), so the schema of a change is stored too.

/**
 * A refusal of the accounts in words a supervisor reads: the command line prints its English
 * (`message`); one said by key (`say`, a `serviceRefusal.*` key) is what service mode shows, in
 * the screen's language (its English is the en catalogue's).
 */
export class AccountError extends Error {
  readonly say: Said | undefined;
  constructor(words: string | Said) {
    super(typeof words === 'string' ? words : inEnglish(words));
    this.say = typeof words === 'string' ? undefined : words;
  }
}

export const PinRecord = z.strictObject({
  algorithm: z.literal('scrypt'),
  N: z.number().int(),
  r: z.number().int(),
  p: z.number().int(),
  salt: z.string(),
  hash: z.string(),
});

export const Account = z.strictObject({
  staff: StaffNumber,
  name: z.string().min(1).max(64),
  role: ServiceRole,
  pin: PinRecord,
  createdAt: z.string(),
  createdBy: z.string(),
  /** Wrong PINs since the last success, each counted before its PIN is hashed; persisted so a restart does not reset it. */
  failures: z.number().int().nonnegative(),
  lockedUntil: z.string().nullable(),
  /** The last ledger entry that recorded this account (absent: not journalled yet, a set-up before the first start). */
  journalledSeq: z.number().int().positive().optional(),
  /** Disabled by a supervisor: refused at sign-in and as a second person until enabled again. */
  disabled: z.boolean().optional(),
  /**
   * What a supervisor did to this account on the command line before the data folder had a ledger
   * (the first set-up): journalled once, before the baseline, when the accounts are adopted.
   */
  unjournalled: z
    .array(z.strictObject({ action: z.enum(['disable', 'enable', 'unlock', 'reset-pin']), by: z.string().min(1).max(128), at: z.string() }))
    .max(64)
    .optional(),
});
export type Account = z.infer<typeof Account>;

export const AccountsFile = z.strictObject({ version: z.literal(1), accounts: z.array(Account) });

/** What a change does to an account's row: proposed, journalled, then applied (`mutate`). */
export const Change = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('add'), account: Account }),
  z.strictObject({
    kind: z.literal('set'),
    pin: PinRecord.optional(),
    role: ServiceRole.optional(),
    disabled: z.boolean().optional(),
    /** Lifts the lock and starts the count of wrong PINs anew. */
    unlock: z.boolean().optional(),
  }),
]);
export type Change = z.infer<typeof Change>;

/** The row a change leaves (`seq`: the entry that journalled it). */
export function applyChange(change: Change, row: Account | undefined, seq?: number): Account {
  if (change.kind === 'add') return { ...change.account, ...(seq !== undefined ? { journalledSeq: seq } : {}) };
  if (!row) throw new AccountError(serviceSaid('accountGone'));
  const next: Account = {
    ...row,
    ...(change.pin ? { pin: change.pin } : {}),
    ...(change.role ? { role: change.role } : {}),
    ...(change.disabled !== undefined ? { disabled: change.disabled } : {}),
    ...(change.unlock ? { failures: 0, lockedUntil: null } : {}),
    ...(seq !== undefined ? { journalledSeq: seq } : {}),
  };
  if (next.disabled === false) delete next.disabled;
  return next;
}
