// `npm run --silent round -- --game war --rules macau [--set key=value …] --input round.json|- [--main-with-tie-bet returned|choose] [--json]`
// Plays one scripted coup of «Desafio ao Casino»:
// {"seats":[{"seat":1,"bets":{"main":1000,"tie":100}}],"cards":["7S","7D",…],"decisions":[{"seat":1,"action":"war"}]}
// Cards are this coup's cards in shoe order, the war's burns included. Illegal input, a missing
// or unexpected decision, too few cards or cards left over: message on stderr, exit code 2.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { cardCode, parseCard, type Card } from '../../engine/cards/card.js';
import { ShoeInventory } from '../../engine/cards/shoe.js';
import { newWarCoup, warDecide, warExpected, WarInputError, warTakeCard, type WarAction, type WarCoup } from '../../engine/war/coup.js';
import type { WarProfile } from '../../engine/war/profiles.js';
import { settleWarCoup } from '../../engine/war/settle.js';
import { readJsonInput, UsageError, warRulesFromArgs } from '../baccarat-war-args.js';
import type { SettlementLine } from '../../engine/settlement/settlement-line.js';

const USAGE = 'usage: npm run --silent round -- --game war --rules macau [--set key=value …] --input round.json|- [--main-with-tie-bet returned|choose] [--json]';

const stake = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER / 100);
const RoundInput = z
  .object({
    seats: z.array(z.object({ seat: z.number().int().min(1), bets: z.object({ main: stake.optional(), tie: stake.optional() }).strict() }).strict()).min(1),
    cards: z.array(z.string()),
    decisions: z.array(z.object({ seat: z.number().int().min(1), action: z.enum(['war', 'surrender']) }).strict()).default([]),
  })
  .strict();

export class RoundError extends Error {}

interface HandOut {
  seat: number;
  /** The first card, then the war card if the seat went to war. */
  cards: string[];
  decision?: WarAction;
}

/** Same shape as the blackjack runner: `hands` per seat, the house's cards, burns in shoe order. */
export interface WarRoundOutput {
  readonly game: 'war';
  readonly rules: string;
  readonly hands: HandOut[];
  /** The croupier's first card and the card drawn against each seat at war. */
  readonly croupier: { card: string; war: { seat: number; card: string }[] };
  readonly burns: string[];
  readonly settlements: SettlementLine[];
  readonly totals: { seat: number; staked: number; net: number }[];
}

export function playWarRound(input: unknown, profile: WarProfile): WarRoundOutput {
  const parsed = RoundInput.safeParse(input);
  if (!parsed.success) throw new RoundError(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
  const { seats, cards: codes, decisions } = parsed.data;
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
  const byseat = new Map<number, WarAction>();
  for (const d of decisions) {
    if (byseat.has(d.seat)) throw new RoundError(`seat ${d.seat} has two decisions`);
    byseat.set(d.seat, d.action);
  }
  let coup: WarCoup;
  let used = 0;
  try {
    coup = newWarCoup(seats, profile);
    for (let e = warExpected(coup); e.kind !== 'complete'; e = warExpected(coup)) {
      if (e.kind === 'decisions') {
        for (const seat of e.seats) {
          const action = byseat.get(seat);
          if (action === undefined) throw new RoundError(`seat ${seat} tied the croupier and must decide: add {"seat":${seat},"action":"war"} or "surrender" to "decisions"`);
          coup = warDecide(coup, seat, action);
        }
        continue;
      }
      const c = cards[used];
      if (c === undefined) {
        const what = e.kind === 'burn' ? `a burn card (${e.remaining} more before the ${e.before === 'croupier' ? "croupier's" : `seat ${e.before}`} war card)` : `the ${e.phase} card of ${e.to === 'croupier' ? 'the croupier' : `seat ${e.to}`}`;
        throw new RoundError(`too few cards: ${cards.length} given, the coup expects ${what} next`);
      }
      coup = warTakeCard(coup, c);
      used++;
    }
  } catch (e) {
    if (e instanceof WarInputError) throw new RoundError(e.message);
    throw e;
  }
  if (used < cards.length) throw new RoundError(`${cards.length - used} card(s) left over after the coup completed with ${used}: ${codes.slice(used).join(' ')}`);
  for (const seat of byseat.keys()) {
    if (coup.decisions[seat] === undefined) throw new RoundError(`seat ${seat} has no decision to make (no tie on a main bet it may take to war)`);
  }
  const settlements = settleWarCoup(coup, profile);
  const croupier = coup.croupier as Card;
  return {
    game: 'war',
    rules: profile.id,
    hands: coup.seats.map((s, i) => {
      const out: HandOut = { seat: s.seat, cards: [cardCode(coup.cards[i] as Card)] };
      const w = coup.wars[s.seat];
      if (w?.seatCard) out.cards.push(cardCode(w.seatCard));
      const d = coup.decisions[s.seat];
      if (d) out.decision = d;
      return out;
    }),
    croupier: {
      card: cardCode(croupier),
      war: coup.seats.flatMap((s) => {
        const c = coup.wars[s.seat]?.croupierCard;
        return c ? [{ seat: s.seat, card: cardCode(c) }] : [];
      }),
    },
    burns: coup.seats.flatMap((s) => {
      const w = coup.wars[s.seat];
      return w ? [...w.seatBurns, ...w.croupierBurns].map(cardCode) : [];
    }),
    settlements,
    totals: coup.seats.map((s) => {
      const lines = settlements.filter((l) => l.seat === s.seat);
      return { seat: s.seat, staked: lines.reduce((a, l) => a + l.stake, 0), net: lines.reduce((a, l) => a + l.net, 0) };
    }),
  };
}

function fail(message: string): number {
  console.error(`round war: ${message}`);
  return 2;
}

export function run(argv: string[]): number {
  let out: WarRoundOutput;
  let profile: WarProfile;
  let json: boolean;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        rules: { type: 'string', default: 'macau' },
        set: { type: 'string', multiple: true },
        input: { type: 'string' },
        'main-with-tie-bet': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    json = values.json;
    const sets = [...(values.set ?? [])];
    const opt = values['main-with-tie-bet'];
    if (opt !== undefined) sets.push(`mainBetOnTieWithTieBet=${opt}`);
    profile = warRulesFromArgs(values.rules, sets);
    if (values.input === undefined) throw new UsageError(`--input is required\n${USAGE}`);
    out = playWarRound(readJsonInput(values.input), profile);
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
  console.log(`croupier: ${out.croupier.card}${out.croupier.war.map((w) => `, ${w.card} against seat ${w.seat}`).join('')}`);
  for (const h of out.hands) console.log(`seat ${h.seat}: ${h.cards.join(' ')}${h.decision ? ` (${h.decision})` : ''}`);
  if (out.burns.length > 0) console.log(`burned: ${out.burns.join(' ')}`);
  for (const l of out.settlements) console.log(`seat ${l.seat} ${l.bet.padEnd(5)} stake ${String(l.stake).padStart(8)} net ${String(l.net).padStart(9)}  ${l.rule}`);
  return 0;
}
