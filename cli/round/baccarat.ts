// `npm run --silent round -- --game baccarat --rules <profile> [--set key=value …] --input round.json|- [--json]`
// Plays one scripted coup: {"seats":[{"seat":1,"bets":{"banker":1000,"tie":100}}],"cards":["2S","KH",…]}
// with the cards in shoe order, and prints the hands, their totals and the settlement lines.
// Anything illegal (unknown bet, bad card, a card beyond the shoe's copies, too few cards, cards
// left over) is refused on stderr with exit code 2.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { cardCode, parseCard, type Card } from '../../engine/cards/card.js';
import { ShoeInventory } from '../../engine/cards/shoe.js';
import type { BaccaratProfile } from '../../engine/baccarat/profiles.js';
import { BACCARAT_BETS, settleBaccaratSeat } from '../../engine/baccarat/settle.js';
import { baccaratRulesFromArgs, readJsonInput, UsageError } from '../baccarat-war-args.js';
import { coupResult, dealCard, EMPTY_COUP, nextExpected, type CoupCards } from '../../engine/baccarat/tableau.js';

const USAGE = 'usage: npm run --silent round -- --game baccarat --rules macau-commission|macau-no-commission [--set key=value …] --input round.json|- [--json]';

const stake = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER / 100);
const RoundInput = z
  .object({
    seats: z
      .array(
        z.object({
          seat: z.number().int().min(1),
          bets: z.object(Object.fromEntries(BACCARAT_BETS.map((b) => [b, stake.optional()]))).strict(),
        }).strict(),
      )
      .min(1),
    cards: z.array(z.string()),
    decisions: z.array(z.unknown()).max(0, 'baccarat has no player decisions').optional(),
  })
  .strict();

export class RoundError extends Error {}

export interface BaccaratRoundOutput {
  readonly game: 'baccarat';
  readonly rules: string;
  /** Same shape as the blackjack runner's hands, named by side instead of seat. */
  readonly hands: { hand: 'player' | 'banker'; cards: string[]; total: number }[];
  readonly result: { winner: string; natural: boolean; playerPair: boolean; bankerPair: boolean };
  readonly settlements: ReturnType<typeof settleBaccaratSeat>;
  readonly totals: { seat: number; staked: number; net: number }[];
}

/** The runner's logic without I/O, so tests can call it. */
export function playBaccaratRound(input: unknown, profile: BaccaratProfile): BaccaratRoundOutput {
  const parsed = RoundInput.safeParse(input);
  if (!parsed.success) {
    throw new RoundError(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
  }
  const { seats, cards: codes } = parsed.data;
  const seen = new Set<number>();
  for (const s of seats) {
    if (seen.has(s.seat)) throw new RoundError(`seat ${s.seat} appears twice`);
    seen.add(s.seat);
    if (!Object.values(s.bets).some((v) => v !== undefined && v > 0)) throw new RoundError(`seat ${s.seat} has no bet`);
  }
  const inventory = new ShoeInventory(profile.decks);
  const cards: Card[] = codes.map((code, i) => {
    let c: Card;
    try {
      c = parseCard(code);
    } catch (e) {
      throw new RoundError(`cards[${i}]: ${(e as Error).message}`);
    }
    if (!inventory.take(c)) throw new RoundError(`cards[${i}]: a ${profile.decks}-deck shoe has only ${profile.decks} × ${cardCode(c)}`);
    return c;
  });
  let coup: CoupCards = EMPTY_COUP;
  let used = 0;
  for (let next = nextExpected(coup); next !== null; next = nextExpected(coup)) {
    const c = cards[used];
    if (c === undefined) throw new RoundError(`too few cards: ${cards.length} given, the coup expects ${next.to} card ${next.position} next`);
    coup = dealCard(coup, c);
    used++;
  }
  if (used < cards.length) {
    throw new RoundError(`${cards.length - used} card(s) left over after the coup completed with ${used}: ${codes.slice(used).join(' ')}`);
  }
  const r = coupResult(coup);
  const settlements = seats.flatMap((s) => settleBaccaratSeat(s.seat, s.bets, r, profile));
  return {
    game: 'baccarat',
    rules: profile.id,
    hands: [
      { hand: 'player', cards: r.player.map(cardCode), total: r.playerTotal },
      { hand: 'banker', cards: r.banker.map(cardCode), total: r.bankerTotal },
    ],
    result: { winner: r.winner, natural: r.natural, playerPair: r.playerPair, bankerPair: r.bankerPair },
    settlements,
    totals: seats.map((s) => {
      const lines = settlements.filter((l) => l.seat === s.seat);
      return { seat: s.seat, staked: lines.reduce((a, l) => a + l.stake, 0), net: lines.reduce((a, l) => a + l.net, 0) };
    }),
  };
}

function fail(message: string): number {
  console.error(`round baccarat: ${message}`);
  return 2;
}

export function run(argv: string[]): number {
  let out: BaccaratRoundOutput;
  let profile: BaccaratProfile;
  let json: boolean;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        rules: { type: 'string', default: 'macau-commission' },
        set: { type: 'string', multiple: true },
        input: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    json = values.json;
    profile = baccaratRulesFromArgs(values.rules, values.set);
    if (values.input === undefined) throw new UsageError(`--input is required\n${USAGE}`);
    out = playBaccaratRound(readJsonInput(values.input), profile);
  } catch (e) {
    if (e instanceof RoundError || e instanceof UsageError) return fail(e.message);
    if (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS')) return fail(`${e.message}\n${USAGE}`);
    throw e;
  }
  if (json) {
    console.log(JSON.stringify(out));
    return 0;
  }
  console.log(profile.title);
  for (const h of out.hands) console.log(`${h.hand}: ${h.cards.join(' ')} = ${h.total}`);
  console.log(`→ ${out.result.winner}${out.result.natural ? ' (natural)' : ''}`);
  for (const l of out.settlements) console.log(`seat ${l.seat} ${l.bet.padEnd(10)} stake ${String(l.stake).padStart(8)} net ${String(l.net).padStart(9)}  ${l.rule}`);
  return 0;
}
