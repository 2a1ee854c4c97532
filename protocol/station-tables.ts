import { z } from 'zod';
import { lazily } from './lazy.js';
import { StationNumber } from './units.js';

/** The most tables one station agent joins (the market's terminals follow up to eight). */
export const MAX_JOINED_TABLES = 8;

/**
 * What a station agent tells the screen on its own machine about the tables it joined, from the
 * enrolment files (never from a table): each table's id and this station's number there, in the
 * order of the screen's links (`/ws/0`, `/ws/1`…), and which is the station's home (its bill
 * acceptor and credit belong there). The home is `/ws` too, so a screen of one table is as before.
 */
export const StationTables = lazily('StationTables', () =>
  z
    .strictObject({
      tables: z
        .array(z.strictObject({ tableId: z.string().min(1).max(32), station: StationNumber, home: z.boolean() }))
        .min(1)
        .max(MAX_JOINED_TABLES),
    })
    .refine((s) => s.tables.filter((t) => t.home).length === 1, 'exactly one home table')
    .refine((s) => new Set(s.tables.map((t) => t.tableId)).size === s.tables.length, 'each table once'),
);
export type StationTables = z.infer<typeof StationTables>;
