import { z } from 'zod';
import { TableId } from '../terms/transfer-terms.js';
import { station, who } from '../terms/payload-fields.js';

// Service mode (issue 9) and the credentials this table trusts (remote stations, peer tables), as
// the journal keeps them (gathered into ledger/entries.ts). None of these moves credit or changes
// a meter: entering service mode never touches accounting. `staff` is the badge number, `who` the
// account's name.

export const SERVICE_PAYLOADS = {
  /** A person signed in to service mode. */
  'service.enter': z.strictObject({ who, staff: z.string().min(1).max(16), role: z.enum(['technician', 'supervisor', 'auditor']) }),
  /**
   * A service session ended: signed out, idle timeout, screen gone, host stopping, or — journalled
   * at the next start — the host was killed or lost power with the session open. `enterSeq`
   * names the session's `service.enter` (absent on entries of earlier versions).
   */
  'service.exit': z.strictObject({
    who,
    staff: z.string().min(1).max(16),
    /** `confirmed`: the session of a second person, opened by their PIN on another's two-person pad, ended with the act. */
    reason: z.enum(['sign-out', 'idle', 'disconnect', 'host-stop', 'power-loss', 'confirmed']),
    enterSeq: z.number().int().positive().optional(),
  }),
  /**
   * A refused sign-in or confirmation (wrong PIN, locked, unknown staff number; `integrity`: the
   * account's row in the accounts store is not what the journal's `service.account` entries say).
   */
  'service.denied': z.strictObject({
    staff: z.string().min(1).max(16),
    reason: z.enum(['bad-pin', 'locked', 'unknown', 'disabled', 'same-person', 'role', 'integrity']),
    lockedUntil: z.iso.datetime().optional(),
  }),
  /**
   * A service account was added (by the first-run set-up or a supervisor), or a supervisor
   * disabled, enabled or unlocked it, set its PIN anew or gave it another role (`action`; absent:
   * added). `adopt`: an account the accounts store held before accounts were journalled in full,
   * journalled once as found (the baseline; `AccountStore.adopt`, host/service/accounts.ts). The
   * accounts store is checked against these entries (host/service/accounts-audit.ts).
   */
  'service.account': z.strictObject({
    by: who,
    staff: z.string().min(1).max(16),
    name: who,
    /** The account's role; for `role`, the new one. */
    role: z.enum(['technician', 'supervisor', 'auditor']),
    action: z.enum(['disable', 'enable', 'unlock', 'reset-pin', 'role', 'adopt']).optional(),
    /**
     * A digest of the account's PIN hash (host/service/pin-hash.ts `pinDigest`), never the hash:
     * on an add, an adoption and a new PIN. Absent on entries of earlier versions.
     */
    pin: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    /** `adopt`: whether the account was disabled when adopted. */
    disabled: z.boolean().optional(),
  }),
  /**
   * A remote station's credential enrolled (by two people in service mode), revoked, or — `adopt` —
   * journalled once as the registry (`remote-stations.json`) held it before credentials were
   * journalled. `credential`: a digest of the stored SHA-256 of its secret
   * (host/stadium/credential-journal.ts), never the secret; absent on a revocation. The registry is
   * checked against these entries, so a credential swapped in the file connects no more. `none`:
   * the first start whose journal had no station entry found no station in force in the registry,
   * so there was nothing to adopt; it names no station and carries no credential. Journalled once:
   * rows that appear in the registry after it are compared with the journal like any others
   * (refused, not adopted), as a peer table's `none` closes the peers' adoption.
   */
  'station.credential': z
    .strictObject({
      station: station.optional(),
      action: z.enum(['enrol', 'revoke', 'adopt', 'none']),
      by: z.array(who).min(1).max(2),
      credential: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
    })
    .refine((p) => (p.action === 'none' ? p.station === undefined && p.credential === undefined : p.station !== undefined), {
      message: 'a station credential entry names its station, and `none` names none and carries no credential',
    }),
  /**
   * A peer table this host trusts for transfers (issue 50): enrolled, revoked, or — `adopt` — journalled
   * once as the data folder's `peers.json` and `peer-credentials.json` held it when peers were first
   * journalled. `digest`: SHA-256 over what the two files say of it (its address, its certificate's
   * fingerprint, the stations homed there, the SHA-256 of the secret it gave us and of the one we
   * gave it; host/peers/peer-journal.ts), never a secret; absent on a revocation. The files are
   * checked against these entries at start, so a peer swapped or added in them is refused.
   */
  'peer.credential': z.strictObject({
    table: TableId,
    /**
     * `issue`: this table made an enrolment file for `table` (a new credential `table` dials this
     * host with, its secret kept only hashed); `withdraw`: that credential revoked, the peer kept
     * for this host's own link to it (host/peers/peer-offer.ts). `none`: the first start whose
     * journal had no peer entry found no peer in the files, so there was nothing to adopt; `table`
     * is this table itself. Journalled once: files that appear after it are compared with the
     * journal like any others (refused, not adopted).
     */
    action: z.enum(['enrol', 'revoke', 'adopt', 'issue', 'withdraw', 'none']),
    by: z.array(who).min(1).max(2),
    digest: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    /** The enrolment file's credential id and when it was made: on `issue` (the maker's) and on an `enrol` from a signed file (the receiver's, which takes an id once). */
    credential: z
      .string()
      .regex(/^[0-9a-f]{32}$/)
      .optional(),
    issuedAt: z.iso.datetime().optional(),
  }),
} as const;
