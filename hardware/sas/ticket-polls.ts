// The ticket long polls (SAS 6.02 §15; layouts in docs/sas.md, "Tickets through SAS"): 0x4C set
// secure enhanced validation id, 0x4D send enhanced validation information, 0x70 send ticket
// validation data, 0x71 redeem ticket. Binary fields least significant byte first, BCD and the
// validation data most significant first (§2.2.3). A station without a ticket side ignores them
// as unknown polls (§4.4).
import { fromBcd, toBcd } from './bcd.js';
import { LP } from './constants.js';
import { REDEEM_STATUS } from './redemption.js';
import type { SasDateTime, SasGameSide, SasTicketSide, SasValidationRecord } from './types.js';

export type TicketReply = { kind: 'ignore' } | { kind: 'payload'; payload: Uint8Array; onAck?: () => void } | { kind: 'nack' };

const IGNORE: TicketReply = { kind: 'ignore' };
const payload = (bytes: Uint8Array, onAck?: () => void): TicketReply =>
  onAck ? { kind: 'payload', payload: bytes, onAck } : { kind: 'payload', payload: bytes };

/** Parsing code 00: the validation data is 9 BCD bytes, the 18 digits. */
const PARSING_BCD = 0x00;
const VALIDATION_BYTES = 9;

function binary(value: number, bytes: number): number[] {
  return Array.from({ length: bytes }, (_, i) => Math.floor(value / 256 ** i) % 256);
}
const readBinary = (b: Uint8Array, from: number, n: number): number =>
  Array.from({ length: n }, (_, i) => (b[from + i] ?? 0) * 256 ** i).reduce((a, x) => a + x, 0);

/** 18 digits as 9 BCD bytes. */
export function validationBcd(digits: string): Uint8Array {
  const out = new Uint8Array(VALIDATION_BYTES);
  for (let i = 0; i < VALIDATION_BYTES; i++) out[i] = parseInt(digits.slice(2 * i, 2 * i + 2).padEnd(2, '0'), 16) || 0;
  return out;
}

/** 9 bytes read back as their hex digits: 18 decimal digits, or letters that match no ticket. */
function validationDigits(b: Uint8Array, from: number): string {
  return Array.from(b.subarray(from, from + VALIDATION_BYTES), (x) => x.toString(16).padStart(2, '0')).join('');
}

function concat(parts: readonly (Uint8Array | number[])[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

/** The answer's payload (after address and command) to a ticket poll, or null if `command` is none. */
export function ticketPoll(bytes: Uint8Array, game: SasGameSide): TicketReply | null {
  const command = bytes[1];
  if (command !== LP.setValidationId && command !== LP.validationInfo && command !== LP.ticketValidationData && command !== LP.redeemTicket) return null;
  const t = game.tickets;
  if (!t) return IGNORE;
  switch (command) {
    case LP.setValidationId:
      return setValidationId(bytes, t);
    case LP.validationInfo:
      return validationInfo(bytes, t);
    case LP.ticketValidationData:
      return ticketData(t);
    default:
      return redeem(bytes, t);
  }
}

/** 0x4C: machine id (3 binary), sequence (3 binary); answered with the id and sequence in force. */
function setValidationId(bytes: Uint8Array, t: SasTicketSide): TicketReply {
  const now = t.validationId({ machineId: readBinary(bytes, 2, 3), sequence: readBinary(bytes, 5, 3) });
  return now ? payload(concat([binary(now.machineId, 3), binary(now.sequence, 3)])) : IGNORE;
}

/** 0x4D: function 00 (current), 01–1F (buffer index), FF (look ahead); 31 bytes, all zero when there is nothing to read. */
function validationInfo(bytes: Uint8Array, t: SasTicketSide): TicketReply {
  const fn = bytes[2] ?? 0;
  if (fn > 0x1f && fn !== 0xff) return { kind: 'nack' };
  const found = t.validationInfo(fn === 0 ? 'current' : fn === 0xff ? 'look-ahead' : fn);
  if (!found) return payload(new Uint8Array(31));
  return payload(recordBytes(found.record), found.onAck);
}

function dateBcd(t: { month: number; day: number; year: number }): Uint8Array {
  return concat([toBcd(t.month, 1), toBcd(t.day, 1), toBcd(t.year, 2)]);
}
function timeBcd(t: SasDateTime): Uint8Array {
  return concat([toBcd(t.hour, 1), toBcd(t.minute, 1), toBcd(t.second, 1)]);
}

/** Type, index, date, time, number (8 BCD), amount (5 BCD), ticket number (2 binary), system id (1 BCD), expiry (4 BCD), pool id (2 binary). */
function recordBytes(r: SasValidationRecord): Uint8Array {
  return concat([
    [r.type & 0xff, r.index & 0xff],
    dateBcd(r.at),
    timeBcd(r.at),
    validationBcd(r.validation).subarray(1),
    toBcd(r.amount, 5),
    binary(r.ticketNumber % 10_000, 2),
    validationBcd(r.validation).subarray(0, 1),
    r.expires ? dateBcd(r.expires) : new Uint8Array(4),
    [0, 0],
  ]);
}

/** 0x70: length, status 00 with amount (unknown: 0), parsing code and number; or FF with no ticket in escrow. */
function ticketData(t: SasTicketSide): TicketReply {
  const e = t.redemption.escrow();
  if (!e) return payload(Uint8Array.of(1, 0xff));
  return payload(concat([[1 + 5 + 1 + VALIDATION_BYTES, 0x00], toBcd(0, 5), [PARSING_BCD], validationBcd(e.validation)]));
}

/** 0x71: length, transfer code, then (except for FF) amount, parsing code, number, and what this machine does not use (expiry, pool, target). */
function redeem(bytes: Uint8Array, t: SasTicketSide): TicketReply {
  const len = bytes[2] ?? 0;
  const code = bytes[3] ?? 0;
  // FF (status request) alone (length 01) or in a decision's full layout, whose other fields are not
  // read (until 7 December only length 01 was answered: a system asking in the full form was NACKed
  // and never read its ticket's end; tests/sas/redeem-status-full.test.ts). A decision needs its number.
  const full = len >= 1 + 5 + 1 + VALIDATION_BYTES;
  const short = code === 0xff ? len !== 1 && !full : !full || bytes[9] !== PARSING_BCD;
  if (short) return { kind: 'nack' };
  const amount = code === 0xff ? 0 : fromBcd(bytes, 4, 9);
  const r = t.redemption.redeem(code, amount, code === 0xff ? '' : validationDigits(bytes, 10));
  if (r.validation === null || r.status === REDEEM_STATUS.notCompatible || r.status === REDEEM_STATUS.noInfo) return payload(Uint8Array.of(1, r.status));
  return payload(concat([[1 + 5 + 1 + VALIDATION_BYTES, r.status], toBcd(r.amount, 5), [PARSING_BCD], validationBcd(r.validation)]), r.onAck);
}
