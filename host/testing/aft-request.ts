// What the casino system sends in a 0x72 transfer (SAS 6.02 §8), as the station tests need it: an
// in-house transfer of cashable credit with a registration key of zeros ("registration not
// required"). A test that lies about a field spreads over it (`{ ...aftRequest(…), assetNumber }`).
import type { AftRequest } from '../../hardware/sas/types.js';
import type { StationAftDeps } from '../devices/sas-aft.js';

export interface AftAsk {
  type: number;
  cashable: number;
  transactionId: string;
  assetNumber: number;
  /** Transfer code 01 (partial transfers allowed) rather than 00 (full only). */
  partial?: boolean;
}

export function aftRequest(ask: AftAsk): AftRequest {
  return {
    code: ask.partial === true ? 0x01 : 0x00,
    type: ask.type,
    cashable: ask.cashable,
    restricted: 0,
    nonRestricted: 0,
    flags: 0,
    assetNumber: ask.assetNumber,
    keyZero: true,
    key: new Uint8Array(20),
    transactionId: ask.transactionId,
  };
}

/** A station clock stopped at one local moment: the transfers' receipt times do not matter here. */
export function fixedLocal(year: number, month: number, day: number, hour = 0): StationAftDeps['local'] {
  return () => ({ year, month, day, hour, minute: 0, second: 0 });
}
