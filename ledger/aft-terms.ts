import { z } from 'zod';
import { tableCurrency } from '../terms/payload-fields.js';
import { AFT_REGISTER_PAYLOADS } from './aft-register-terms.js';

// AFT, the casino system's cashless wallet (SAS 6.02 §8; docs/sas.md, "AFT"): credit moved
// between a player's account at the casino's system and a station's credit meter. Each transfer
// is one entry, keyed by the station and the system's transaction id, journalled before the SAS
// answer that reports it: a transaction id is applied once, whatever the system sends again.
//
//   aft.in    aft:<station>:<transaction id>    the system's account → the station's credit
//   aft.out   aft:<station>:<transaction id>    the station's credit → the system's account

const transfer = {
  station: z.number().int().min(1).max(9999),
  /** The system's transaction id: 1–20 printable ASCII characters. */
  transactionId: z.string().regex(/^[\x20-\x7e]{1,20}$/),
  /** What moved (minor units). */
  amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /** What the system asked (a partial transfer moves less). */
  requested: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /** The station's asset number the request named. */
  assetNumber: z.number().int().min(1).max(0xff_ff_ff_ff),
  /** The request's transfer flags (0x72, Table 8.3e), which its answer and interrogation give back; absent (entries before 6 December): 0. */
  flags: z.number().int().min(0).max(0xff).optional(),
  /** The table's currency the amount is in; absent in entries journalled before 7 December 2026. */
  currency: tableCurrency.optional(),
};

export const AFT_PAYLOADS = {
  'aft.in': z.strictObject(transfer),
  'aft.out': z.strictObject(transfer),
} as const;

export type AftEntryType = keyof typeof AFT_PAYLOADS;
export const AFT_ENTRY_TYPES: readonly AftEntryType[] = ['aft.in', 'aft.out'];

export function aftTxId(station: number, transactionId: string): string {
  return `aft:${station}:${transactionId}`;
}

/** Every AFT entry the journal takes: the transfers, and the registration of a station (0x73, ./aft-register-terms.ts). */
export const AFT_JOURNAL_PAYLOADS = { ...AFT_PAYLOADS, ...AFT_REGISTER_PAYLOADS } as const;
