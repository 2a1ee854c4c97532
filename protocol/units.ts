import { z } from 'zod';

/** Money is always an integer number of minor units (avos / cents). */
export const MinorUnits = z.number().int().safe();

export const MAX_STATIONS = 7;
