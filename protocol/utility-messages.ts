import { z } from 'zod';
import { lazily } from './lazy.js';
import { ViewName } from './views.js';

/**
 * Messages between Electron's main process and the table host running as its utility process.
 * What the host's utility process tells main once it is listening: each screen's launch token.
 */
export const HostReady = lazily('HostReady', () =>
  z.strictObject({
    type: z.literal('host-ready'),
    origin: z.string(),
    tokens: z.array(z.tuple([ViewName, z.string()])),
  }),
);
export type HostReady = z.infer<typeof HostReady>;

/** Main → host: a MessagePort (in `ports[0]`) for one screen window. */
export const ScreenPort = lazily('ScreenPort', () => z.strictObject({ type: z.literal('screen-port') }));
