import { z } from 'zod';

// The station numbers a table may have, as the upstream holds a journal's figures to them: seated
// 1–7, remote 101–2100. The engine's words say the same (engine/table/vocabulary.ts, MAX_STATION);
// the upstream imports nothing of the engine, so tests/security/floor-credits-flood.test.ts checks
// that the two agree.

/** Seated stations: one per seat of the felt, 1–7. */
export const SEATED_STATIONS = 7;
/** Remote stations are numbered after this base (101, 102 …), at most MAX_REMOTE_STATIONS of them. */
export const REMOTE_STATION_BASE = 100;
export const MAX_REMOTE_STATIONS = 2000;
/** The most stations one table has: every seat and every remote station. */
export const MAX_TABLE_STATIONS = SEATED_STATIONS + MAX_REMOTE_STATIONS;

/** Whether a value names a station some table may have. */
export function isTableStation(n: unknown): n is number {
  if (typeof n !== 'number' || !Number.isInteger(n)) return false;
  return (n >= 1 && n <= SEATED_STATIONS) || (n > REMOTE_STATION_BASE && n <= REMOTE_STATION_BASE + MAX_REMOTE_STATIONS);
}

/**
 * A meter's scope as a ledger keeps it (ledger/derive.ts): the table's, or a station's that some
 * table may have (`station:2100`, never `station:0`, `station:05` or `station:8`).
 */
export const MeterScope = z
  .string()
  .regex(/^(table|station:[1-9]\d{0,3})$/, 'a meter scope is table or station:N')
  .refine((s) => s === 'table' || isTableStation(Number(s.slice('station:'.length))), 'a meter scope names a station a table may have');
