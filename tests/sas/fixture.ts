// The station a SAS test speaks for: meters in memory, and a record of every call the host's
// polls make (play, the bill acceptor, the clock, handpay resets), so a test can say what a poll
// changed and the fuzz that nothing did. A manual clock for the machine's timers.
import type { Clock } from '../../hardware/clock.js';
import type {
  AftLockRequest,
  AftRecord,
  AftRequest,
  AftStatusView,
  HandpayResetResult,
  SasAftSide,
  SasDateTime,
  SasGameSide,
  SasHandpay,
  SasMachineInfo,
  SasMeters,
  SasTicketSide,
} from '../../hardware/sas/types.js';
import type { SasSystemValidationSide } from '../../hardware/sas/system-validation.js';

export const INFO: SasMachineInfo = {
  gameId: 'ET',
  additionalId: '001',
  denominationMinor: 1,
  maxBet: 200,
  progressiveGroup: 0,
  gameOptions: 0x0000,
  paytableId: 'BJ0057',
  basePercent: '9950',
  serialNumber: 'MO-ETG-0001-S03',
};

export const METERS: SasMeters = {
  coinIn: 1_234_567,
  coinOut: 1_100_000,
  jackpot: 0,
  handpaidCancelledCredits: 250_000,
  cancelledCredits: 250_000,
  gamesPlayed: 4_321,
  gamesWon: 2_000,
  gamesLost: 2_100,
  billsInCredits: 900_000,
  currentCredits: 12_345,
  ticketInCredits: 50_000,
  ticketOutCredits: 70_000,
  drop: 950_000,
  gamesSincePowerUp: 321,
  gamesSinceDoorClosed: 12,
  slotDoorOpened: 7,
  powerResets: 3,
};

export type Call =
  | { call: 'play'; enabled: boolean }
  | { call: 'bills'; enabled: boolean }
  | { call: 'time'; t: SasDateTime }
  | { call: 'handpay-reset'; result: HandpayResetResult };

export class MemoryGame implements SasGameSide {
  readonly info: SasMachineInfo;
  meterValues: SasMeters;
  readonly calls: Call[] = [];
  clockNow: SasDateTime = { year: 2026, month: 11, day: 26, hour: 9, minute: 30, second: 5 };
  pendingHandpay: SasHandpay | null = null;
  rom: Uint8Array;
  /** Ticket polls (0x4C, 0x4D, 0x70, 0x71): absent, they are ignored as unknown. */
  tickets?: SasTicketSide;
  /** System validation (0x57, 0x58): absent, they are ignored as unknown. */
  systemValidation?: SasSystemValidationSide;
  /** AFT (0x72, 0x74): absent, they are ignored as unknown. */
  aft?: SasAftSide;

  constructor(options: { meters?: SasMeters; info?: Partial<SasMachineInfo>; rom?: Uint8Array } = {}) {
    this.info = { ...INFO, ...options.info };
    this.meterValues = { ...(options.meters ?? METERS) };
    this.rom = options.rom ?? new TextEncoder().encode('the program actually running\n'.repeat(1000));
  }

  meters(): SasMeters {
    return this.meterValues;
  }
  setPlay(enabled: boolean): boolean {
    this.calls.push({ call: 'play', enabled });
    return true;
  }
  setBillAcceptor(enabled: boolean): boolean {
    this.calls.push({ call: 'bills', enabled });
    return true;
  }
  now(): SasDateTime {
    return this.clockNow;
  }
  setTime(t: SasDateTime): boolean {
    this.calls.push({ call: 'time', t });
    this.clockNow = t;
    return true;
  }
  handpay(): SasHandpay | null {
    return this.pendingHandpay;
  }
  resetHandpay(): HandpayResetResult {
    const result: HandpayResetResult = this.pendingHandpay ? 'reset' : 'none';
    this.pendingHandpay = null;
    this.calls.push({ call: 'handpay-reset', result });
    return result;
  }
  romImage(): Uint8Array | AsyncIterable<Uint8Array> {
    return this.rom;
  }
}

/** An AFT side that takes every transfer in full and every lock at once, and keeps what it was asked, so a test can say how often a poll was applied. */
export class MemoryAft implements SasAftSide {
  readonly transfers: AftRequest[] = [];
  readonly locks: AftLockRequest[] = [];
  private isLocked = false;
  private cumulative = 0;

  transfer(request: AftRequest): AftRecord {
    this.transfers.push(request);
    this.cumulative += request.cashable ?? 0;
    const { type, flags, assetNumber, transactionId } = request;
    const at = { year: 2026, month: 11, day: 26, hour: 9, minute: 30, second: 5 };
    return { position: 0, status: 0x00, type, cashable: request.cashable ?? 0, flags, assetNumber, transactionId, at, cumulative: this.cumulative };
  }
  interrogate(): AftRecord | null {
    return null;
  }
  lock(request: AftLockRequest): void {
    this.locks.push(request);
    this.isLocked = request.code === 0x00;
  }
  locked(): boolean {
    return this.isLocked;
  }
  status(): AftStatusView {
    return { assetNumber: 1, availableTransfers: 0x03, aftStatus: 0x92, cashable: 0, transferLimit: 1_000_000, lock: this.isLocked ? 0x00 : 0xff };
  }
}

/**
 * Timers that run only when `advance` moves time (synchronously, in deadline order), on a monotonic
 * time; a wall clock that reads it unless stepped apart from it (`stepWall`).
 */
export class ManualClock implements Clock {
  private at = 0;
  private step = 0;
  private ids = 0;
  private readonly due = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.at + this.step;
  }
  monotonic(): number {
    return this.at;
  }
  /** The wall clock set by `ms` (NTP, a technician); the monotonic time does not move. */
  stepWall(ms: number): void {
    this.step += ms;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.ids;
    this.due.set(id, { at: this.at + Math.max(0, ms), fn });
    return id;
  }
  clearTimeout(h: unknown): void {
    if (typeof h === 'number') this.due.delete(h);
  }
  advance(ms: number): void {
    const until = this.at + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const d of this.due) if (d[1].at <= until && (!next || d[1].at < next[1].at)) next = d;
      if (!next) break;
      this.due.delete(next[0]);
      this.at = Math.max(this.at, next[1].at);
      next[1].fn();
    }
    this.at = until;
  }
}
