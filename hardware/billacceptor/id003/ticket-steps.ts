// What the ID-003 driver does with a ticket: offers it to the host (HOLD while the authority is
// asked), checks the barcode the host approved is still the one in escrow, STACK or RETURN, and
// each status report of the ticket's cycle through the transition table (tickets.ts for the cycle,
// transitions.ts for the table). The driver hands in what it can do on the wire (TicketUnit).
import { sleep, type Clock } from '../../clock.js';
import { bytesAscii } from '../../bytes.js';
import { isFault, type Phase } from '../note-phase.js';
import type { BillAcceptorEvent, EscrowDecision, EscrowedTicket } from '../types.js';
import { CMD, STATUS } from './constants.js';
import type { Id003Frame } from './frame.js';
import { ID003_JOURNALLED_STACK, ID003_TRANSITIONS, describeStatus, type Id003Report } from './transitions.js';
import type { StackStall } from './stack-stall.js';
import { isTicketEscrow, readTicketEscrow, type TicketCycle } from './tickets.js';

export interface TicketUnit {
  readonly cycle: TicketCycle;
  /** The ticket told to stack or to go back whose command is not yet carried out (stack-stall.ts). */
  readonly stackStall: StackStall;
  readonly clock: Clock;
  readonly pollIntervalMs: number;
  readonly escrowTimeoutMs: number;
  readonly onTicket: ((t: EscrowedTicket) => EscrowDecision | Promise<EscrowDecision>) | undefined;
  emit(e: BillAcceptorEvent): void;
  ack(): Promise<void>;
  operation(code: number, written?: () => void): Promise<'ack' | 'refused' | 'unsure'>;
  reset(): Promise<void>;
  /** One STATUS REQUEST, its reply not fed to the table (the check before STACK). */
  status(): Promise<Id003Frame>;
  /** A note in escrow after the ticket's cycle: the note's own path. */
  offerNote(code: number): Promise<void>;
}

/** The host's answer within the escrow timeout, HOLD sent every poll meanwhile; a throw or no answer returns the ticket. */
async function decide(u: TicketUnit, ticket: EscrowedTicket): Promise<{ decision: EscrowDecision; reason: 'host' | 'escrow-timeout' }> {
  const ask = u.onTicket;
  if (!ask) return { decision: 'return', reason: 'host' };
  let timer: unknown;
  const timeout = new Promise<'timeout'>((r) => {
    timer = u.clock.setTimeout(() => r('timeout'), u.escrowTimeoutMs);
  });
  const asked = Promise.resolve()
    .then(() => ask(ticket))
    .catch((e: unknown) => {
      u.emit({ type: 'failure', reason: `ticket decision failed: ${e instanceof Error ? e.message : String(e)}` });
      return 'return' as const;
    });
  let done = false;
  const decided = Promise.race([asked, timeout]).finally(() => (done = true));
  while (!done) {
    await sleep(u.clock, u.pollIntervalMs);
    if (!done) await u.operation(CMD.HOLD);
  }
  u.clock.clearTimeout(timer);
  const d = await decided;
  if (d === 'timeout') return { decision: 'return', reason: 'escrow-timeout' };
  return { decision: d === 'stack' ? 'stack' : 'return', reason: 'host' };
}

/**
 * A ticket in escrow (a new one, or the same asked about again): refused at once if tickets are not
 * taken or its barcode is not 18 digits (the host is never asked about it), else offered to the host.
 */
export async function offerTicket(u: TicketUnit, data: Uint8Array, same: boolean): Promise<void> {
  const read = readTicketEscrow(data);
  const refused = !u.onTicket ? 'tickets-off' : read.ok ? null : read.reason;
  if (refused || !read.ok) {
    u.emit({ type: 'ticketRefused', reason: refused ?? 'tickets-off', barcode: bytesAscii(data.subarray(1)) });
    await u.operation(CMD.RETURN);
    return;
  }
  const c = u.cycle;
  const ticket = same && c.ticket ? c.ticket : c.fresh(read.validationNumber);
  c.enter('escrow', ticket, false);
  u.emit({ type: 'ticketEscrowed', ticket });
  const { decision, reason } = await decide(u, ticket);
  if (c.ticket?.escrowId !== ticket.escrowId || c.phase !== 'escrow') return; // the unit moved on meanwhile (a reconnect)
  if (decision === 'stack') {
    // The approval is for this barcode: it must still be the one in escrow when STACK goes.
    const now = await u.status();
    if (now.code === STATUS.ESCROW && isTicketEscrow(now.data) && bytesAscii(now.data.subarray(1)) === ticket.validationNumber) {
      await u.operation(CMD.STACK_1, () => c.enter('stack-sent'));
      return;
    }
    if (now.code === STATUS.ESCROW) {
      c.violation('escrow-changed', describeStatus(now));
      await u.operation(CMD.RETURN);
    }
    return; // anything else (returned, jammed, powered up): the next poll's report moves the cycle
  }
  c.enter('return-sent', ticket, false);
  c.returnReason = reason;
  // Read through a call: the cycle may have moved while RETURN was out (TypeScript would keep the narrowed phase).
  if ((await u.operation(CMD.RETURN)) === 'ack' && phaseOf(c) === 'return-sent') c.returned(reason);
}

const phaseOf = (c: TicketCycle): Phase => c.phase;

/** The POWER UP report with the ticket of the cycle, said once. */
function powerUp(u: TicketUnit, report: Id003Report, changed: boolean, creditOwed: boolean): void {
  if (!changed) return;
  const notePending = report === 'power-up-stacker' ? 'stacker' : report === 'power-up-acceptor' ? 'acceptor' : 'none';
  const ticket = u.cycle.ticket;
  u.emit({ type: 'powerUp', notePending, ...(ticket ? { ticket } : {}), creditOwed });
}

/** One status report of the ticket's cycle through the transition table. */
export async function stepTicket(u: TicketUnit, report: Id003Report, s: Id003Frame, changed: boolean): Promise<void> {
  const c = u.cycle;
  const journalled = c.firstReportFromJournal() ? ID003_JOURNALLED_STACK[report] : undefined;
  const cell = journalled ?? ID003_TRANSITIONS[c.phase][report];
  const broken = u.stackStall.check(c.phase, cell);
  if (broken) return c.violation(broken.rule, `${describeStatus(s)}, ${broken.after}`);
  if (isFault(cell)) {
    if (report.startsWith('power-up')) powerUp(u, report, changed, false);
    c.violation(cell.fault, describeStatus(s));
    if (report === 'vend-valid') await u.ack();
    else if (report.startsWith('escrow')) await u.operation(CMD.RETURN);
    else if (report.startsWith('power-up')) await u.reset();
    return;
  }
  switch (cell) {
    case 'none':
    case 'stacking':
    case 'stacked':
      return;
    case 'offer':
      return offerTicket(u, s.data, report === 'escrow-same');
    case 'replace':
      // The ticket of the cycle went back unseen, unless it was stacked: that one is in the cashbox.
      if (c.phase !== 'credited') c.returned('device');
      c.enter('idle');
      return isTicketEscrow(s.data) ? offerTicket(u, s.data, false) : u.offerNote(s.data[0] ?? 0);
    case 'stack-again':
      await u.operation(CMD.STACK_1, () => c.enter('stack-sent'));
      return;
    case 'return-again':
      if ((await u.operation(CMD.RETURN)) === 'ack' && c.phase === 'return-sent') c.returned(c.returnReason);
      return;
    case 'credit':
      if (await c.stacked(false)) await u.ack();
      return;
    case 'ack':
      return u.ack();
    case 'returning':
      c.returned('device');
      c.enter('return-sent');
      return;
    case 'settle':
      if (c.phase === 'escrow' || c.phase === 'return-sent') c.returned('device');
      c.enter('idle');
      return;
    case 'journal-returned':
      c.returned('device');
      c.enter('idle');
      return;
    case 'power-up-return':
      powerUp(u, report, changed, false);
      c.returned('power-up');
      c.enter('idle');
      return u.reset();
    case 'recover-credit':
      powerUp(u, report, changed, true);
      if (!(await c.stacked(true))) return;
      c.enter('idle');
      return u.reset();
    case 'unvalued':
    case 'power-up':
      powerUp(u, report, changed, false);
      c.enter('idle');
      return u.reset();
  }
}
