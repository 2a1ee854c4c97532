/**
 * «Desafio ao Casino» (casino war) rule profile, as data with the rule references settlement
 * lines quote.
 *
 * Rule ids: `macau-war [art.N] n.M [al.K]`, the article in brackets because it is reconstructed. The regulation on file (Despacho of 23 Nov 2005,
 * Art. 1 amended by Despacho 63/2007) is a capture without article headings; the numbers are
 * reconstructed from the order of its articles, Art. 1 being the amended list of material:
 * Art. 1 material · Art. 2 shuffle and cut card (n.1 manual shoe, n.2 automatic shuffler-dealer) ·
 * Art. 3 a card leaving the shoe face up is valid · Art. 4 card order (ace high … 2) ·
 * Art. 5 dealing (n.1 players against the croupier, n.2 left to right one card face up each,
 * n.3 players first) · Art. 6 dealing errors (corrected, or the coup is void) ·
 * Art. 7 results (n.1 higher wins, n.2 lower loses, n.3 tie bet 10:1, n.4 surrender or war,
 * n.5 war and its three outcomes, al.1–3). See docs/rules/war.md.
 *
 * Interpretation rules, where the text is silent, are named `macau-war interp:<name>`.
 */
import { z } from 'zod';
import {
  intIn,
  keepFixedByText,
  lookupProfile,
  nonEmptyText,
  ONCE_FIELDS_VALID,
  oneOf,
  outOfRange,
  parseProfile,
  type FixedByText,
} from '../baccarat/profile-schema.js';

export type Shuffling = 'shoe' | 'automatic-shuffler';

/**
 * What a tie on the first cards does to the main bet of a player who also bet the tie. Art. 7 n.4
 * gives the surrender/war choice only to "o jogador que não tenha apostado no empate", and no
 * article says the main bet is lost or won, so by default it is returned; `choose` lets such a
 * player choose surrender or war like everyone else (the usual casino-war practice elsewhere).
 */
export type MainBetOnTieWithTieBet = 'returned' | 'choose';

export interface WarProfile {
  readonly id: string;
  readonly title: string;
  readonly regulation: string;
  readonly decks: number;
  /** Cards behind the cut card ("antes das últimas doze cartas, aproximadamente", Art. 2 n.1). */
  readonly cutCardFromEnd: number;
  /** `automatic-shuffler`: Art. 2 n.2, no cut card; every coup is dealt from the whole shuffled pack. */
  readonly shuffling: Shuffling;
  readonly mainBetOnTieWithTieBet: MainBetOnTieWithTieBet;
  /** Tie bet pays `tiePays`:1 (Art. 7 n.3). */
  readonly tiePays: number;
  /** Cards burned before each war card (Art. 7 n.5). */
  readonly warBurns: number;
}

export const WAR_RULES = {
  win: 'macau-war [art.7] n.1',
  lose: 'macau-war [art.7] n.2',
  tieBetWins: 'macau-war [art.7] n.3',
  surrender: 'macau-war [art.7] n.4 al.1',
  // The timeout's default: n.4 gives the player the choice, not a default (engine/war/table-game.ts).
  surrenderTimedOut: 'macau-war house reading, no article: a tie left undecided in time surrenders',
  // A tie's choice: «pode optar por: 1) Perder metade do valor da aposta inicial; ou 2) Desafiar a casa».
  tieChoice: 'macau-war [art.7] n.4',
  warHigher: 'macau-war [art.7] n.5 al.1',
  warTie: 'macau-war [art.7] n.5 al.2',
  warLower: 'macau-war [art.7] n.5 al.3',
  mainReturned: 'macau-war interp:main-returned-with-tie-bet',
  void: 'macau-war [art.6]',
} as const;

/** What the war text fixes: the tie bet's 10 to 1 and the three cards burned before each war card. */
const WAR_FIXED: Readonly<Record<string, readonly FixedByText[]>> = {
  macau: [
    { path: ['tiePays'], value: 10, rule: 'macau-war [art.7] n.3' },
    { path: ['warBurns'], value: 3, rule: 'macau-war [art.7] n.5' },
  ],
};

/** The profile a table may play: one a text governs. */
export function isRegulatedWarProfile(id: string): boolean {
  return Object.hasOwn(WAR_FIXED, id);
}

/** The rule ids a profile's lines cite: the text's, or none (`generic`) for the analysis profile. */
export function warRulesOf(id: string): Record<keyof typeof WAR_RULES, string> {
  if (isRegulatedWarProfile(id)) return WAR_RULES;
  return Object.fromEntries(Object.keys(WAR_RULES).map((k) => [k, id])) as Record<keyof typeof WAR_RULES, string>;
}

/** The schema of a war profile (for configuration files and service-mode edits). */
export const warProfileSchema = z
  .strictObject(
    {
      id: nonEmptyText(),
      title: nonEmptyText(),
      regulation: nonEmptyText(),
      decks: intIn(1, 16),
      cutCardFromEnd: z.int({ error: 'expected an integer' }),
      shuffling: oneOf(['shoe', 'automatic-shuffler']),
      mainBetOnTieWithTieBet: oneOf(['returned', 'choose']),
      tiePays: intIn(1, 100),
      warBurns: intIn(0, 10),
    },
    { error: 'expected an object' },
  )
  .superRefine((p, ctx) => {
    // At least the simulator's coup (three seats, one war) must fit behind the cut card. A live
    // table of seven seats with several wars can need more than the cards behind it: see
    // docs/rules/war.md, "Shoe running out inside a coup".
    outOfRange(ctx, 'cutCardFromEnd', p.cutCardFromEnd, 4 + 2 * (p.warBurns + 1), 52 * p.decks - 20);
    keepFixedByText(ctx, p, Object.hasOwn(WAR_FIXED, p.id) ? WAR_FIXED[p.id] : undefined);
  }, ONCE_FIELDS_VALID);

export const WAR_PROFILES = {
  macau: parseWarProfile({
    id: 'macau',
    title: 'Macau «Desafio ao Casino»',
    regulation: 'Regulamento oficial do jogo «Desafio ao Casino», Despacho of 23 Nov 2005, Art. 1 amended by Despacho 63/2007',
    decks: 6,
    cutCardFromEnd: 12,
    shuffling: 'shoe',
    mainBetOnTieWithTieBet: 'returned',
    tiePays: 10,
    warBurns: 3,
  }),
  /** No text: every value free, for analysis (`sim`, `round`); no table plays it (its lines cite no article, only the profile: `warRulesOf('generic')`). */
  generic: parseWarProfile({
    id: 'generic',
    title: '«Desafio ao Casino» for analysis: every option free',
    regulation: 'none (analysis)',
    decks: 6,
    cutCardFromEnd: 12,
    shuffling: 'shoe',
    mainBetOnTieWithTieBet: 'returned',
    tiePays: 10,
    warBurns: 3,
  }),
} as const satisfies Record<string, WarProfile>;

export function warProfile(id: string): WarProfile {
  return lookupProfile<WarProfile>('war', WAR_PROFILES, id);
}

/** Checks untrusted profile data and returns it typed. */
export function parseWarProfile(input: unknown): WarProfile {
  return parseProfile(warProfileSchema, input);
}
