import { z } from 'zod';
import { JACKPOT_COMBINATIONS } from '../engine/table/vocabulary.js';

/** A winning combination of a progressive jackpot program (the engine's list; Portugal rule 43). */
export const JackpotCombination = z.enum(JACKPOT_COMBINATIONS);
export type JackpotCombination = z.infer<typeof JackpotCombination>;
