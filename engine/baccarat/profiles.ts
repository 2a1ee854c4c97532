/**
 * Baccarat rule profiles: data, checked by `parseBaccaratProfile`, each option carrying the rule
 * reference that settlement lines quote.
 *
 * Rule ids: `macau-baccarat art.N n.M` for Despacho 55/2004 as amended on 23 Nov 2005 (only the
 * amended Art. 18–19 are on file). The pay-table and tableau articles of the original 55/2004
 * are not on file, so those rules are named `macau-baccarat pay-table:<bet>` and
 * `macau-baccarat tableau` until the text is obtained; correcting them is a data change here.
 *
 * The engine may not import zod (layering rule: the engine imports no package), so the schema is
 * written out by hand below: unknown keys, wrong types and out-of-range values are refused with
 * the path of the offending field.
 */

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
  /** First card of the shoe turned over and that many burned (tens and faces count 10). */
  readonly burn: 'first-card-value' | 'none';
  readonly banker: BankerRule;
  readonly payouts: {
    readonly player: Payout;
    readonly tie: Payout;
    readonly playerPair: Payout;
    readonly bankerPair: Payout;
  };
  /** Player and banker bets stand off (are returned) on a tie. */
  readonly tiePushRule: string;
  readonly tableauRule: string;
  /** Rule quoted when a coup is voided and every bet returned. */
  readonly voidRule: string;
}

const PAY_TABLE = {
  player: { win: 1, per: 1, rule: 'macau-baccarat pay-table:player' },
  tie: { win: 8, per: 1, rule: 'macau-baccarat pay-table:tie' },
  playerPair: { win: 11, per: 1, rule: 'macau-baccarat pay-table:player-pair' },
  bankerPair: { win: 11, per: 1, rule: 'macau-baccarat pay-table:banker-pair' },
} as const;

const COMMON = {
  regulation: 'Despacho 55/2004 (Regulamento Oficial de «Bacará»), Art. 18 as amended on 23 Nov 2005',
  authorisation: 'Art. 19 (2005): the choice between the alternatives of Art. 18 needs DICJ prior authorisation, asked 3 working days ahead',
  decks: 8,
  cutCardFromEnd: 16,
  coupsAfterCutCard: 1,
  burn: 'first-card-value',
  payouts: PAY_TABLE,
  tiePushRule: 'macau-baccarat pay-table:tie-push',
  tableauRule: 'macau-baccarat tableau',
  voidRule: 'macau-baccarat void',
} as const;

export const BACCARAT_PROFILES = {
  'macau-commission': parseBaccaratProfile({
    id: 'macau-commission',
    title: 'Macau punto banco, 5% commission on banker wins',
    ...COMMON,
    banker: { kind: 'commission', commissionBasisPoints: 500, rule: 'macau-baccarat art.18 n.1' },
  }),
  'macau-no-commission': parseBaccaratProfile({
    id: 'macau-no-commission',
    title: 'Macau punto banco, no commission; banker win on 6 pays 50%',
    ...COMMON,
    banker: {
      kind: 'no-commission',
      winOnSixBasisPoints: 5000,
      rule: 'macau-baccarat art.18 n.2',
      winOnSixRule: 'macau-baccarat art.18 n.2',
    },
  }),
} as const satisfies Record<string, BaccaratProfile>;

export type BaccaratProfileId = keyof typeof BACCARAT_PROFILES;

export function baccaratProfile(id: string): BaccaratProfile {
  const p = (BACCARAT_PROFILES as Record<string, BaccaratProfile>)[id];
  if (!p) throw new RangeError(`unknown baccarat profile "${id}" (known: ${Object.keys(BACCARAT_PROFILES).join(', ')})`);
  return p;
}

export class ProfileError extends Error {}

type Obj = Record<string, unknown>;

function obj(v: unknown, path: string, keys: readonly string[]): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ProfileError(`${path}: expected an object`);
  for (const k of Object.keys(v)) if (!keys.includes(k)) throw new ProfileError(`${path}.${k}: unknown field`);
  return v as Obj;
}

function str(o: Obj, k: string, path: string): string {
  const v = o[k];
  if (typeof v !== 'string' || v.length === 0) throw new ProfileError(`${path}.${k}: expected a non-empty string`);
  return v;
}

function int(o: Obj, k: string, path: string, min: number, max: number): number {
  const v = o[k];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new ProfileError(`${path}.${k}: expected an integer ${min}–${max}, got ${JSON.stringify(v)}`);
  }
  return v;
}

function oneOf<T extends string>(o: Obj, k: string, path: string, values: readonly T[]): T {
  const v = o[k];
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    throw new ProfileError(`${path}.${k}: expected one of ${values.join(', ')}, got ${JSON.stringify(v)}`);
  }
  return v as T;
}

function payout(v: unknown, path: string): Payout {
  const o = obj(v, path, ['win', 'per', 'rule']);
  return { win: int(o, 'win', path, 0, 1000), per: int(o, 'per', path, 1, 1000), rule: str(o, 'rule', path) };
}

/** Checks untrusted profile data (a configuration file, a service-mode edit) and returns it typed. */
export function parseBaccaratProfile(input: unknown): BaccaratProfile {
  const o = obj(input, 'profile', [
    'id', 'title', 'regulation', 'authorisation', 'decks', 'cutCardFromEnd', 'coupsAfterCutCard', 'burn', 'banker', 'payouts',
    'tiePushRule', 'tableauRule', 'voidRule',
  ]);
  const b = obj(o.banker, 'profile.banker', ['kind', 'commissionBasisPoints', 'rule', 'winOnSixBasisPoints', 'winOnSixRule']);
  const kind = oneOf(b, 'kind', 'profile.banker', ['commission', 'no-commission'] as const);
  let banker: BankerRule;
  if (kind === 'commission') {
    obj(b, 'profile.banker', ['kind', 'commissionBasisPoints', 'rule']);
    banker = { kind, commissionBasisPoints: int(b, 'commissionBasisPoints', 'profile.banker', 0, 10000), rule: str(b, 'rule', 'profile.banker') };
  } else {
    obj(b, 'profile.banker', ['kind', 'winOnSixBasisPoints', 'rule', 'winOnSixRule']);
    banker = {
      kind,
      winOnSixBasisPoints: int(b, 'winOnSixBasisPoints', 'profile.banker', 0, 10000),
      rule: str(b, 'rule', 'profile.banker'),
      winOnSixRule: str(b, 'winOnSixRule', 'profile.banker'),
    };
  }
  const pays = obj(o.payouts, 'profile.payouts', ['player', 'tie', 'playerPair', 'bankerPair']);
  const decks = int(o, 'decks', 'profile', 1, 16);
  const coupsAfterCutCard = int(o, 'coupsAfterCutCard', 'profile', 0, 3);
  // Room behind the cut card for the coups still to be dealt (6 cards at most each).
  const cutCardFromEnd = int(o, 'cutCardFromEnd', 'profile', 6 * (coupsAfterCutCard + 1), 52 * decks - 20);
  return {
    id: str(o, 'id', 'profile'),
    title: str(o, 'title', 'profile'),
    regulation: str(o, 'regulation', 'profile'),
    authorisation: str(o, 'authorisation', 'profile'),
    decks,
    cutCardFromEnd,
    coupsAfterCutCard,
    burn: oneOf(o, 'burn', 'profile', ['first-card-value', 'none'] as const),
    banker,
    payouts: {
      player: payout(pays.player, 'profile.payouts.player'),
      tie: payout(pays.tie, 'profile.payouts.tie'),
      playerPair: payout(pays.playerPair, 'profile.payouts.playerPair'),
      bankerPair: payout(pays.bankerPair, 'profile.payouts.bankerPair'),
    },
    tiePushRule: str(o, 'tiePushRule', 'profile'),
    tableauRule: str(o, 'tableauRule', 'profile'),
    voidRule: str(o, 'voidRule', 'profile'),
  };
}
