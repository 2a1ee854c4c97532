import { createHash } from 'node:crypto';
import { authorisationArticle, ruleSetOf, stableJson } from '../../engine/rule-set.js';
import { inEnglish, said, type Said } from './refusal-words.js';
import { tableOptions, type TableConfig } from './table-config.js';

/**
 * The authorisation on record (issue 51): the regulator's reference for the table's whole rule
 * set, the date it takes effect, and the digest of the rule set it was given for. The texts
 * subject every alternative the house determines to prior authorisation, the one it leaves at the
 * text's first wording included (Macau 2009 Art. 21 n.1, baccarat Art. 19; Portugal: the rules the
 * Portaria 1364/2001 approves, the jackpot's program approved under rule 43): so a live table opens
 * only under a reference, whatever its options are. A table whose every device is simulated is a
 * demonstration table: it opens without one, and every screen says what it is.
 */
export interface RuleRecord {
  /** The regulator's reference; null on a demonstration table that has none. */
  readonly reference: string | null;
  /** The day (YYYY-MM-DD) the authorisation takes effect; null where none was given. */
  readonly effective: string | null;
  /** SHA-256 of the rule set's stable JSON (engine/rule-set.ts): what the reference was given for. */
  readonly digest: string;
  readonly game: TableConfig['game'];
  readonly profile: string;
  /** The article that requires the authorisation. */
  readonly article: string;
  /** Every device simulated: no live play, no reference needed. */
  readonly demonstration: boolean;
}

/** Whether every device of the table is simulated (no real card is dealt, no real note taken). */
export function isDemonstration(config: Pick<TableConfig, 'shoe' | 'stations'>): boolean {
  return config.shoe === 'sim' && config.stations.every((s) => s.billAcceptor === 'sim' && (s.printer === undefined || s.printer === 'sim'));
}

/** The digest of a configuration's rule set: the same rules and options give the same digest, whatever their order. */
export function ruleSetDigest(config: Pick<TableConfig, 'game' | 'profile' | 'profileOptions' | 'profileAuthorisation'>): string {
  const set = ruleSetOf(config.game, config.profile, tableOptions(config));
  return createHash('sha256').update(stableJson(set)).digest('hex');
}

/** The record of the configuration's rule set and its authorisation. */
export function ruleRecordOf(config: TableConfig): RuleRecord {
  return {
    reference: config.profileAuthorisation ?? null,
    effective: config.profileAuthorisationEffective ?? null,
    digest: ruleSetDigest(config),
    game: config.game,
    profile: config.profile,
    article: authorisationArticle(config.game, config.profile),
    demonstration: isDemonstration(config),
  };
}

/**
 * Why a live table may not open under `record` (null: it may). `today` is the host's calendar day
 * (YYYY-MM-DD); `recorded`: the digests the journal already holds under the record's reference.
 * A demonstration table always may. A live one needs a reference and the day it takes effect,
 * that day reached, and a reference not already recorded for another rule set: a rule set changed
 * under the same reference is not the one the regulator authorised. Said as a key of the
 * catalogues (`configRefusal.*`) with its parameters; `liveOpenRefusal` is its English.
 */
export function liveOpenSaid(record: RuleRecord, recorded: readonly string[], today: string): Said | null {
  if (record.demonstration) return null;
  const { reference, article } = record;
  if (!reference) return said('noReference', { article, game: record.game, profile: record.profile, digest: record.digest.slice(0, 12) });
  if (!record.effective) return said('noEffective', { reference, article });
  if (record.effective > today) return said('notYetEffective', { reference, effective: record.effective, article });
  return sameReferenceSaid(record, recorded);
}

/** `liveOpenSaid` in English (the host's start refuses to open with it, in its log). */
export function liveOpenRefusal(record: RuleRecord, recorded: readonly string[], today: string): string | null {
  const s = liveOpenSaid(record, recorded, today);
  return s ? inEnglish(s) : null;
}

/** A reference already recorded for another rule set: the rule set changed without a new reference. */
export function sameReferenceSaid(record: Pick<RuleRecord, 'reference' | 'digest' | 'article'>, recorded: readonly string[]): Said | null {
  const other = recorded.find((d) => d !== record.digest);
  if (!record.reference || other === undefined) return null;
  return said('sameReference', { reference: record.reference, recorded: other.slice(0, 12), digest: record.digest.slice(0, 12), article: record.article });
}

/** The record as the journal's `rules.record` payload. */
export function recordPayload(record: RuleRecord, cause: { changeSeq: number; nextStart?: boolean } | 'open') {
  return {
    ...(record.reference ? { reference: record.reference } : {}),
    ...(record.effective ? { effective: record.effective } : {}),
    digest: record.digest,
    game: record.game,
    profile: record.profile,
    article: record.article,
    demonstration: record.demonstration,
    ...(cause === 'open' ? { cause: 'open' as const } : { cause: 'config.change' as const, changeSeq: cause.changeSeq }),
    ...(cause !== 'open' && cause.nextStart ? { takesEffect: 'next-start' as const } : {}),
  };
}
