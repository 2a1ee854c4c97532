// A casino management system's ticket validation over one machine's SAS link, as the document's
// redemption cycle describes it (SAS 6.02 §15; docs/sas.md "Tickets through SAS"), written on the
// host simulator's own polls (./tickets.ts) with no import of hardware/sas/ or the host:
//
// - exception 0x3D (cash-out ticket printed): read the record by 0x4D function 00 and keep the
//   ticket in the system's register, redeemable for its amount;
// - exception 0x67 (ticket inserted): read the number by 0x70 and answer 0x71 — transfer code 00
//   with the register's amount for a ticket it holds redeemable (then pending for that machine),
//   else a refusal of Table 15.12c (0x82 not in system, 0x84 already redeemed, 0x83 pending);
// - exception 0x68 (ticket transfer complete): read the outcome by 0x71 code FF; 00 (redeemed)
//   marks the ticket redeemed, anything else makes it redeemable again.
//
// One loop drives the machine (one poll at a time, as a system's polling loop does on a line).
import { setTimeout as sleep } from 'node:timers/promises';
import type { SasHost } from './host.js';
import * as T from './tickets.js';

// Table A-1.
const TICKET_PRINTED = 0x3d;
const TICKET_INSERTED = 0x67;
const TRANSFER_COMPLETE = 0x68;
// Table 15.12c, the system's transfer codes.
const CASHABLE = 0x00;
const PENDING_ELSEWHERE = 0x83;
const NOT_IN_SYSTEM = 0x82;
const ALREADY_REDEEMED = 0x84;
// Table 15.12d, the machine's status.
const REDEEMED = 0x00;

export type SystemTicketState = 'redeemable' | 'pending' | 'redeemed';

export class CasinoSystem {
  /** The register: every ticket the system read by 0x4D, by its 18 digits. */
  readonly tickets = new Map<string, { amount: number; state: SystemTicketState }>();
  /** What the system answered each 0x71 (for the test's account). */
  readonly decisions: { validation: string; code: number }[] = [];
  private running = false;
  private loop: Promise<void> | null = null;
  private inFlight: string | null = null;

  constructor(private readonly h: SasHost) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** Polls that went unanswered (the loop polls on, as a real system does: one missed answer under load ended it). */
  missed = 0;

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const code = await this.h.generalPoll();
        if (code === TICKET_PRINTED) await this.readPrinted();
        else if (code === TICKET_INSERTED) await this.decide();
        else if (code === TRANSFER_COMPLETE) await this.outcome();
        else if (code === 0) await sleep(20);
      } catch {
        // The exception stays queued at the machine until read: asked again at the next poll.
        this.missed++;
        await sleep(50);
      }
    }
  }

  private async readPrinted(): Promise<void> {
    for (;;) {
      const r = await T.validationInfo4D(this.h, 0x00);
      if (!r) return;
      if (!this.tickets.has(r.validation)) this.tickets.set(r.validation, { amount: r.amount, state: 'redeemable' });
    }
  }

  private async decide(): Promise<void> {
    const e = await T.ticketData70(this.h);
    if (!e) return;
    const t = this.tickets.get(e.validation);
    const code = !t ? NOT_IN_SYSTEM : t.state === 'redeemed' ? ALREADY_REDEEMED : t.state === 'pending' ? PENDING_ELSEWHERE : CASHABLE;
    this.decisions.push({ validation: e.validation, code });
    if (t && code === CASHABLE) {
      t.state = 'pending';
      this.inFlight = e.validation;
    }
    await T.redeem71(this.h, code, t?.amount ?? 0, e.validation);
  }

  private async outcome(): Promise<void> {
    const s = await T.status71(this.h);
    const v = s.validation ?? this.inFlight;
    const t = v === null ? undefined : this.tickets.get(v);
    if (t?.state === 'pending') t.state = s.status === REDEEMED ? 'redeemed' : 'redeemable';
    this.inFlight = null;
  }
}
