import { isTicketEntryType } from '../../../terms/ticket-terms.js';
import type { WriteFault } from '../faulty-ledger.js';
import type { AuthorityFault } from './authority-model.js';
import { TicketFloor } from './floor.js';
import { checkTickets, type TicketTally } from './invariants.js';
import type { PrinterJob } from './printer-model.js';

// The kill campaign over a ticket's life (issue 47): a kill at every journal step of its issue
// (ticket:out:<n> → :end) and of its redemption (ticket:in:<req> → :approved → :end | the
// number's :stacked), before its commit and after it, and after the print command where no write
// is (the printer prints while its host dies). Each scenario is played once without a fault to
// find the writes of its ticket entries, then once per kill point: the host is dropped there and
// started again on its file (the restart that recovers: the printer asked, the acceptor's
// power-up), the player goes on (cashes out again what is still on the meter, presents the
// ticket they hold), and the invariants of invariants.ts hold — 0 lost, 0 paid twice, never
// printed and given back.

interface Scenario {
  readonly name: string;
  /** How the print job goes, and each call to the authority. */
  readonly job: PrinterJob;
  readonly link: AuthorityFault;
  /** The player at T2 presents the ticket twice (the second must be refused: a returned attempt). */
  readonly twice: boolean;
}

export const TICKET_SCENARIOS: readonly Scenario[] = [
  { name: 'printed, redeemed at another table, then replayed', job: 'ok', link: 'ok', twice: true },
  { name: 'not printed (the printer never took it): voided, the credit given back', job: 'ignored', link: 'ok', twice: false },
  { name: 'paper out after the command: held for a person, never voided by the printer alone', job: 'paper-out', link: 'ok', twice: false },
  { name: 'printed, redeemed late (no answer in time, the ticket back, then paid)', job: 'ok', link: 'late', twice: false },
];

export interface KillPoint {
  scenario: string;
  table: string;
  /** The write killed (counted from the host's start), its entry types, and before or after its commit; or the print command. */
  write: number | 'print';
  types: readonly string[];
  committed: boolean;
}

export interface KillPointResult extends KillPoint {
  tally: TicketTally;
  violations: string[];
}

/** One play of a scenario, with `kill` armed at the first start of its table (or none). */
async function play(
  s: Scenario,
  kill: KillPoint | null,
): Promise<{ floor: TicketFloor; tally: TicketTally; violations: string[]; written: Map<string, (readonly string[])[]> }> {
  const violations: string[] = [];
  let calm = false;
  let printed = false;
  const floor = new TicketFloor(2, {
    armed: (table, start): WriteFault[] =>
      kill && kill.write !== 'print' && table === kill.table && start === 1 ? [{ kind: 'kill', at: kill.write, committed: kill.committed }] : [],
    job: () => {
      if (calm) return 'ok';
      if (kill?.write === 'print' && !printed) {
        printed = true;
        return 'host-dies';
      }
      return s.job;
    },
    link: () => (calm ? 'ok' : s.link),
    note: () => undefined,
    violated: (v) => violations.push(v),
  });
  const [t1, t2] = floor.sites;
  if (!t1 || !t2) throw new Error('two tables');
  const written = new Map<string, (readonly string[])[]>();
  try {
    await floor.open();
    await floor.insertNote(t1, 1, 100_000);
    // The player cashes out; what a kill left on the meter (or gave back to it) is cashed out again.
    for (let i = 0, r = ''; i < 3 && (i === 0 || r === 'killed'); i++) {
      r = await floor.cashOut(t1, 1);
      floor.take(t1, 1);
    }
    for (const n of [...floor.wallet]) {
      await floor.insertTicket(t2, 2, n);
      if (s.twice) await floor.insertTicket(t2, 1, n);
    }
    // The writes of each table's first start, so far (the clean play names its kill points by them).
    for (const site of [t1, t2]) if (site.host && site.starts === 1) written.set(site.name, [...site.host.faulty.written]);
    // The end: faults stop, late answers arrive, journals sync, the player presents what they still hold.
    calm = true;
    floor.disarm();
    floor.held.release();
    for (const site of floor.sites) floor.sync(site);
    for (const n of [...floor.wallet]) {
      await floor.insertTicket(t2, 1, n);
      for (const site of floor.sites) floor.sync(site);
    }
    const tally = checkTickets(floor, (v) => violations.push(v));
    return { floor, tally, violations, written };
  } finally {
    await floor.close();
  }
}

/** Every kill point of every scenario: each ticket write of each table, before and after its commit, and the print command. */
export async function ticketKillPoints(): Promise<KillPoint[]> {
  const points: KillPoint[] = [];
  for (const s of TICKET_SCENARIOS) {
    const clean = await play(s, null);
    if (clean.violations.length > 0) throw new Error(`scenario "${s.name}" fails with no fault: ${clean.violations.join('; ')}`);
    for (const [table, writes] of clean.written)
      for (const [i, types] of writes.entries()) {
        if (!types.some(isTicketEntryType)) continue;
        for (const committed of [false, true]) points.push({ scenario: s.name, table, write: i + 1, types, committed });
      }
    if (s.job === 'ok') points.push({ scenario: s.name, table: 'T1', write: 'print', types: ['(the print command)'], committed: true });
  }
  return points;
}

/** Plays each kill point and checks the invariants after it. */
export async function killEveryTicketStep(progress?: (s: string) => void): Promise<KillPointResult[]> {
  const out: KillPointResult[] = [];
  for (const p of await ticketKillPoints()) {
    const s = TICKET_SCENARIOS.find((x) => x.name === p.scenario);
    if (!s) continue;
    const r = await play(s, p);
    out.push({ ...p, tally: r.tally, violations: r.violations });
    progress?.(
      `${p.scenario} | ${p.table} write ${p.write} (${p.types.join(', ')}) ${p.committed ? 'after' : 'before'} commit: ${r.violations.length === 0 ? 'ok' : r.violations.join('; ')}`,
    );
  }
  return out;
}
