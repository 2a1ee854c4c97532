import { resolveBaccarat } from './baccarat/options.js';
import { isProfileId, resolveRules } from './blackjack/rules.js';
import { JACKPOT_PROGRAM_OPTION } from './blackjack/jackpot/option.js';
import type { GameKind } from './table/vocabulary.js';
import { resolveWar } from './war/options.js';

/**
 * A table's whole rule set as the regulator authorises it (issue 51): the game, its profile, every
 * value the table plays under once its options are applied (defaults and alternatives alike, since
 * the house's determination of each is what the text subjects to prior authorisation), and the
 * options as configured. The authorisation reference is not part of it: a reference is recorded
 * *for* a rule set, whose digest is taken over this (host/config/authorisation.ts).
 */
export interface RuleSet {
  readonly game: GameKind;
  readonly profile: string;
  /** The resolved profile: every rule value the table plays under. */
  readonly rules: unknown;
  /** The options over the profile's defaults, as configured (the jackpot program among them). */
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * The rule set of a game under `options` (which may carry `authorisation`: it is left out). Throws
 * the guard's RuleOptionsError where the options are refused, as building the game would.
 */
export function ruleSetOf(game: GameKind, profile: string, options: Readonly<Record<string, unknown>>): RuleSet {
  const { authorisation: _reference, ...chosen } = options;
  void _reference;
  return { game, profile, rules: withoutReference(resolved(game, profile, options)), options: chosen };
}

function resolved(game: GameKind, profile: string, options: Readonly<Record<string, unknown>>): unknown {
  switch (game) {
    case 'blackjack': {
      if (!isProfileId(profile)) throw new RangeError(`no blackjack profile "${profile}"`);
      const { [JACKPOT_PROGRAM_OPTION]: _program, ...rules } = options;
      void _program;
      return resolveRules(profile, rules);
    }
    case 'baccarat':
      return resolveBaccarat(profile, options).profile;
    case 'war':
      return resolveWar(profile, options).profile;
  }
}

function withoutReference(rules: unknown): unknown {
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) return rules;
  const { authorisation: _reference, ...rest } = rules as Record<string, unknown>;
  void _reference;
  return rest;
}

/**
 * JSON with every object's keys sorted and `undefined` members dropped: the same rule set always
 * gives the same text, whatever order a configuration file or a service-mode change wrote it in.
 * (Unlike the ledger's canonical JSON, fractions are allowed: a profile's figures may have them.)
 */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stableJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

/** 56/2004 names no authorisation of the house's choices: a live table asks for one all the same. */
const MACAU_2004_AUTHORISATION = 'macau-2004 house reading, no article: 56/2004 subjects no house choice to prior authorisation';

/**
 * The article that subjects the house's determination of a profile's rule set to prior
 * authorisation, as the texts on file word it:
 *
 * - Macau 2009 Art. 21 n.1 ("A determinação, pela casa, das opções previstas nos artigos 1.º … está
 *   sujeita a prévia autorização da Direcção de Inspeção e Coordenação de Jogos"), with n.2 (the
 *   waivers of Arts. 15, 18) and n.3 (Par Perfeito, Winning Streak);
 * - 56/2004 has no such article: its Despacho approves the regulation (n.1) and the annex subjects
 *   none of the house's alternatives to prior authorisation. The 2009 text that revoked it is not
 *   its to cite (a review, 1 December), so the record says the requirement is the house's reading;
 * - the baccarat regulation's Art. 19 (as 73/2005 words it: the alternatives of Arts. 2, 3, 7, 12, 18);
 * - Portugal: the rules are those the Portaria 1364/2001 approves (its 1.º), and the jackpot's
 *   combinations and proportions are "aprovadas pela Inspecção-Geral de Jogos" (rule 43);
 * - «Desafio ao Casino»: the Despacho of 23 Nov 2005 authorises the game's exploitation (its n.1)
 *   and the text on file names no article for the house's choices.
 */
export function authorisationArticle(game: GameKind, profile: string): string {
  switch (game) {
    case 'blackjack':
      if (profile === 'portugal-2001') return 'portugal-2001 Portaria 1364/2001 1.º, rule 43';
      if (profile === 'macau-2004') return MACAU_2004_AUTHORISATION;
      return 'macau-2009 art.21 n.1';
    case 'baccarat':
      return 'macau-baccarat art.19';
    case 'war':
      return 'macau-war Despacho of 23 Nov 2005 n.1 (no authorisation article on file)';
  }
}
