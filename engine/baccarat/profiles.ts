/**
 * Baccarat rule profiles: data, checked by `parseBaccaratProfile`, each option carrying the rule
 * reference that settlement lines quote.
 *
 * Rule ids: `macau-baccarat art.N n.M` for Despacho 55/2004 as amended (73/2005 … 56/2018). Every
 * line cites an article found (docs/rules/baccarat.md): the bet's own in Art. 13 n.1 (as worded by
 * 64/2007), with Art. 17, the prizes, where a prize is paid (its n.1–4, the figures of the player,
 * tie and pair prizes, were not found: the article is cited without its number); Art. 18 for the
 * banker's wins.
 *
 * The schema (zod, `baccaratProfileSchema`) refuses unknown keys, wrong types and out-of-range
 * values with the path of the offending field (`profile-schema.ts`).
 */
import { z } from 'zod';
import { intIn, keepFixedByText, lookupProfile, nonEmptyText, ONCE_FIELDS_VALID, oneOf, outOfRange, parseProfile, type FixedByText } from './profile-schema.js';

export { ProfileError } from './profile-schema.js';

/**
 * The articles the lines cite. Art. 13 n.1 names the bets (1) player, 2) banker, 3) tie, 4)(1) the
 * pairs, 4)(3) «6 Sortudo»); Art. 17 is «Prémios» (彩金), the article of every bet's prize (69/2009
 * adds its n.13 "extra prizes beyond those of the preceding numbers"; 56/2018 puts Lucky 6's in its
 * n.5). Where a line pays no prize (a banker bet lost, a bet returned on a tie) it cites the bet's
 * article alone: the article that returns player and banker on a tie was not found.
 */
export const BACCARAT_RULES = {
  player: 'macau-baccarat art.13 n.1 1), art.17',
  tie: 'macau-baccarat art.13 n.1 3), art.17',
  pair: 'macau-baccarat art.13 n.1 4)(1), art.17',
  playerBet: 'macau-baccarat art.13 n.1 1)',
  bankerBet: 'macau-baccarat art.13 n.1 2)',
  tieStandsOff: 'macau-baccarat art.13 n.1 1)–2)',
  commission: 'macau-baccarat art.18 n.1',
  noCommission: 'macau-baccarat art.18 n.2',
  lucky6: 'macau-baccarat art.13 n.1 4)(3), art.17 n.5',
} as const;

/**
 * What the 2005 text of Art. 18 fixes for each regulated profile: the alternative itself and its
 * figure. The figures of the other prizes (Art. 17 n.1–4) were not found: they are the profile
 * data, fixed as a table plays them (engine/baccarat/options.ts).
 */
const BACCARAT_FIXED: Readonly<Record<string, readonly FixedByText[]>> = {
  'macau-commission': [
    { path: ['banker', 'kind'], value: 'commission', rule: 'macau-baccarat art.18 n.1' },
    { path: ['banker', 'commissionBasisPoints'], value: 500, rule: 'macau-baccarat art.18 n.1' },
  ],
  'macau-no-commission': [
    { path: ['banker', 'kind'], value: 'no-commission', rule: 'macau-baccarat art.18 n.2' },
    { path: ['banker', 'winOnSixBasisPoints'], value: 5000, rule: 'macau-baccarat art.18 n.2' },
  ],
};

/** A payout ratio `win : stake`, e.g. 8:1 is `{ win: 8, per: 1 }`. */
export interface Payout {
  readonly win: number;
  readonly per: number;
  readonly rule: string;
}

export type BankerRule =
  | {
      /** Art. 18 n.1 (2005): 5% commission on the banker's winnings. */
      readonly kind: 'commission';
      /** The commission in basis points of the winnings (500 = 5%). */
      readonly commissionBasisPoints: number;
      readonly rule: string;
    }
  | {
      /** Art. 18 n.2 (2005): no commission; a banker win on 6 points pays 50% of the stake. */
      readonly kind: 'no-commission';
      readonly winOnSixBasisPoints: number;
      readonly rule: string;
      readonly winOnSixRule: string;
    };

export const BURN_FORMULAS = ['first-card-value', 'decks', 'fixed', 'none'] as const;
export type BurnFormula = (typeof BURN_FORMULAS)[number];

export interface BaccaratProfile {
  readonly id: string;
  readonly title: string;
  /** The text the profile implements. */
  readonly regulation: string;
  /** Where the casino's choice between alternatives needs the regulator's prior authorisation. */
  readonly authorisation: string;
  readonly decks: number;
  /** Cards behind the cut card (placed about 16 from the end). */
  readonly cutCardFromEnd: number;
  /** Coups dealt after the one during which the cut card came out. */
  readonly coupsAfterCutCard: number;
  /**
   * The cards voided at shoe start, by one of Art. 2 n.1's alternative formulas (83/2011): as many
   * as the decks (`decks`), as the face value of the first card turned (`first-card-value`: tens
   * and faces 10), or a number 1–8 the house fixed beforehand (`fixed`, `burnFixedCards`); or none
   * where an automatic shuffler-dealer deals (`none`, Art. 2 n.3).
   */
  readonly burn: BurnFormula;
  /** The house's fixed number of cards to void under `burn: 'fixed'` (Art. 2 n.1 3): one to eight). */
  readonly burnFixedCards: number;
  readonly banker: BankerRule;
  readonly payouts: {
    readonly player: Payout;
    readonly tie: Payout;
    readonly playerPair: Payout;
    readonly bankerPair: Payout;
    /** «6 Sortudo» (Art. 17 n.5, 56/2018): the banker wins with 6 on its first two cards … */
    readonly lucky6Two: Payout;
    /** … or with 6 after a third card. */
    readonly lucky6Three: Payout;
  };
  /** Whether the table offers «6 Sortudo» (Art. 13 n.1 4)(3)); its figures are the text's either way. */
  readonly lucky6: boolean;
  /**
   * The article of the player and banker bets themselves (Art. 13 n.1 1), 2)), quoted where their
   * line pays no prize: returned on a tie, a banker bet lost (Art. 18 speaks of the banker's wins).
   */
  readonly betRules: { readonly player: string; readonly banker: string };
  /** The pay table's line "player and banker returned on a tie". */
  readonly tiePushRule: string;
}

const payoutSchema = z.strictObject({ win: intIn(0, 1000), per: intIn(1, 1000), rule: nonEmptyText() }, { error: 'expected an object' });

const bankerSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('commission'), commissionBasisPoints: intIn(0, 10000), rule: nonEmptyText() }),
    z.strictObject({ kind: z.literal('no-commission'), winOnSixBasisPoints: intIn(0, 10000), rule: nonEmptyText(), winOnSixRule: nonEmptyText() }),
  ],
  { error: 'expected one of commission, no-commission' },
);

/** The schema of a baccarat profile (for configuration files and service-mode edits). */
export const baccaratProfileSchema = z
  .strictObject(
    {
      id: nonEmptyText(),
      title: nonEmptyText(),
      regulation: nonEmptyText(),
      authorisation: nonEmptyText(),
      decks: intIn(1, 16),
      cutCardFromEnd: z.int({ error: 'expected an integer' }),
      coupsAfterCutCard: intIn(0, 3),
      burn: oneOf(BURN_FORMULAS),
      burnFixedCards: intIn(1, 8),
      banker: bankerSchema,
      payouts: z.strictObject(
        { player: payoutSchema, tie: payoutSchema, playerPair: payoutSchema, bankerPair: payoutSchema, lucky6Two: payoutSchema, lucky6Three: payoutSchema },
        { error: 'expected an object' },
      ),
      lucky6: z.boolean({ error: 'expected true or false' }),
      betRules: z.strictObject({ player: nonEmptyText(), banker: nonEmptyText() }, { error: 'expected an object' }),
      tiePushRule: nonEmptyText(),
    },
    { error: 'expected an object' },
  )
  .superRefine((p, ctx) => {
    // Room behind the cut card for the coups still to be dealt (6 cards at most each).
    outOfRange(ctx, 'cutCardFromEnd', p.cutCardFromEnd, 6 * (p.coupsAfterCutCard + 1), 52 * p.decks - 20);
    keepFixedByText(ctx, p, Object.hasOwn(BACCARAT_FIXED, p.id) ? BACCARAT_FIXED[p.id] : undefined);
  }, ONCE_FIELDS_VALID);

const PAY_TABLE = {
  player: { win: 1, per: 1, rule: BACCARAT_RULES.player },
  tie: { win: 8, per: 1, rule: BACCARAT_RULES.tie },
  playerPair: { win: 11, per: 1, rule: BACCARAT_RULES.pair },
  bankerPair: { win: 11, per: 1, rule: BACCARAT_RULES.pair },
  lucky6Two: { win: 12, per: 1, rule: BACCARAT_RULES.lucky6 },
  lucky6Three: { win: 20, per: 1, rule: BACCARAT_RULES.lucky6 },
} as const;

const COMMON = {
  regulation: 'Despacho 55/2004 (Regulamento Oficial de «Bacará») as amended by Despachos 73/2005 to 56/2018',
  authorisation: 'Art. 19 (2005): the choice between the alternatives of Art. 18 needs DICJ prior authorisation, asked 3 working days ahead',
  decks: 8,
  cutCardFromEnd: 16,
  coupsAfterCutCard: 1,
  burn: 'first-card-value',
  burnFixedCards: 8,
  payouts: PAY_TABLE,
  lucky6: false,
  betRules: { player: BACCARAT_RULES.playerBet, banker: BACCARAT_RULES.bankerBet },
  tiePushRule: BACCARAT_RULES.tieStandsOff,
} as const;

export const BACCARAT_PROFILES = {
  'macau-commission': parseBaccaratProfile({
    id: 'macau-commission',
    title: 'Macau punto banco, 5% commission on banker wins',
    ...COMMON,
    banker: { kind: 'commission', commissionBasisPoints: 500, rule: BACCARAT_RULES.commission },
  }),
  'macau-no-commission': parseBaccaratProfile({
    id: 'macau-no-commission',
    title: 'Macau punto banco, no commission; banker win on 6 pays 50%',
    ...COMMON,
    banker: {
      kind: 'no-commission',
      winOnSixBasisPoints: 5000,
      rule: BACCARAT_RULES.noCommission,
      winOnSixRule: BACCARAT_RULES.noCommission,
    },
  }),
  /** No text: every value free, for analysis (`sim`, `round`); its lines cite no article, and no table plays it. */
  generic: parseBaccaratProfile({
    id: 'generic',
    title: 'Punto banco for analysis: every option free, no article cited',
    regulation: 'none (analysis)',
    authorisation: 'none (analysis)',
    decks: 8,
    cutCardFromEnd: 16,
    coupsAfterCutCard: 1,
    burn: 'first-card-value',
    burnFixedCards: 8,
    payouts: {
      player: { win: 1, per: 1, rule: 'generic' },
      tie: { win: 8, per: 1, rule: 'generic' },
      playerPair: { win: 11, per: 1, rule: 'generic' },
      bankerPair: { win: 11, per: 1, rule: 'generic' },
      lucky6Two: { win: 12, per: 1, rule: 'generic' },
      lucky6Three: { win: 20, per: 1, rule: 'generic' },
    },
    lucky6: true,
    betRules: { player: 'generic', banker: 'generic' },
    tiePushRule: 'generic',
    banker: { kind: 'commission', commissionBasisPoints: 500, rule: 'generic' },
  }),
} as const satisfies Record<string, BaccaratProfile>;

/** The profile a table may play: one a text governs. */
export function isRegulatedBaccaratProfile(id: string): boolean {
  return Object.hasOwn(BACCARAT_FIXED, id);
}

export type BaccaratProfileId = keyof typeof BACCARAT_PROFILES;

export function baccaratProfile(id: string): BaccaratProfile {
  return lookupProfile<BaccaratProfile>('baccarat', BACCARAT_PROFILES, id);
}

/** Checks untrusted profile data (a configuration file, a service-mode edit) and returns it typed. */
export function parseBaccaratProfile(input: unknown): BaccaratProfile {
  return parseProfile(baccaratProfileSchema, input);
}
