import { z } from 'zod';
import { StationNumber } from './units.js';

/** Field kinds of service mode's commands (service.ts) and of what a session sees (service-view.ts). */
export const Station = StationNumber;
export const Short = z.string().max(128);
export const Text = z.string().max(400);
export const Iso = z.string().max(40);
