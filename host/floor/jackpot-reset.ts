import { jackpotPools, jackpotResetUnder, type Ledger, type NewEntry } from '../../ledger/index.js';
import { AUTHORITY_REFERENCE_MAX, authorityReference } from '../../terms/authority-reference.js';
import type { LiveTable } from '../table/runtime.js';
import type { TableConfig } from '../config/table-config.js';
import { inEnglish, serviceSaid, type Said } from '../config/refusal-words.js';
import { tableRefusal } from './act-said.js';

export interface JackpotResetRequest {
  readonly level: string;
  /** The pool after the reset, minor units. */
  readonly to: number;
  readonly supervisor: string;
  readonly witness: string;
  /** The authority's reference for the reset (rules 40, 44): journalled in its one form (`authorityReference`). */
  readonly authorisation: string;
}

/**
 * Two people set a progressive level (Portugal rules 40, 44), on the authority's reference. What
 * the ledger holds of the level is the players': the reset is refused below it here, before the
 * table is asked, so a refusal never reaches the journal as a write the ledger turns down. The
 * table refuses the rest (the level, rule 44's minimum, a round in play). `also` (service mode's
 * record of who reset it) is journalled in the reset's own transaction: both or neither.
 *
 * One reference authorises one reset: a reset asked under a reference the journal already holds
 * (a person asking again after being told it was done, a double tap, or another level or amount
 * under the same paper) is refused, naming the reset it authorised, and nothing is journalled.
 * Answering it "done" again would tell the person nothing of what happened; resetting again would
 * show an inspector two resets on one authority's word (docs/rules/blackjack.md, "The controller").
 *
 * Every refusal says a key of the catalogues (`say`, `serviceRefusal.*`; the table's from the
 * facts it gives, host/floor/act-said.ts) and its English (`reason`, the log's, the en catalogue's);
 * a table refusal that gives no facts, its English only.
 */
export function resetJackpotLevel(
  d: { ledger: Ledger; table: LiveTable; config: Pick<TableConfig, 'currency'> },
  asked: JackpotResetRequest,
  also: readonly NewEntry[] = [],
): { ok: true } | { ok: false; reason: string; say: Said } {
  const refused = (say: Said) => ({ ok: false as const, reason: inEnglish(say), say });
  // The reference in its one form from here on: what is compared is what is journalled.
  const r = { ...asked, authorisation: authorityReference(asked.authorisation) };
  if (!r.authorisation) return refused(serviceSaid('jackpotNoAuthorisation'));
  const length = r.authorisation.length;
  if (length > AUTHORITY_REFERENCE_MAX) return refused(serviceSaid('jackpotAuthorisationTooLong', { length, max: AUTHORITY_REFERENCE_MAX }));
  if (r.supervisor === r.witness) return refused(serviceSaid('jackpotSamePerson'));
  const used = jackpotResetUnder(d.ledger, r.authorisation);
  if (used)
    return refused(
      serviceSaid('jackpotAuthorisationUsed', {
        authorisation: used.authorisation,
        level: used.level,
        to: used.to,
        currency: d.config.currency,
        seq: used.seq,
      }),
    );
  const held = jackpotPools(d.ledger).find((p) => p.level === r.level)?.pool ?? 0;
  if (r.to < held) return refused(serviceSaid('jackpotBelowHeld', { level: r.level, held, currency: d.config.currency }));
  const out = d.table.input({ kind: 'jackpot-reset', at: Date.now(), ...r }, also);
  if (out.ok) return { ok: true };
  // The person is told by key; the log by that key's English, or the table's own where no key says why.
  return { ok: false, ...tableRefusal(out, d.config.currency) };
}
