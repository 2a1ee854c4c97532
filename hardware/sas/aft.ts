// AFT, the cashless wallet (SAS 6.02 §8, long polls 0x72 AFT transfer funds and 0x74 AFT game lock
// and status request; layouts in docs/sas.md, "AFT"): the machine side parses and encodes, the
// station (an injected `SasAftSide`) decides each transfer and journals it before the answer is
// sent. Binary fields least significant byte first, BCD most significant first (§2.2.3); amounts
// in the currency's minor units as the host passes them (cents: our reading of §8's tables).
import { fromBcd, toBcd } from './bcd.js';
import type { AftRecord, AftRequest, SasAftSide } from './types.js';

/** 0x72's transfer status (Table 8.3d), the codes the kiosk answers. */
export const AFT_STATUS = {
  full: 0x00,
  partial: 0x01,
  notUnique: 0x81,
  notValidFunction: 0x82,
  notValidAmount: 0x83,
  overLimit: 0x84,
  unableNow: 0x87,
  notRegistered: 0x88,
  keyMismatch: 0x89,
  receiptUnavailable: 0x90,
  assetMismatch: 0x93,
  notLocked: 0x94,
  idNotValid: 0x95,
  unsupportedCode: 0xc1,
  noInfo: 0xff,
} as const;

/** 0x72's transfer types the kiosk takes (Table 8.3b): in-house cashable credit, host to machine and machine to host. */
export const AFT_TYPE = { toMachine: 0x00, toHost: 0x80 } as const;

/** Transfer flags (0x72): bit 6 transfer only if locked, bit 7 a transaction receipt requested. */
export const AFT_FLAG = { onlyIfLocked: 0x40, receipt: 0x80 } as const;

/**
 * The answer's bits 0–2 (host cash-out controllable, enabled, hard) are the machine's host cash-out
 * state in force, not the request's (the answer's field table as the public Aristocrat SAS client
 * quotes it, `LP72AftTransferFundsParser.cs`: "0 = cashout to host forced by gaming machine", "0 =
 * cashout to host currently disabled", "0 = host cashout mode currently soft"). The kiosk has no
 * host cash-out (docs/sas.md, "Why no 6A or 6B"; 0x74's host cash-out status 00), so they are 0
 * whatever a request asked: not refused (no status says "host cash-out unsupported"), not echoed.
 */
const HOST_CASHOUT_STATE = 0x07;

export type AftReply = { kind: 'payload'; payload: Uint8Array } | { kind: 'nack' } | { kind: 'ignore' };

const binary = (value: number, n: number): number[] => Array.from({ length: n }, (_, i) => Math.floor(value / 256 ** i) % 256);
const readBinary = (b: Uint8Array, from: number, n: number): number =>
  Array.from({ length: n }, (_, i) => (b[from + i] ?? 0) * 256 ** i).reduce((a, x) => a + x, 0);

/** Offsets in a full 0x72 request (address at 0). */
const AT = {
  length: 2,
  code: 3,
  index: 4,
  type: 5,
  cashable: 6,
  restricted: 11,
  nonRestricted: 16,
  flags: 21,
  asset: 22,
  key: 26,
  idLength: 46,
  id: 47,
} as const;

/** 0x72: a transfer, an interrogation, or a cancel; its answer's payload (after address and command). */
export function aftTransferPoll(bytes: Uint8Array, side: SasAftSide): AftReply {
  const len = bytes[AT.length] ?? 0;
  const code = bytes[AT.code] ?? 0;
  // An interrogation (FE status only, FF) in the short form (length 02) or a whole request's layout
  // (Table 8.3a): only the index is read, never the fields after it. One too short to hold its index
  // (length 00 or 01: the byte there is the CRC's) cannot be read. Until 7 December any length but 02
  // was NACKed, so a system interrogating in the full form never read its transfer.
  if (code === 0xfe || code === 0xff) return len >= 2 ? answer(side.interrogate(bytes[AT.index] ?? 0)) : answer(null, AFT_STATUS.notValidFunction);
  // A transfer completes as it is answered (nothing is left pending): a cancel finds nothing to cancel and reads the current one.
  if (code === 0x80) return answer(side.interrogate(0));
  if (code !== 0x00 && code !== 0x01) return answer(null, AFT_STATUS.unsupportedCode);
  const request = parseTransfer(bytes);
  if (typeof request === 'number') return answer(null, request);
  return answer(side.transfer(request));
}

/** Table 8.3a: a transaction id is 1–20 ASCII characters; only the printable ones (20h–7Eh) can be journalled and given back as sent. */
const ID_LONGEST = 20;
const printable = (x: number): boolean => x >= 0x20 && x <= 0x7e;

/**
 * The request, or the status that refuses it before anything is made of its bytes. A transfer whose
 * fields cannot be read (the message too short for its id length byte, or for the id it announces,
 * or the fields after the id not ending where the message does: `fieldsFill`) is 82; an id of 0 or more than 20 bytes, or with a byte that is not printable ASCII, is 95
 * (transaction ID not valid). Neither is made the current transaction (the short answer): an id
 * refused so cannot be given back as the host sent it. Until 7 December the id's bytes were made a
 * string whatever they were, handed to the station and echoed masked to 7 bits (C1 answered as "A").
 */
function parseTransfer(b: Uint8Array): AftRequest | number {
  const len = b[AT.length] ?? 0;
  if (b.length !== 3 + len + 2 || len <= AT.idLength - 3) return AFT_STATUS.notValidFunction;
  const idLength = b[AT.idLength] ?? 0;
  if (idLength === 0 || idLength > ID_LONGEST) return AFT_STATUS.idNotValid;
  if (len < AT.id - 3 + idLength) return AFT_STATUS.notValidFunction;
  if (!fieldsFill(b, AT.id + idLength)) return AFT_STATUS.notValidFunction;
  const id = b.subarray(AT.id, AT.id + idLength);
  if (!id.every(printable)) return AFT_STATUS.idNotValid;
  const key = b.subarray(AT.key, AT.key + 20);
  return {
    code: b[AT.code] ?? 0,
    index: b[AT.index] ?? 0,
    type: b[AT.type] ?? 0,
    cashable: fromBcd(b, AT.cashable, AT.cashable + 5),
    restricted: fromBcd(b, AT.restricted, AT.restricted + 5),
    nonRestricted: fromBcd(b, AT.nonRestricted, AT.nonRestricted + 5),
    flags: b[AT.flags] ?? 0,
    assetNumber: readBinary(b, AT.asset, 4),
    keyZero: key.every((x) => x === 0),
    key: key.slice(),
    transactionId: String.fromCharCode(...id),
  };
}

/**
 * Whether the fields after the id (Table 8.3a: expiration 4 BCD, pool id 2, receipt data length 1
 * and its data, lock timeout 2 BCD) end exactly where the length byte ends the message. The kiosk
 * reads none of them, but one that runs past the message, or leaves bytes after the lock timeout,
 * says the host's layout is not 0x72's: its amounts and id cannot be trusted to be where they are
 * read. Until 8 December the length was checked only as far as the id, and such a message moved money.
 */
function fieldsFill(b: Uint8Array, afterId: number): boolean {
  const end = 3 + (b[AT.length] ?? 0);
  const receiptLengthAt = afterId + 4 + 2;
  if (receiptLengthAt >= end) return false;
  return receiptLengthAt + 1 + (b[receiptLengthAt] ?? 0) + 2 === end;
}

/** The 0x72 answer: length, position, status, receipt status (FF: none), type, amounts, flags, asset, id, date, time, expiry, pool, the three cumulative meters. */
function answer(r: AftRecord | null, status?: number): AftReply {
  if (!r) return { kind: 'payload', payload: Uint8Array.of(2, 0x00, status ?? AFT_STATUS.noInfo) };
  const id = [...r.transactionId].slice(0, 20).map((c) => c.charCodeAt(0) & 0x7f);
  const meter = r.cumulative === null ? [0] : [5, ...toBcd(r.cumulative, 5)];
  const at = r.at
    ? [...toBcd(r.at.month, 1), ...toBcd(r.at.day, 1), ...toBcd(r.at.year, 2), ...toBcd(r.at.hour, 1), ...toBcd(r.at.minute, 1), ...toBcd(r.at.second, 1)]
    : new Array<number>(7).fill(0);
  const body = [
    r.position,
    r.status,
    0xff,
    r.type,
    ...toBcd(r.cashable, 5),
    ...toBcd(0, 5),
    ...toBcd(0, 5),
    r.flags & ~HOST_CASHOUT_STATE,
    ...binary(r.assetNumber, 4),
    id.length,
    ...id,
    ...at,
    ...toBcd(0, 4),
    0,
    0,
    ...meter,
    0,
    0,
  ];
  return { kind: 'payload', payload: Uint8Array.from([body.length, ...body]) };
}

/** 0x74: lock code (00 request, 80 cancel, FF status only), transfer condition, lock timeout (2 BCD, hundredths of a second); the station decides the lock before the status is read (§8.4). */
export function aftStatusPoll(bytes: Uint8Array, side: SasAftSide): AftReply {
  const lock = bytes[2] ?? 0;
  if (lock !== 0x00 && lock !== 0x80 && lock !== 0xff) return { kind: 'nack' };
  const timeout = fromBcd(bytes, 4, 6);
  if (lock !== 0xff && timeout === null) return { kind: 'nack' };
  if (lock !== 0xff) side.lock({ code: lock === 0x00 ? 0x00 : 0x80, condition: bytes[3] ?? 0, timeoutHundredths: timeout ?? 0 });
  const s = side.status();
  const body = [
    ...binary(s.assetNumber, 4),
    s.lock,
    s.availableTransfers,
    0x00, // cash-out to host forced by the machine, disabled
    s.aftStatus,
    0x7f,
    ...toBcd(s.cashable, 5),
    ...toBcd(0, 5),
    ...toBcd(0, 5),
    ...toBcd(s.transferLimit, 5),
    ...toBcd(0, 4),
    0,
    0,
  ];
  return { kind: 'payload', payload: Uint8Array.from([body.length, ...body]) };
}
