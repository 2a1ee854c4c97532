// System validation (SAS 6.02 §15.7–15.9; docs/sas.md, "System validation"): the casino's system,
// not the machine, numbers each cash-out ticket. A station configured for it, ready to print a
// cash-out ticket, holds the cash-out and raises exception 57 (system validation request); the
// system reads what is pending by type R long poll 57 (cash-out type and amount) and gives the
// number by type S long poll 58 (validation system id, 1 BCD; the number, 8 BCD), or denies it with
// a system id of 00. The station then prints with that number, or pays by another means (here a
// handpay: docs/tito.md). No word from the system within ten seconds is a denial (§15.8).
//
// One cash-out at a time per station. The first 0x58 that is taken ends the wait: a second one,
// whatever it says, finds no cash-out waiting (80) and changes nothing. What the station does with
// the end (`ended`) is journalled by the host before 0x58 is answered; if it throws, 0x58 is not
// answered and the cash-out still waits (the system asks again, or the timeout ends it).
import { toBcd } from './bcd.js';
import { LP } from './constants.js';

/** 0x57's cash-out type (§15.7). The kiosk cashes out cashable credit only. */
export const CASHOUT_TYPE = { cashableTicket: 0x00, restrictedTicket: 0x01, notWaiting: 0x80 } as const;

/** 0x58's answer status (§15.8): 00 acknowledged, 80 not in cash-out, 81 improper validation rejected. */
export const RECEIVE_STATUS = { acknowledged: 0x00, notInCashout: 0x80, rejected: 0x81 } as const;

/** §15.8: "If the host doesn't respond within ten seconds, the gaming machine proceeds as though system validation had been denied." */
export const SYSTEM_VALIDATION_TIMEOUT_MS = 10_000;

/** How a wait for the system's number ended. `validation`: 18 digits, the system id's two then the sixteen. */
export type SystemValidationEnd = { kind: 'number'; validation: string } | { kind: 'denied' } | { kind: 'timeout' };

/** What the ticket polls 0x57/0x58 need of a station (absent: they are ignored as unknown, §4.4). */
export interface SasSystemValidationSide {
  /** 0x57: the cash-out waiting for the system's number (credits), or null. */
  pending(): { type: number; amount: number } | null;
  /** 0x58: the system id (null: not BCD) and the 16 digits (null: not BCD); the status to answer. */
  receive(systemId: number | null, digits: string | null): number;
}

export interface SystemValidationDeps {
  clock: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(h: unknown): void };
  /** §15.8's ten seconds, or the operator's setting. */
  timeoutMs?: number;
  /** Raises exception 57 (a priority exception: reported before the queue, once until acknowledged). */
  raise: () => void;
  /** Whether an 18-digit number is already known on the floor here (issued or redeemable): refused 81. */
  known: (validation: string) => boolean;
  /** The wait ended: the station journals what it does (print with the number, or a handpay) before 0x58 is answered. */
  ended: (end: SystemValidationEnd) => void;
}

export class SystemValidationCycle implements SasSystemValidationSide {
  private waiting: { amount: number; timer: unknown } | null = null;

  constructor(private readonly deps: SystemValidationDeps) {}

  /** A cash-out of `amount` cents (minor units: 0x57's unit, §15.7) waits for the system's number; false while another one waits. */
  begin(amount: number): boolean {
    if (this.waiting) return false;
    this.waiting = { amount, timer: this.arm(this.deps.timeoutMs ?? SYSTEM_VALIDATION_TIMEOUT_MS) };
    this.deps.raise();
    return true;
  }

  /** Whether a cash-out waits for the system now. */
  isWaiting(): boolean {
    return this.waiting !== null;
  }

  /** The station gave up the wait itself (shutdown): no end is reported, nothing answered after it. */
  cancel(): void {
    if (this.waiting) this.deps.clock.clearTimeout(this.waiting.timer);
    this.waiting = null;
  }

  pending(): { type: number; amount: number } | null {
    return this.waiting ? { type: CASHOUT_TYPE.cashableTicket, amount: this.waiting.amount } : null;
  }

  receive(systemId: number | null, digits: string | null): number {
    if (!this.waiting) return RECEIVE_STATUS.notInCashout;
    if (systemId === null) return RECEIVE_STATUS.rejected;
    if (systemId === 0) {
      this.finish({ kind: 'denied' });
      return RECEIVE_STATUS.acknowledged;
    }
    if (digits === null) return RECEIVE_STATUS.rejected;
    const validation = String(systemId).padStart(2, '0') + digits;
    if (this.deps.known(validation)) return RECEIVE_STATUS.rejected;
    this.finish({ kind: 'number', validation });
    return RECEIVE_STATUS.acknowledged;
  }

  private arm(ms: number): unknown {
    return this.deps.clock.setTimeout(() => {
      try {
        this.finish({ kind: 'timeout' });
      } catch {
        // The journal could not take the handpay now: the cash-out still waits, tried again in a second.
        if (this.waiting) this.waiting.timer = this.arm(1_000);
      }
    }, ms);
  }

  private finish(end: SystemValidationEnd): void {
    const w = this.waiting;
    if (!w) return;
    // Journalled first: a throw leaves the cash-out waiting and 0x58 unanswered.
    this.deps.ended(end);
    this.deps.clock.clearTimeout(w.timer);
    this.waiting = null;
  }
}

/** Packed BCD bytes as their decimal digits, or null when a nibble is not one (no number: 16 digits do not fit a double). */
function bcdDigits(bytes: Uint8Array): string | null {
  let s = '';
  for (const b of bytes) {
    if (b >> 4 > 9 || (b & 0x0f) > 9) return null;
    s += (b >> 4).toString() + (b & 0x0f).toString();
  }
  return s;
}

/** 0x57 and 0x58's answer payloads (after address and command), or null for another command. */
export function systemValidationPoll(
  bytes: Uint8Array,
  side: SasSystemValidationSide | undefined,
): { kind: 'ignore' } | { kind: 'payload'; payload: Uint8Array } | null {
  const command = bytes[1];
  if (command !== LP.pendingCashout && command !== LP.receiveValidationNumber) return null;
  if (!side) return { kind: 'ignore' };
  if (command === LP.pendingCashout) {
    const p = side.pending();
    return { kind: 'payload', payload: Uint8Array.of(p ? p.type : CASHOUT_TYPE.notWaiting, ...toBcd(p ? p.amount : 0, 5)) };
  }
  // 0x58: address, command, system id (1 BCD), number (8 BCD), CRC (checked by the responder).
  const id = bcdDigits(bytes.subarray(2, 3));
  // A station that cannot journal it throws through: the machine reports it (`poll-failed`) and
  // answers nothing, the cash-out still waits; the host asks again.
  const status = side.receive(id === null ? null : Number(id), bcdDigits(bytes.subarray(3, 11)));
  return { kind: 'payload', payload: Uint8Array.of(status) };
}
