// Assembles the host's messages from received characters. A message starts at a character with
// the wake-up bit (SAS 6.02 §1.2.1) and, for the long polls this machine answers, its length is
// known from its command (fixed, or 3 + the length byte + 2); an unknown command's bytes are
// skipped up to the next wake-up character, as is any message that stalls longer than the
// inter-byte limit (5 ms, §2.3.2) or is cut short by the next wake-up character.
import { crc16Kermit } from '../crc.js';
import { LP } from './constants.js';

export type Heard =
  /** A general poll (0x80 | address), for any address. */
  | { kind: 'general'; address: number; at: number; end: number }
  /**
   * A long poll to this machine or a global broadcast (address 0): the whole message, or, for a
   * command this machine does not know, every byte up to the next wake-up character or stall (its
   * length unknown here: the machine tells a real host's unsupported poll from line noise by it).
   */
  | { kind: 'long'; address: number; command: number; bytes: Uint8Array; known: boolean; at: number; end: number }
  /**
   * A long poll to another machine: its bytes up to the next wake-up character or stall (its
   * command is not known here; the machine takes it as an implied ACK only if a host could have
   * sent it: two bytes, type R, or ending in its CRC).
   */
  | { kind: 'other'; address: number; bytes: Uint8Array; at: number; end: number }
  /**
   * A data character right after a general poll (to any address) or a type R poll it knows (within
   * the inter-byte limit of its last byte): that one- or two-byte message was the start of a longer
   * one hit on the line (§2.3.2: a message's bytes follow each other; a host waits for the answer),
   * so it was not received. Said once, at the first such character.
   */
  | { kind: 'continued' };
// `at` and `end` (of a message heard): the index of its first character and of the one after its
// last, counted from the assembler's first character (the machine tells by them what came between
// two messages it took: a retry hit on the line).

/** §2.3.2's 5 ms on the wire: the most between two bytes of one message, whatever a link allows for its path. */
export const WOKEN_MS = 5;

const TYPE_R: readonly number[] = [
  LP.meters10to15,
  LP.cancelledCredits,
  LP.coinIn,
  LP.coinOut,
  LP.drop,
  LP.jackpot,
  LP.gamesPlayed,
  LP.gamesWon,
  LP.gamesLost,
  LP.gamesSincePowerUpAndDoor,
  LP.meters11to15,
  LP.currentCredits,
  LP.handpayInfo,
  LP.meters,
  LP.machineInfo,
  LP.versionAndSerial,
  LP.sendDateTime,
  LP.ticketValidationData,
  LP.pendingCashout,
];
const FIXED = new Map<number, number>([
  ...TYPE_R.map((c): [number, number] => [c, 2]),
  [LP.shutdown, 4],
  [LP.startup, 4],
  [LP.enableBills, 4],
  [LP.disableBills, 4],
  [LP.remoteHandpayReset, 4],
  [LP.romSignature, 6],
  [LP.receiveDateTime, 11],
  [LP.setValidationId, 10],
  [LP.validationInfo, 5],
  [LP.aftStatus, 8],
  [LP.receiveValidationNumber, 13],
]);
const VARIABLE = new Set<number>([LP.selectedMeters, LP.extendedMeters, LP.extendedMetersAlt, LP.redeemTicket, LP.aftTransfer, LP.aftRegister]);

/** Whether a request carries a CRC (type S, M and G do; type R does not). */
export function hasCrc(command: number): boolean {
  return FIXED.get(command) !== 2;
}

/** The whole length of a request whose first bytes are `bytes`: a number, 'more' (not known yet) or null (a command this machine does not know). */
export function requestLength(bytes: Uint8Array, length: number): number | 'more' | null {
  if (length < 2) return 'more';
  const command = bytes[1] ?? 0;
  const fixed = FIXED.get(command);
  if (fixed !== undefined) return fixed;
  if (!VARIABLE.has(command)) return null;
  return length < 3 ? 'more' : 3 + (bytes[2] ?? 0) + 2;
}

const MAX_REQUEST = 3 + 255 + 2;
// How soon after a message's last character a general poll is taken as a byte of it woken by the
// line (`wake`): `WOKEN_MS`, §2.3.2's 5 ms on the wire, not a link's wider limit (a host's poll
// after its time-out, 20 ms on the wire at least, may reach the process sooner after a delayed
// chunk; a woken byte comes with its neighbours).

export interface AssemblerCounts {
  /** Messages dropped: cut short by a wake-up character or stalled past the inter-byte limit. */
  truncated: number;
  /** Data characters with no message to belong to. */
  stray: number;
}

export class RequestAssembler {
  private readonly buf = new Uint8Array(MAX_REQUEST);
  private len = 0;
  /** Collecting a message for this machine or the broadcast address; else skipping to the next wake-up. */
  private collecting = false;
  /**
   * The message collected is of a command this machine does not know, or to another address: it
   * ends at the next wake-up or stall.
   */
  private unknown = false;
  /** A general poll (to any address) or type R poll to this machine just ended: a data character within the limit says it was cut from a longer message. */
  private short = false;
  /** The last character was a data character with no message to belong to: the tail of a message hit on the line. */
  private broken = false;
  private lastAt = 0;
  /** The index of the character being read (from 0), and of the first of the message collected. */
  private index = -1;
  private start = 0;
  readonly counts: AssemblerCounts = { truncated: 0, stray: 0 };

  constructor(
    private readonly address: number,
    private readonly heard: (h: Heard) => void,
    private readonly now: () => number,
    private readonly interByteMs: number,
  ) {}

  char(byte: number, wake: boolean): void {
    const t = this.now();
    this.index++;
    const short = this.short;
    const broken = this.broken;
    this.short = false;
    this.broken = false;
    if (wake) this.wake(byte, t - this.lastAt <= Math.min(this.interByteMs, WOKEN_MS), broken);
    else if (!this.collecting) {
      this.counts.stray++;
      this.broken = true;
      if (short && t - this.lastAt <= this.interByteMs) this.heard({ kind: 'continued' });
    } else if (t - this.lastAt > this.interByteMs) {
      if (this.unknown) this.endUnknown();
      else this.drop();
      this.counts.stray++;
    } else this.data(byte);
    this.lastAt = t;
  }

  /**
   * `soon`: within `WOKEN_MS` of the last character. A general poll (one byte, no CRC to check it
   * by) that comes so soon after a message still collected and not whole is a byte of that message
   * woken by the line: a host sends its next poll only after an answer or its time-out (§2.3),
   * and a machine answers only a whole poll. Taken as a general poll, it was an implied ACK (an
   * exception taken out, a 0x4D record read) of the answer the host was asking for again, or, to
   * this machine, an exception reported to a host waiting for another answer (until 7 December).
   * So is one that comes so soon after a data character with no message to belong to (`broken`):
   * the rest of a message hit twice, its first byte already lost (a retry's address byte hit into
   * a general poll to this machine, shown cut by the data after it, and a later byte woken: until
   * 7 December that byte was a general poll, the implied ACK of the answer the host was asking for
   * again).
   */
  private wake(byte: number, soon: boolean, broken: boolean): void {
    const woken = soon && (byte & 0x80) !== 0 && ((this.collecting && !this.couldBeWhole()) || broken);
    if (this.collecting && this.unknown) this.endUnknown();
    else if (this.collecting) this.drop();
    if (woken) {
      this.counts.stray++;
      return;
    }
    if (byte & 0x80) {
      this.short = true;
      return this.heard({ kind: 'general', address: byte & 0x7f, at: this.index, end: this.index + 1 });
    }
    this.buf[0] = byte;
    this.len = 1;
    this.start = this.index;
    this.collecting = true;
    // Another machine's poll: collected whole, as an unknown command's, for the machine to judge.
    this.unknown = byte !== this.address && byte !== 0;
  }

  private data(byte: number): void {
    if (this.unknown) {
      // Longer than any poll: line noise, dropped.
      if (this.len >= MAX_REQUEST) return this.drop();
      this.buf[this.len++] = byte;
      return;
    }
    this.buf[this.len++] = byte;
    const need = requestLength(this.buf, this.len);
    // A broadcast always ends in its CRC (§2.2.2.4, type G): one of a type R command is collected to
    // the next wake-up character, as an unknown command's, for the machine to check it.
    if (need === null || (need === 2 && this.buf[0] === 0)) {
      this.unknown = true;
      return;
    }
    if (need === 'more' || (typeof need === 'number' && this.len < need)) return;
    const address = this.buf[0] ?? 0;
    const command = this.buf[1] ?? 0;
    this.collecting = false;
    const bytes = this.buf.slice(0, this.len);
    this.len = 0;
    this.short = bytes.length === 2 && address === this.address;
    this.heard({ kind: 'long', address, command, bytes, known: true, at: this.start, end: this.index + 1 });
  }

  /**
   * Whether the message collected so far may be a whole poll a host sent: one this machine knows is
   * heard at its length, so not; another machine's, or a command this one does not know, is two
   * bytes (type R, never to the broadcast address) or ends in its CRC (as the machine judges them).
   */
  private couldBeWhole(): boolean {
    if (!this.unknown) return false;
    const n = this.len;
    if (n === 2) return this.buf[0] !== 0;
    if (n < 4) return false;
    const crc = crc16Kermit(this.buf, 0, n - 2);
    return this.buf[n - 2] === (crc & 0xff) && this.buf[n - 1] === crc >>> 8;
  }

  /** An unknown command's message, or another machine's, ends (a wake-up character or a stall): heard whole. */
  private endUnknown(): void {
    const bytes = this.buf.slice(0, this.len);
    this.collecting = false;
    this.unknown = false;
    this.len = 0;
    const address = bytes[0] ?? 0;
    // Ended by the character being read (a wake-up character, or a data character after a stall): not of it.
    const where = { at: this.start, end: this.index };
    if (address !== this.address && address !== 0) return this.heard({ kind: 'other', address, bytes, ...where });
    this.heard({ kind: 'long', address, command: bytes[1] ?? 0, bytes, known: false, ...where });
  }

  private drop(): void {
    this.collecting = false;
    this.unknown = false;
    this.len = 0;
    this.counts.truncated++;
  }
}
