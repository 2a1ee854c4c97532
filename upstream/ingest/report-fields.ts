// The fields of an entry that the upstream reads back as numbers (its reports, plots and
// projections cast them in SQL: upstream/backoffice/gaming-day.ts, theoretical.ts, plots.ts), each
// checked at ingest to be what an honest table's ledger writes. Nothing else of the body is held to
// a schema here: a newer table's new fields and entry types are stored as they come. One body that
// does not fit used to be stored, and its cast then failed every report of its gaming day, for
// every table, for good (the journal is append-only).
import { z } from 'zod';
import { ROUND_GAMES } from '../../terms/round-terms.js';

const safe = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const name = z.string().min(1).max(128);

/** Each meter delta as the ledger derives it (ledger/entries.ts, MeterDelta): scope, name, a safe integer. */
const Meters = z.array(z.tuple([name, name, safe]));

/** A transfer's station and amount (terms/transfer-terms.ts): the gaming day's transfers in and out. */
const TransferFigures = z.object({ transfer: z.object({ station: z.number().int().min(1).max(9999), amount: safe.min(0) }) });

/** A bet's amount (bet.place): the theoretical win's wagers. */
const BetFigures = z.object({ bets: z.array(z.object({ bet: name, amount: safe.min(0) })) });

/** A settlement's game, profile and each line's net (round.settle): the actual win beside the theoretical, by the game and profile's edges. */
const SettleFigures = z.object({ game: z.enum(ROUND_GAMES), profile: name, lines: z.array(z.object({ bet: name, net: safe })) });

// A Map, not an object: a type is the table's word, and `toString` is no entry type (found by the ingest fuzz).
const PAYLOAD_FIGURES = new Map<string, z.ZodType>([
  ['transfer.in', TransferFigures],
  ['transfer.out', TransferFigures],
  ['transfer.reverse', TransferFigures],
  ['bet.place', BetFigures],
  ['round.settle', SettleFigures],
]);

/** Why the body's figures cannot be read back, in words; null when they can. */
export function reportFieldsProblem(body: { type: string; payload?: unknown; meters?: unknown }): string | null {
  // Every ledger's payload is an object; the reports read its fields (a void's round, a misread's resolution).
  if (body.payload !== undefined && (body.payload === null || typeof body.payload !== 'object' || Array.isArray(body.payload)))
    return 'its payload is not an object';
  if (body.meters !== undefined && !Meters.safeParse(body.meters).success) return 'its meters are not [scope, name, integer] triples';
  const figures = PAYLOAD_FIGURES.get(body.type);
  const r = figures?.safeParse(body.payload);
  if (r && !r.success) return `its ${body.type} figures are not what a ledger writes (${r.error.issues[0]?.path.join('.') || 'payload'})`;
  return null;
}
