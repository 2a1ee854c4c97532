import { isRegulated, type OptionKey, type ProfileId, type RegulatedProfileId } from '../rules.js';

/**
 * The article that decides a kind of line under each text: [macau-2009, macau-2004,
 * portugal-2001]; null where the text has no such bet (its option stays off, so no line is made
 * under it; were one made, it would name the profile and cite no article).
 */
export type Articles = readonly [macau2009: string | null, macau2004: string | null, portugal2001: string | null];

/** What a settlement line cites: its article per text, and the rule options that decided it (line-choices.ts). */
export interface Citation {
  readonly articles: Articles;
  readonly options: readonly OptionKey[];
}

const COLUMN: Record<RegulatedProfileId, 0 | 1 | 2> = { 'macau-2009': 0, 'macau-2004': 1, 'portugal-2001': 2 };

/** A line's `rule`: `<profile> <article>` (`macau-2009 art.13 1)(1), art.14 n.1`); the generic profile cites none. */
export function articleOf(profile: ProfileId, articles: Articles): string {
  if (!isRegulated(profile)) return profile;
  const article = articles[COLUMN[profile]];
  return article === null ? profile : `${profile} ${article}`;
}
