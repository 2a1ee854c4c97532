import { TICKET_TIME_RANGE } from '../../terms/ticket-terms.js';

// The floor's time as this table last heard it from the upstream (docs/tito.md, "The table's
// clock"): a ticket's issue and expiry are the host's clock, which nothing else checked, so a table
// whose clock was far behind printed tickets already expired. The upstream's time comes with its
// heartbeat's answer (`serverTime`) and with its refusal of a signed request as `clock-skew`, over
// the same link the ledger syncs and the tickets are validated on (https, the upstream's own
// certificate). It is carried forward on the monotonic clock, which a step of the wall clock does
// not move, so a clock set wrong after the last exchange is seen too, offline as well.

/**
 * How far the host's clock may be from the upstream's before ticket-out is refused: the same 5
 * minutes the upstream allows a signed request (upstream/server.ts `maxSkewMs`), past which it
 * refuses the table's sync and ticket words anyway. A ticket expires at the end of a day in Macau,
 * so 5 minutes cannot print one already expired.
 */
export const TABLE_CLOCK_BOUND_MS = 5 * 60_000;

/** `unheard`: no trusted time yet this run (offline since the start): the host's clock is used if it is within the tickets' range. */
export type ClockVerdict =
  | { readonly ok: true; readonly heard: boolean }
  | { readonly ok: false; readonly why: 'skewed'; readonly skewMs: number }
  | { readonly ok: false; readonly why: 'out-of-range' };

export class FloorClock {
  private heard: { upstreamAt: number; monoAt: number; slackMs: number } | null = null;
  private readonly now: () => number;
  private readonly mono: () => number;
  private readonly boundMs: number;

  constructor(o: { now?: () => number; mono?: () => number; boundMs?: number } = {}) {
    this.now = o.now ?? Date.now;
    this.mono = o.mono ?? (() => performance.now());
    this.boundMs = o.boundMs ?? TABLE_CLOCK_BOUND_MS;
  }

  /**
   * The upstream said its time was `serverTime` (an ISO instant or epoch ms) in an answer that took
   * `rttMs` to come: its time now is taken as that plus half the round trip, give or take the other
   * half. An answer that took longer than the bound says nothing useful, nor one that is no instant.
   */
  observe(serverTime: string | number, rttMs: number): void {
    const at = typeof serverTime === 'number' ? serverTime : Date.parse(serverTime);
    if (!Number.isFinite(at) || !(rttMs >= 0) || rttMs > this.boundMs) return;
    this.heard = { upstreamAt: at + rttMs / 2, monoAt: this.mono(), slackMs: rttMs / 2 };
  }

  /** The host's clock against the upstream's, carried forward from its last word; or, none heard, against the tickets' range. */
  verdict(): ClockVerdict {
    const now = this.now();
    if (!(now >= Date.parse(TICKET_TIME_RANGE.from) && now < Date.parse(TICKET_TIME_RANGE.until))) return { ok: false, why: 'out-of-range' };
    if (!this.heard) return { ok: true, heard: false };
    const skewMs = Math.round(now - (this.heard.upstreamAt + (this.mono() - this.heard.monoAt)));
    if (Math.abs(skewMs) > this.boundMs + this.heard.slackMs) return { ok: false, why: 'skewed', skewMs };
    return { ok: true, heard: true };
  }
}

/** Why a ticket may not be printed on this clock, in English for the log and the refusal's reason; null when it may. */
export function clockRefusal(clock: Pick<FloorClock, 'verdict'> | undefined): string | null {
  const v = clock?.verdict();
  if (!v || v.ok) return null;
  if (v.why === 'out-of-range') return "this table's clock is outside any date a ticket may carry: no ticket is printed until it is set right";
  const minutes = Math.round(Math.abs(v.skewMs) / 60_000);
  return `this table's clock is ${minutes} min ${v.skewMs < 0 ? 'behind' : 'ahead of'} the upstream's: no ticket is printed until it is set right`;
}
