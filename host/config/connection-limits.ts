import { z } from 'zod';

/** A listener's caps: connections at once from one client address, and in all. */
const Caps = z
  .strictObject({
    perAddress: z.number().int().min(1).max(4096),
    total: z.number().int().min(1).max(4096),
  })
  .refine((c) => c.perAddress <= c.total, { message: 'perAddress may not be more than total' });

/**
 * Loopback: the table display, the seated stations, service windows and local tools, every one
 * from 127.0.0.1, so the per-address cap is the total. 256 is ten times what a table opens, and
 * leaves room under a kiosk's `ulimit -n 1024` for the LAN listener's and the ledger's.
 */
export const LOCAL_CAPS = { perAddress: 256, total: 256 } as const;
/**
 * The LAN: a station's machine holds two connections (its screen, its acceptor), a few more while
 * a cut one is being replaced; 600 in all is every one of 250 remote stations twice, with room.
 */
export const LAN_CAPS = { perAddress: 8, total: 600 } as const;
export const HELLO_SECONDS = 5;

/**
 * How the host's listeners admit connections (docs/operations.md, "Connections"): each must say
 * its hello within `helloSeconds`, and each listener has its caps.
 */
export const ConnectionLimitsConfig = z
  .strictObject({
    /** A connection that has said no hello (and has no request in flight) is closed after this many seconds. */
    helloSeconds: z.number().min(1).max(60).default(HELLO_SECONDS),
    local: Caps.default(LOCAL_CAPS),
    lan: Caps.default(LAN_CAPS),
  })
  .default({ helloSeconds: HELLO_SECONDS, local: LOCAL_CAPS, lan: LAN_CAPS });
export type ConnectionLimitsConfig = z.infer<typeof ConnectionLimitsConfig>;
