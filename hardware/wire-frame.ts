// Frames on a device's wire, as a technician's trace shows them: the bytes in hex and what they
// mean in the device's protocol. Drivers hand every frame they send and every valid frame they
// receive to their `onFrame` listeners; nothing is stored here (the listener bounds its own copy).
import { bytesAscii } from './bytes.js';
import { CMD as ID003_CMD, REJECT_REASONS, STATUS as ID003_STATUS } from './billacceptor/id003/constants.js';
import type { Id003Frame } from './billacceptor/id003/frame.js';
import { CMD as SSP_CMD, EVENT as SSP_EVENT, EVENT_DATA as SSP_EVENT_DATA, RESP as SSP_RESP, STX as SSP_STX } from './billacceptor/ssp/constants.js';
import { cardFromWire } from './shoe/card-code.js';
import { MSG as SHOE_MSG, type ShoeFrame } from './shoe/framed.js';

export interface WireFrame {
  /** `tx`: the host sent it; `rx`: the device did. */
  dir: 'tx' | 'rx';
  hex: string;
  meaning: string;
}

/** What a FrameChannel hands its tap: the bytes written, the frames parsed. */
export interface FrameTap<F> {
  tx(bytes: Uint8Array): void;
  rx(frame: F): void;
}

// A frame is traced at every poll of every device: the byte's hex is one function made once, and
// the names are looked up in loops, not by a closure made at every call (a new function to V8,
// optimised again and again over a long run: issue 52).
const byteHex = (b: number): string => b.toString(16).padStart(2, '0');

export function hex(bytes: ArrayLike<number>): string {
  return Array.from(bytes, byteHex).join(' ').toUpperCase();
}

function nameOf(table: Readonly<Record<string, number>>, code: number): string | undefined {
  for (const [name, v] of Object.entries(table)) if (v === code) return name.replace(/_/g, ' ');
  return undefined;
}

const code = (c: number) => `0x${c.toString(16).padStart(2, '0')}`;

// ── ID-003 ──

/** A command the host wrote: SYNC LNG CMD DATA… CRC. */
export function id003Tx(bytes: Uint8Array): WireFrame {
  const c = bytes[2] ?? 0;
  const data = bytes.subarray(3, Math.max(3, bytes.length - 2));
  return { dir: 'tx', hex: hex(bytes), meaning: `${nameOf(ID003_CMD, c) ?? `command ${code(c)}`}${data.length ? ` [${hex(data)}]` : ''}` };
}

/** A reply: a status (with its escrow code, reject reason or failure code), an echo, a version. */
export function id003Rx(f: Id003Frame, bytes: Uint8Array): WireFrame {
  const d = f.data;
  let meaning: string;
  if (f.code === ID003_CMD.GET_VERSION || f.code === ID003_CMD.GET_BOOT_VERSION) meaning = `${nameOf(ID003_CMD, f.code)} "${bytesAscii(d).trim()}"`;
  else if (f.code === ID003_STATUS.REJECTING) meaning = `REJECTING: ${REJECT_REASONS[d[0] ?? 0] ?? code(d[0] ?? 0)}`;
  else if (f.code === ID003_STATUS.ESCROW) meaning = `ESCROW code ${code(d[0] ?? 0)}`;
  else if (f.code === ID003_STATUS.FAILURE) meaning = `FAILURE ${code(d[0] ?? 0)}`;
  else {
    // Setting commands are answered by their echo, operation commands by ACK.
    const status = nameOf(ID003_STATUS, f.code);
    const echo = nameOf(ID003_CMD, f.code);
    meaning = `${status ?? (echo ? `${echo} (echo)` : `status ${code(f.code)}`)}${d.length ? ` [${hex(d)}]` : ''}`;
  }
  return { dir: 'rx', hex: hex(bytes), meaning };
}

// ── SSP ──

/** A packet the host wrote (STX SEQ/ID LEN DATA… CRC, 0x7F stuffed): the command, or "encrypted". */
export function sspTx(bytes: Uint8Array): WireFrame {
  const plain: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    plain.push(bytes[i] ?? 0);
    if (i > 0 && bytes[i] === SSP_STX && bytes[i + 1] === SSP_STX) i++;
  }
  const first = plain[3] ?? 0;
  const meaning = first === 0x7e ? 'encrypted command (eSSP)' : (nameOf(SSP_CMD, first) ?? `command ${code(first)}`);
  return { dir: 'tx', hex: hex(bytes), meaning: `${meaning} · seq ${(plain[1] ?? 0) & 0x80 ? 1 : 0}` };
}

/** A reply's data: the generic response, then the events of a POLL reply with their data. */
export function sspRx(data: Uint8Array): WireFrame {
  if (data[0] === 0x7e) return { dir: 'rx', hex: hex(data), meaning: 'encrypted reply (eSSP)' };
  const parts = [nameOf(SSP_RESP, data[0] ?? 0) ?? `response ${code(data[0] ?? 0)}`];
  for (let i = 1; i < data.length; i++) {
    const e = data[i] ?? 0;
    const name = nameOf(SSP_EVENT, e);
    if (!name) {
      // Not an event: the data of a command's reply (serial number, setup, key), shown as bytes.
      parts.push(`[${hex(data.subarray(i))}]`);
      break;
    }
    const n = SSP_EVENT_DATA[e] ?? 0;
    parts.push(n ? `${name} ${hex(data.subarray(i + 1, i + 1 + n))}` : name);
    i += n;
  }
  return { dir: 'rx', hex: hex(data), meaning: parts.join(', ') };
}

// ── the framed shoe ──

export function shoeTx(bytes: Uint8Array): WireFrame {
  const type = bytes[4] ?? 0;
  const seq = (bytes[2] ?? 0) | ((bytes[3] ?? 0) << 8);
  return { dir: 'tx', hex: hex(bytes), meaning: `${nameOf(SHOE_MSG, type) ?? `message ${code(type)}`}${seq ? ` #${seq}` : ''}` };
}

export function shoeRx(f: ShoeFrame, bytes: Uint8Array): WireFrame {
  let meaning = nameOf(SHOE_MSG, f.type) ?? `message ${code(f.type)}`;
  // A drawn card names its card (rank and suit after the event's sequence number).
  const card = f.type === SHOE_MSG.CARD_DRAWN ? cardFromWire(f.payload[2] ?? 0, f.payload[3] ?? 0) : null;
  if (card) meaning += ` ${card}`;
  else if (f.payload.length) meaning += ` [${hex(f.payload)}]`;
  return { dir: 'rx', hex: hex(bytes), meaning: `${meaning}${f.seq ? ` #${f.seq}` : ''}` };
}
