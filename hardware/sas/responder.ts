// The long polls a table station answers (docs/sas.md lists them with their layouts): each takes
// the whole request (address … CRC) and gives the bytes to send, an ACK or NACK, or nothing — an
// unknown poll, a bad CRC, a game number other than 0000, or a meter the station does not track
// are all ignored, never answered wrongly (SAS 6.02 §4.4, §7.1, §7.6.3).
import { fromBcd, bcdBytesFor, toBcd } from './bcd.js';
import { DENOMINATION_CODES, LP, METER_CODES, meterForCode, type MeterName } from './constants.js';
import { crc16Kermit } from '../crc.js';
import { hasCrc } from './request.js';
import { ticketPoll } from './ticket-polls.js';
import { systemValidationPoll } from './system-validation.js';
import { aftStatusPoll, aftTransferPoll, type AftReply } from './aft.js';
import { aftRegisterPoll } from './aft-register.js';
import type { SasDateTime, SasGameSide, SasMeters } from './types.js';

export type Reply =
  | { kind: 'ignore' }
  /** `onAck`: what the host's implied ACK of this answer does (0x4D's record read); one that throws is run again at the host's next poll. */
  | { kind: 'send'; bytes: Uint8Array; onAck?: () => void }
  /** Long poll 0x21: ACKed now, the signature reported at a general poll once computed (§6.1). */
  | { kind: 'rom'; seed: number; bytes: Uint8Array };

const IGNORE: Reply = { kind: 'ignore' };

/** `[address, command, ...payload, CRC low, CRC high]`: a multi-byte response with its CRC (§5.2). */
export function withCrc(address: number, command: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(payload.length + 4);
  out[0] = address;
  out[1] = command;
  out.set(payload, 2);
  const crc = crc16Kermit(out, 0, payload.length + 2);
  out[payload.length + 2] = crc & 0xff;
  out[payload.length + 3] = crc >>> 8;
  return out;
}

/** Whether a request's last two bytes are the CRC of the rest, low byte first. */
export function crcOk(bytes: Uint8Array): boolean {
  const n = bytes.length;
  if (n < 4) return false;
  const crc = crc16Kermit(bytes, 0, n - 2);
  return bytes[n - 2] === (crc & 0xff) && bytes[n - 1] === crc >>> 8;
}

const send = (bytes: Uint8Array): Reply => ({ kind: 'send', bytes });
const ack = (address: number): Reply => send(Uint8Array.of(address));
const nack = (address: number): Reply => send(Uint8Array.of(address | 0x80));

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function ascii(s: string, length: number): Uint8Array {
  const out = new Uint8Array(length).fill(0x20);
  for (let i = 0; i < Math.min(length, s.length); i++) out[i] = s.charCodeAt(i) & 0x7f;
  return out;
}

/** 4-byte BCD meters, a meter the station leaves out as 0 (§7.1: a meter known to be zero is reported as zero). */
function meterBlock(meters: SasMeters, names: readonly MeterName[]): Uint8Array {
  return concat(names.map((n) => toBcd(meters[n] ?? 0, 4)));
}

const SINGLE = new Map<number, MeterName>([
  [LP.cancelledCredits, 'cancelledCredits'],
  [LP.coinIn, 'coinIn'],
  [LP.coinOut, 'coinOut'],
  [LP.drop, 'drop'],
  [LP.jackpot, 'jackpot'],
  [LP.gamesPlayed, 'gamesPlayed'],
  [LP.gamesWon, 'gamesWon'],
  [LP.gamesLost, 'gamesLost'],
  [LP.currentCredits, 'currentCredits'],
]);
const BLOCKS = new Map<number, readonly MeterName[]>([
  [LP.meters10to15, ['cancelledCredits', 'coinIn', 'coinOut', 'drop', 'jackpot', 'gamesPlayed']],
  [LP.meters11to15, ['coinIn', 'coinOut', 'drop', 'jackpot', 'gamesPlayed']],
  [LP.meters, ['coinIn', 'coinOut', 'drop', 'jackpot', 'gamesPlayed', 'gamesWon', 'slotDoorOpened', 'powerResets']],
]);

/** The reply to a long poll addressed to this machine (`bytes` whole, `address` its own). */
export function respond(bytes: Uint8Array, game: SasGameSide): Reply {
  const address = bytes[0] ?? 0;
  const command = bytes[1] ?? 0;
  if (hasCrc(command) && !crcOk(bytes)) return IGNORE;
  const single = SINGLE.get(command);
  if (single) {
    const v = game.meters()[single];
    return v === undefined ? IGNORE : send(withCrc(address, command, toBcd(v, 4)));
  }
  const block = BLOCKS.get(command);
  if (block) return send(withCrc(address, command, meterBlock(game.meters(), block)));
  return control(bytes, game) ?? information(bytes, game) ?? tickets(bytes, game) ?? systemValidation(bytes, game) ?? aft(bytes, game) ?? IGNORE;
}

/** 0x57/0x58 (system validation, §15.7–15.8): ignored as unknown at a station that numbers its own tickets. */
function systemValidation(bytes: Uint8Array, game: SasGameSide): Reply | null {
  const r = systemValidationPoll(bytes, game.systemValidation);
  if (r === null) return null;
  return r.kind === 'ignore' ? IGNORE : send(withCrc(bytes[0] ?? 0, bytes[1] ?? 0, r.payload));
}

function aft(bytes: Uint8Array, game: SasGameSide): Reply | null {
  const command = bytes[1] ?? 0;
  if (command !== LP.aftTransfer && command !== LP.aftStatus && command !== LP.aftRegister) return null;
  const side = game.aft;
  if (!side) return IGNORE;
  // 0x73 only where the station takes registration (SAS 6.02 §8; hardware/sas/aft-register.ts).
  const registration = side.registration;
  if (command === LP.aftRegister && !registration) return IGNORE;
  // A station that cannot journal the transfer or the lock's fault throws through: the machine
  // reports it (`poll-failed`) and answers nothing, nothing moved; the host asks again.
  let r: AftReply;
  if (command === LP.aftRegister) r = registration ? aftRegisterPoll(bytes, registration) : { kind: 'ignore' };
  else r = command === LP.aftTransfer ? aftTransferPoll(bytes, side) : aftStatusPoll(bytes, side);
  if (r.kind === 'ignore') return IGNORE;
  return r.kind === 'nack' ? nack(bytes[0] ?? 0) : send(withCrc(bytes[0] ?? 0, command, r.payload));
}

function tickets(bytes: Uint8Array, game: SasGameSide): Reply | null {
  const r = ticketPoll(bytes, game);
  if (r === null) return null;
  const address = bytes[0] ?? 0;
  if (r.kind === 'ignore') return IGNORE;
  if (r.kind === 'nack') return nack(address);
  const answer = withCrc(address, bytes[1] ?? 0, r.payload);
  return r.onAck ? { kind: 'send', bytes: answer, onAck: r.onAck } : send(answer);
}

/** The polls that change the station: play, the bill acceptor, the clock, a handpay, the ROM check. */
function control(bytes: Uint8Array, game: SasGameSide): Reply | null {
  const address = bytes[0] ?? 0;
  switch (bytes[1]) {
    case LP.shutdown:
    case LP.startup:
      return game.setPlay(bytes[1] === LP.startup) ? ack(address) : nack(address);
    case LP.enableBills:
    case LP.disableBills:
      return game.setBillAcceptor(bytes[1] === LP.enableBills) ? ack(address) : nack(address);
    case LP.receiveDateTime: {
      const t = parseDateTime(bytes);
      return t && game.setTime(t) ? ack(address) : nack(address);
    }
    case LP.remoteHandpayReset: {
      const code = { reset: 0x00, unable: 0x01, none: 0x02 }[game.resetHandpay()];
      return send(withCrc(address, LP.remoteHandpayReset, Uint8Array.of(code)));
    }
    case LP.romSignature:
      return { kind: 'rom', seed: (bytes[2] ?? 0) | ((bytes[3] ?? 0) << 8), bytes: Uint8Array.of(address) };
    default:
      return null;
  }
}

/** The polls that only read: identity, version, handpay, clock, selected and extended meters. */
function information(bytes: Uint8Array, game: SasGameSide): Reply | null {
  const address = bytes[0] ?? 0;
  const command = bytes[1] ?? 0;
  switch (command) {
    case LP.gamesSincePowerUpAndDoor: {
      const m = game.meters();
      if (m.gamesSincePowerUp === undefined && m.gamesSinceDoorClosed === undefined) return IGNORE;
      return send(withCrc(address, command, concat([toBcd(m.gamesSincePowerUp ?? 0, 2), toBcd(m.gamesSinceDoorClosed ?? 0, 2)])));
    }
    case LP.machineInfo:
      return send(withCrc(address, command, machineInfo(game)));
    case LP.versionAndSerial: {
      const serial = ascii(game.info.serialNumber, Math.min(40, game.info.serialNumber.length));
      return send(withCrc(address, command, concat([Uint8Array.of(3 + serial.length), ascii('602', 3), serial])));
    }
    case LP.handpayInfo:
      return send(withCrc(address, command, handpayInfo(game)));
    case LP.sendDateTime:
      return send(withCrc(address, command, dateTimeBcd(game.now())));
    case LP.selectedMeters:
      return selectedMeters(bytes, game);
    case LP.extendedMeters:
    case LP.extendedMetersAlt:
      return extendedMeters(bytes, game);
    default:
      return null;
  }
}

function machineInfo(game: SasGameSide): Uint8Array {
  const i = game.info;
  const options = i.gameOptions & 0xffff;
  return concat([
    ascii(i.gameId, 2),
    ascii(i.additionalId, 3),
    Uint8Array.of(
      DENOMINATION_CODES.get(i.denominationMinor) ?? 0,
      Math.min(0xff, Math.max(0, i.maxBet)),
      i.progressiveGroup & 0xff,
      options & 0xff,
      options >>> 8,
    ),
    ascii(i.paytableId, 6),
    ascii(i.basePercent, 4),
  ]);
}

/** Long poll 0x1B: group, level, amount (5 BCD), partial pay (2 BCD), reset ID, 10 unused bytes; all zeros with no handpay pending (§7.8.2). */
function handpayInfo(game: SasGameSide): Uint8Array {
  const h = game.handpay();
  if (!h) return new Uint8Array(20);
  return concat([
    Uint8Array.of(h.progressiveGroup & 0xff, h.level & 0xff),
    toBcd(h.amount, 5),
    toBcd(h.partialPay, 2),
    Uint8Array.of(h.resetId & 0xff),
    new Uint8Array(10),
  ]);
}

/** MMDDYYYY (4 BCD) and HHMMSS (3 BCD). */
function dateTimeBcd(t: SasDateTime): Uint8Array {
  return concat([toBcd(t.month, 1), toBcd(t.day, 1), toBcd(t.year, 2), toBcd(t.hour, 1), toBcd(t.minute, 1), toBcd(t.second, 1)]);
}

function parseDateTime(bytes: Uint8Array): SasDateTime | null {
  const f = (from: number, n: number): number | null => fromBcd(bytes, from, from + n);
  const [month, day, year, hour, minute, second] = [f(2, 1), f(3, 1), f(4, 2), f(6, 1), f(7, 1), f(8, 1)];
  if (month === null || day === null || year === null || hour === null || minute === null || second === null) return null;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  if (day > daysIn(year, month)) return null;
  return { year, month, day, hour, minute, second };
}

/**
 * The days of `month` (1–12) in `year` by the Gregorian calendar, any year BCD carries (0000–9999).
 * Not Date.UTC's: it reads the years 0–99 as 1900–1999, and 29 February 0000 (a leap year) was
 * refused as 1900's (until 7 December).
 */
function daysIn(year: number, month: number): number {
  if (month !== 2) return [4, 6, 9, 11].includes(month) ? 30 : 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/** The game number of a multi-game poll (2 BCD at index 3): this station is one game, 0000. */
function isWholeMachine(bytes: Uint8Array): boolean {
  return bytes[3] === 0 && bytes[4] === 0;
}

/**
 * Table C-7's size of a meter, where 0x2F sends it without one: five BCD bytes for the meters
 * counted in cents (this station reports two: A0 and B8, the in-house cashable transfers), four
 * for the others. A system reads each value by the table: one meter sent short shifts the rest.
 */
function tableSize(code: number): 4 | 5 {
  return code === METER_CODES.aftInCents || code === METER_CODES.aftOutCents ? 5 : 4;
}

/** Long poll 0x2F: up to 10 one-byte meter codes, each answered as code and its Table C-7 size of BCD; an untracked meter is left out. */
function selectedMeters(bytes: Uint8Array, game: SasGameSide): Reply {
  const address = bytes[0] ?? 0;
  const len = bytes[2] ?? 0;
  if (len < 3 || len > 12 || !isWholeMachine(bytes)) return IGNORE;
  const meters = game.meters();
  const parts: Uint8Array[] = [Uint8Array.of(0, 0)];
  for (let i = 5; i < 3 + len; i++) {
    const code = bytes[i] ?? 0;
    const name = meterForCode(code);
    const v = name === undefined ? undefined : meters[name];
    if (v !== undefined) parts.push(Uint8Array.of(code), toBcd(v, tableSize(code)));
  }
  const body = concat(parts);
  return send(withCrc(address, LP.selectedMeters, concat([Uint8Array.of(body.length), body])));
}

/** Long polls 0x6F/0xAF: up to 12 two-byte codes (LSB first), each answered as code, size and that many BCD bytes (4 at least, up to 9); size 0 for an untracked meter. */
function extendedMeters(bytes: Uint8Array, game: SasGameSide): Reply {
  const address = bytes[0] ?? 0;
  const command = bytes[1] ?? 0;
  const len = bytes[2] ?? 0;
  if (len < 4 || len > 26 || len % 2 !== 0 || !isWholeMachine(bytes)) return IGNORE;
  const meters = game.meters();
  const parts: Uint8Array[] = [Uint8Array.of(0, 0)];
  for (let i = 5; i + 1 < 3 + len; i += 2) {
    const code = (bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8);
    const name = code > 0xff ? undefined : meterForCode(code);
    const v = name === undefined ? undefined : meters[name];
    const size = v === undefined ? 0 : Math.min(9, Math.max(tableSize(code), bcdBytesFor(v)));
    parts.push(Uint8Array.of(code & 0xff, code >>> 8, size));
    if (v !== undefined) parts.push(toBcd(v, size));
  }
  const body = concat(parts);
  return send(withCrc(address, command, concat([Uint8Array.of(body.length), body])));
}
