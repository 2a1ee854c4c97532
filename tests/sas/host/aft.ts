// AFT as a casino management system drives it (SAS 6.02 §8, the layouts docs/sas.md quotes for
// 0x72 and 0x74), with the simulator's own codecs: no import of hardware/sas/.
import { appendCrc, bcd, unbcd } from './codec.js';
import type { SasHost } from './host.js';

const le = (value: number, n: number): number[] => Array.from({ length: n }, (_, i) => Math.floor(value / 256 ** i) % 256);
const unle = (bytes: readonly number[]): number => bytes.reduce((a, b, i) => a + b * 256 ** i, 0);

export interface TransferAsk {
  /** 00 full only, 01 partial allowed; FE/FF an interrogation in the full form (Table 8.3a: the fields after the index are the host's to fill, the machine reads none of them). */
  code?: number;
  /** The transaction index: 00 for a transfer (§8.3), 00–FF for an interrogation. */
  index?: number;
  /** 00 in-house to the machine, 80 in-house to the host. */
  type: number;
  cashable: number;
  restricted?: number;
  flags?: number;
  asset: number;
  /** 20 bytes; all zero: registration not required. */
  key?: number[];
  id: string;
}

/** A full 0x72 request: code, index 00, type, three amounts (5 BCD), flags, asset (4), key (20), id, expiry (4 BCD), pool (2), receipt data length 0, lock timeout (2 BCD). */
export function transfer72Bytes(address: number, a: TransferAsk): number[] {
  const id = [...a.id].map((c) => c.charCodeAt(0));
  const data = [
    a.code ?? 0x00,
    a.index ?? 0x00,
    a.type,
    ...bcd(a.cashable, 5),
    ...bcd(a.restricted ?? 0, 5),
    ...bcd(0, 5),
    a.flags ?? 0,
    ...le(a.asset, 4),
    ...(a.key ?? new Array<number>(20).fill(0)),
    id.length,
    ...id,
    ...bcd(0, 4),
    ...le(0, 2),
    0,
    ...bcd(0, 2),
  ];
  return appendCrc([address, 0x72, data.length, ...data]);
}

export interface Transfer72 {
  position: number;
  status: number;
  receipt: number | null;
  type: number | null;
  cashable: number | null;
  /** The transfer flags (Table 8.3b: after the three amounts), null in the short answer. */
  flags: number | null;
  asset: number | null;
  id: string | null;
  date: string | null;
  /** The cumulative cashable meter for the type (null: size 0). */
  cumulative: number | null;
}

export function read72(a: number[]): Transfer72 {
  const len = a[2] ?? 0;
  const d = a.slice(3, 3 + len);
  if (len === 2)
    return {
      position: d[0] ?? -1,
      status: d[1] ?? -1,
      receipt: null,
      type: null,
      cashable: null,
      flags: null,
      asset: null,
      id: null,
      date: null,
      cumulative: null,
    };
  const idLen = d[24] ?? 0;
  let i = 25 + idLen;
  const date = d
    .slice(i, i + 7)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
  i += 7 + 4 + 2;
  const size = d[i] ?? 0;
  return {
    position: d[0] ?? -1,
    status: d[1] ?? -1,
    receipt: d[2] ?? -1,
    type: d[3] ?? -1,
    cashable: unbcd(d.slice(4, 9)),
    flags: d[19] ?? -1,
    asset: unle(d.slice(20, 24)),
    id: String.fromCharCode(...d.slice(25, 25 + idLen)),
    date,
    cumulative: size === 0 ? null : unbcd(d.slice(i + 1, i + 1 + size)),
  };
}

export async function transfer72(h: SasHost, a: TransferAsk): Promise<Transfer72> {
  return read72(await h.poll(transfer72Bytes(h.address, a), 'variable'));
}

/** 0x72 interrogation: length 02, code FF, the transaction index. */
export async function interrogate72(h: SasHost, index: number): Promise<Transfer72> {
  return read72(await h.typeS(0x72, [0x02, 0xff, index], 'variable'));
}

/** 0x72 interrogation in the full form: a whole request's fields (`a`'s) with transfer code FF and the transaction index. */
export async function interrogate72Full(h: SasHost, index: number, a: TransferAsk): Promise<Transfer72> {
  return read72(await h.poll(transfer72Bytes(h.address, { ...a, code: 0xff, index }), 'variable'));
}

/** §8.4's game lock status in 0x74's answer. */
export const LOCK = { locked: 0x00, pending: 0x40, none: 0xff } as const;

/** 0x74: lock code (00 lock, 80 cancel, FF status only), transfer condition (bit 0 to the machine, bit 1 from it, 2 to a printer, 3 a bonus), lock timeout in hundredths of a second (2 BCD, 0000–9999). */
export async function status74(h: SasHost, lock = 0xff, condition = 0x00, hundredths = 0) {
  const a = await h.typeS(0x74, [lock, condition, ...bcd(hundredths, 2)], 'variable');
  const d = a.slice(3, 3 + (a[2] ?? 0));
  return {
    length: a[2],
    asset: unle(d.slice(0, 4)),
    lock: d[4],
    available: d[5],
    hostCashout: d[6],
    aftStatus: d[7],
    maxIndex: d[8],
    cashable: unbcd(d.slice(9, 14)),
    restricted: unbcd(d.slice(14, 19)),
    nonRestricted: unbcd(d.slice(19, 24)),
    limit: unbcd(d.slice(24, 29)),
  };
}
