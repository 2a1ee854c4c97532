// ITL SSP byte values (research note §1.3, from GA138 SSP Protocol Manual v2.2).

export const STX = 0x7f;
export const SEQ_BIT = 0x80;

export const CMD = {
  RESET: 0x01,
  SET_INHIBITS: 0x02,
  DISPLAY_ON: 0x03,
  DISPLAY_OFF: 0x04,
  SETUP_REQUEST: 0x05,
  HOST_PROTOCOL_VERSION: 0x06,
  POLL: 0x07,
  REJECT: 0x08,
  DISABLE: 0x09,
  ENABLE: 0x0a,
  GET_SERIAL: 0x0c,
  SYNC: 0x11,
  LAST_REJECT_CODE: 0x17,
  HOLD: 0x18,
} as const;

export const RESP = {
  OK: 0xf0,
  UNKNOWN: 0xf2,
  WRONG_PARAMS: 0xf3,
  OUT_OF_RANGE: 0xf4,
  CANNOT_PROCESS: 0xf5,
  SOFTWARE_ERROR: 0xf6,
  FAIL: 0xf8,
  KEY_NOT_SET: 0xfa,
} as const;

export const EVENT = {
  SLAVE_RESET: 0xf1,
  READ: 0xef,
  CREDIT: 0xee,
  REJECTING: 0xed,
  REJECTED: 0xec,
  STACKING: 0xcc,
  STACKED: 0xeb,
  SAFE_JAM: 0xea,
  UNSAFE_JAM: 0xe9,
  DISABLED: 0xe8,
  STACKER_FULL: 0xe7,
  FRAUD: 0xe6,
  CLEARED_FROM_FRONT: 0xe1,
  CLEARED_INTO_CASHBOX: 0xe2,
  CASHBOX_REMOVED: 0xe3,
  CASHBOX_REPLACED: 0xe4,
  NOTE_PATH_OPEN: 0xe0,
  CHANNEL_DISABLE: 0xb5,
} as const;

/** Data bytes carried by each validator event (protocol versions 4–7; payout events not handled). */
export const EVENT_DATA: Readonly<Record<number, number>> = {
  [EVENT.READ]: 1,
  [EVENT.CREDIT]: 1,
  [EVENT.FRAUD]: 1,
  [EVENT.CLEARED_FROM_FRONT]: 1,
  [EVENT.CLEARED_INTO_CASHBOX]: 1,
  [EVENT.SLAVE_RESET]: 0,
  [EVENT.REJECTING]: 0,
  [EVENT.REJECTED]: 0,
  [EVENT.STACKING]: 0,
  [EVENT.STACKED]: 0,
  [EVENT.SAFE_JAM]: 0,
  [EVENT.UNSAFE_JAM]: 0,
  [EVENT.DISABLED]: 0,
  [EVENT.STACKER_FULL]: 0,
  [EVENT.CASHBOX_REMOVED]: 0,
  [EVENT.CASHBOX_REPLACED]: 0,
  [EVENT.NOTE_PATH_OPEN]: 0,
  [EVENT.CHANNEL_DISABLE]: 0,
};

export interface SspEvent {
  code: number;
  data: number[];
}

/** Splits the events of a POLL reply (after the 0xF0). Null if an event is unknown (cannot size it). */
export function parsePollEvents(data: Uint8Array, from = 1): SspEvent[] | null {
  const out: SspEvent[] = [];
  let i = from;
  while (i < data.length) {
    const code = data[i] ?? 0;
    const n = EVENT_DATA[code];
    if (n === undefined || i + 1 + n > data.length) return null;
    out.push({ code, data: Array.from(data.subarray(i + 1, i + 1 + n)) });
    i += 1 + n;
  }
  return out;
}

export interface SetupInfo {
  unitType: number;
  firmware: string;
  country: string;
  valueMultiplier: number;
  protocolVersion: number;
  realValueMultiplier: number;
  /** Face value (major units) per channel, channel 1 first. */
  channels: number[];
}

const u24be = (d: Uint8Array, o: number): number => ((d[o] ?? 0) << 16) | ((d[o + 1] ?? 0) << 8) | (d[o + 2] ?? 0);
const ascii = (d: Uint8Array, o: number, n: number): string => String.fromCharCode(...d.subarray(o, o + n));

/**
 * SETUP REQUEST reply of a validator (after 0xF0): unit type, firmware (4 ASCII), country (3 ASCII),
 * value multiplier (u24 BE), n, n channel values, n security levels, real value multiplier (u24
 * BE), protocol version; from version 6 also n country codes and n u32 LE channel values.
 */
export function parseSetup(data: Uint8Array): SetupInfo | null {
  const d = data.subarray(1);
  if (d.length < 12) return null;
  const n = d[11] ?? 0;
  const afterSec = 12 + 2 * n;
  if (d.length < afterSec + 4) return null;
  const valueMultiplier = u24be(d, 8) || 1;
  const protocolVersion = d[afterSec + 3] ?? 0;
  let values = Array.from(d.subarray(12, 12 + n));
  if (protocolVersion >= 6) {
    const longAt = afterSec + 4 + 3 * n;
    if (d.length < longAt + 4 * n) return null;
    values = values.map(
      (_, i) =>
        ((d[longAt + 4 * i] ?? 0) | ((d[longAt + 4 * i + 1] ?? 0) << 8) | ((d[longAt + 4 * i + 2] ?? 0) << 16) | ((d[longAt + 4 * i + 3] ?? 0) << 24)) >>> 0,
    );
  }
  return {
    unitType: d[0] ?? 0,
    firmware: ascii(d, 1, 4),
    country: ascii(d, 5, 3),
    valueMultiplier,
    protocolVersion,
    realValueMultiplier: u24be(d, afterSec),
    channels: values.map((v) => v * valueMultiplier),
  };
}
