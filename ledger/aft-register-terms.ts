import { z } from 'zod';

// AFT registration (SAS 6.02 §8, long poll 0x73; docs/sas.md, "AFT registration"): the casino's
// system registers a station for AFT with a 20-byte registration key and a point-of-sale id, and
// every later 0x72 that carries a key must carry that one. Each change of a station's
// registration is one entry, journalled before the 0x73 answer that reports it; the newest entry
// of a station is its registration after a restart. No money moves.
//
//   aft.register    the station's registration as it now stands, and what changed it

/** The registration status as 0x73 answers it: 00 ready, 01 registered, 40 pending, 80 not registered. */
export const AFT_REGISTRATION_STATUSES = ['ready', 'registered', 'pending', 'not-registered'] as const;
export type AftRegistrationStatus = (typeof AFT_REGISTRATION_STATUSES)[number];

/**
 * What changed it: the system's registration codes (00 initialise, 01 register, 40 request operator
 * acknowledgement, 80 unregister), or the operator at the station (acknowledged or cancelled a
 * pending registration; asked the system to register the station).
 */
export const AFT_REGISTRATION_EVENTS = ['initialise', 'register', 'request-acknowledgement', 'unregister', 'acknowledged', 'cancelled', 'request'] as const;

export const AFT_REGISTER_PAYLOADS = {
  'aft.register': z.strictObject({
    station: z.number().int().min(1).max(9999),
    event: z.enum(AFT_REGISTRATION_EVENTS),
    status: z.enum(AFT_REGISTRATION_STATUSES),
    /** The station's asset number the registration names. */
    assetNumber: z.number().int().min(1).max(0xff_ff_ff_ff),
    /** The registration key, 20 bytes as 40 hex digits (all zeros: none). */
    key: z.string().regex(/^[0-9a-f]{40}$/),
    /** The point-of-sale terminal id (0: none). */
    posId: z.number().int().min(0).max(0xff_ff_ff_ff),
    /** Who at the station, for the operator's events. */
    who: z.string().min(1).max(64).optional(),
  }),
} as const;

export const NO_KEY = '0'.repeat(40);
