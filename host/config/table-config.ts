import { z } from 'zod';
import { Currency, GameKind, Language, Limits, MAX_STATIONS } from '../../protocol/index.js';
import { DeviceSpec } from './device-spec.js';

const Station = z.strictObject({
  station: z.number().int().min(1).max(MAX_STATIONS),
  /** The seat this station controls. */
  seat: z.number().int().min(1).max(MAX_STATIONS),
  billAcceptor: DeviceSpec,
});

/** A table's configuration is data, validated before the host starts (DESIGN.md §3, issue 7). */
export const TableConfig = z
  .strictObject({
    tableId: z.string().regex(/^[A-Za-z0-9-]{1,32}$/),
    game: GameKind,
    profile: z.string().min(1),
    currency: Currency,
    limits: Limits,
    seats: z.number().int().min(6).max(MAX_STATIONS),
    stations: z.array(Station).min(1).max(MAX_STATIONS),
    shoe: DeviceSpec,
    defaultLanguage: Language,
    timings: z
      .strictObject({
        bettingMs: z.number().int().min(1000).max(120_000),
        decisionMs: z.number().int().min(1000).max(120_000),
        resultsMs: z.number().int().min(1000).max(60_000),
      })
      .default({ bettingMs: 15_000, decisionMs: 15_000, resultsMs: 5_000 }),
  })
  .superRefine((c, ctx) => {
    const stations = new Set<number>();
    const seats = new Set<number>();
    for (const s of c.stations) {
      if (stations.has(s.station)) ctx.addIssue({ code: 'custom', message: `station ${s.station} is listed twice` });
      if (seats.has(s.seat)) ctx.addIssue({ code: 'custom', message: `seat ${s.seat} is controlled by two stations` });
      if (s.seat > c.seats) ctx.addIssue({ code: 'custom', message: `station ${s.station} controls seat ${s.seat}, but the table has ${c.seats} seats` });
      stations.add(s.station);
      seats.add(s.seat);
    }
  });
export type TableConfig = z.infer<typeof TableConfig>;

const DEFAULT_PROFILE = { blackjack: 'macau-2009', baccarat: 'macau-commission', war: 'macau' } as const;
const TABLE_ID = { blackjack: 'SIM-BJ-01', baccarat: 'SIM-BAC-01', war: 'SIM-WAR-01' } as const;

/** The default of `npm start`: a Macau table (blackjack unless told) with every device simulated. */
export function simulatedTableConfig(game: TableConfig['game'] = 'blackjack'): TableConfig {
  return TableConfig.parse({
    tableId: TABLE_ID[game],
    game,
    profile: DEFAULT_PROFILE[game],
    currency: 'MOP',
    limits: { min: 10_000, max: 1_000_000 },
    seats: 7,
    stations: Array.from({ length: 7 }, (_, i) => ({ station: i + 1, seat: i + 1, billAcceptor: 'sim' })),
    shoe: 'sim',
    defaultLanguage: 'zh-Hant',
  });
}
