import { z } from 'zod';
import { MAX_REMOTE_STATIONS, MAX_STATION, REMOTE_STATION_BASE, STADIUM_SEAT } from '../engine/table/vocabulary.js';

/** Money is always an integer number of minor units (avos / cents). */
export const MinorUnits = z.number().int().safe();

/** Seated stations (1–7): one per seat of the felt, each bound to its seat. */
export const MAX_STATIONS = 7;

export { MAX_REMOTE_STATIONS, MAX_STATION, REMOTE_STATION_BASE, STADIUM_SEAT };

/** Whether a number names a station: a seated one (1–7) or a remote one (101–2100). */
export function isStationNumber(n: number): boolean {
  return Number.isInteger(n) && ((n >= 1 && n <= MAX_STATIONS) || (n > REMOTE_STATION_BASE && n <= MAX_STATION));
}

/** A station's number: seated 1–7, remote 101–2100 (a stadium's stations have no seat). */
export const StationNumber = z
  .number()
  .int()
  .refine(isStationNumber, { message: `a station is 1–${MAX_STATIONS} (seated) or ${REMOTE_STATION_BASE + 1}–${MAX_STATION} (remote)` });

/** A seat of the felt. */
export const SeatNumber = z.number().int().min(1).max(MAX_STATIONS);

/** Where a hand, a line or a decision is: a seat, or the stadium box (0) the remote stations play on. */
export const BoxNumber = z.number().int().min(STADIUM_SEAT).max(MAX_STATIONS);
