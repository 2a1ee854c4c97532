import { entriesOfTypes, type EntryBody, type Ledger } from '../../../ledger/index.js';
import { isTicketEntryType, parseTicketEntry, TICKET_ENTRY_TYPES } from '../../../terms/ticket-terms.js';
import { ticketAccountFor } from '../../soak/ticket-account.js';
import type { TableSite, TicketFloor } from './floor.js';

// The tickets' invariants over a whole floor, its journals against what physically happened (the
// paper that came out of the printers, the tickets in the stackers, the players' wallet) and the
// authority's register (docs/faults.md, "Tickets"). Every ticket issued is exactly one of:
// printed and owed (its paper came out; paid at most once), voided with its credit given back
// (no paper came out), or — only where the printer itself cannot say (a jam, a fault after the
// command) — held in print for a person, its credit on no meter and no paper; never printed and
// given back, never neither where the printer can say, never paid twice, never taken into a
// stacker without its credit.

export interface TicketTally {
  issued: number;
  printed: number;
  voided: number;
  /** In print at the end because the printer cannot say (a jam): the station waits for a person. */
  heldForPerson: number;
  redeemed: number;
  /** Tickets printed twice by a lying printer (two whole copies with one number). */
  printedTwice: number;
  /** Redemption attempts that went back to the player, by reason. */
  returned: Record<string, number>;
  lost: number;
  paidTwice: number;
  printedAndGivenBack: number;
}

interface Issued {
  table: string;
  station: number;
  amount: number;
  end: 'ticket.printed' | 'ticket.void' | null;
}

function entries(l: Ledger) {
  const out = [];
  for (const r of entriesOfTypes(l, [...TICKET_ENTRY_TYPES])) {
    const body: unknown = JSON.parse(r.body);
    const e = isTicketEntryType(r.type) ? parseTicketEntry(r.type, body && typeof body === 'object' && 'payload' in body ? body.payload : undefined) : null;
    if (e) out.push(e);
  }
  return out;
}

/** The invariants once the run is over (every host up, the faults stopped, the journals synced). */
export function checkTickets(floor: TicketFloor, violated: (s: string) => void): TicketTally {
  const tally: TicketTally = {
    issued: 0,
    printed: 0,
    voided: 0,
    heldForPerson: 0,
    redeemed: 0,
    printedTwice: 0,
    returned: {},
    lost: 0,
    paidTwice: 0,
    printedAndGivenBack: 0,
  };
  const issued = new Map<string, Issued>();
  const stacked = new Map<string, { table: string; requestId: string; amount: number }[]>();
  const paper = new Map<string, number>();
  const jobs = new Map<string, string>();
  for (const site of floor.sites) {
    for (const t of site.paper.values()) {
      for (const n of t.paper) paper.set(n, (paper.get(n) ?? 0) + 1);
      for (const [n, job] of t.jobs) jobs.set(n, job);
    }
    const l = site.host?.ledger;
    if (!l) {
      violated(`${site.name} has no host at the end`);
      continue;
    }
    checkTable(site, l, violated);
    for (const e of entries(l)) {
      const p = e.payload;
      if (e.type === 'ticket.issue') issued.set(p.validation, { table: site.name, station: p.station, amount: e.payload.amount, end: null });
      else if (e.type === 'ticket.printed' || e.type === 'ticket.void') {
        const i = issued.get(p.validation);
        if (!i || i.table !== site.name) violated(`${site.name}: ${e.type} of ${p.validation}, not issued by it`);
        else if (i.end) violated(`${site.name}: ticket ${p.validation} ended twice (${i.end}, ${e.type})`);
        else i.end = e.type;
      } else if (e.type === 'ticket.redeem.stacked')
        stacked.set(p.validation, [...(stacked.get(p.validation) ?? []), { table: site.name, requestId: e.payload.requestId, amount: e.payload.amount }]);
      else if (e.type === 'ticket.redeem.returned') tally.returned[e.payload.reason] = (tally.returned[e.payload.reason] ?? 0) + 1;
    }
  }
  for (const [n, i] of issued) judgeIssued(n, i, paper.get(n) ?? 0, jobs.get(n), tally, violated);
  for (const [n, s] of stacked) {
    tally.redeemed++;
    if (s.length > 1) {
      tally.paidTwice++;
      violated(`ticket ${n} paid ${s.length} times: ${s.map((x) => `${x.table}/${x.requestId}`).join(', ')}`);
    }
    const i = issued.get(n);
    if (i?.end !== 'ticket.printed') violated(`ticket ${n} paid, but it was ${i ? (i.end ?? 'in print') : 'never issued'}`);
    for (const x of s) if (i && x.amount !== i.amount) violated(`ticket ${n} paid ${x.amount}, issued for ${i.amount}`);
  }
  // Every whole ticket is in a wallet, in a stacker (credited once), or was paid elsewhere and refused.
  for (const n of floor.wallet) {
    const i = issued.get(n);
    if (i?.end === 'ticket.printed' && !stacked.has(n)) {
      tally.lost++;
      violated(`ticket ${n} is printed and in a player's hand, and could not be paid`);
    }
  }
  // The authority's register agrees with the journals.
  for (const [n, t] of floor.authority.tickets) {
    if ((t.state === 'redeemed') !== stacked.has(n))
      violated(`the authority says ${n} is ${t.state}; the journals ${stacked.has(n) ? 'paid it' : 'did not pay it'}`);
    if (t.state === 'pending') violated(`ticket ${n} is still pending at the authority (${t.by?.table}/${t.by?.requestId}) after every journal synced`);
  }
  for (const a of floor.authority.alarms) violated(`authority alarm: ${a}`);
  return tally;
}

/**
 * A ticket issued, by how it ended and how many whole copies came out (`job`: the printer's last
 * job for it): voided with no copy, printed with one, held for a person after a jam or any fault
 * after the command (judge.ts `fault-before-start`), else lost.
 */
function judgeIssued(n: string, i: Issued, copies: number, job: string | undefined, tally: TicketTally, violated: (s: string) => void): void {
  tally.issued++;
  if (copies > 1) tally.printedTwice++;
  if (i.end === 'ticket.void') {
    tally.voided++;
    if (copies > 0) {
      tally.printedAndGivenBack++;
      violated(`ticket ${n} (${i.table} station ${i.station}): voided, its credit given back, yet ${copies} whole ticket(s) came out`);
    }
  } else if (i.end === 'ticket.printed') {
    tally.printed++;
    if (copies === 0) violated(`ticket ${n} (${i.table}): journalled printed, no whole ticket came out (the player holds nothing)`);
  } else if (copies === 0 && (job === 'jam' || job === 'jam-claims-printed' || job === 'paper-out')) tally.heldForPerson++;
  else {
    tally.lost++;
    violated(`ticket ${n} (${i.table} station ${i.station}): neither printed nor voided (${copies} whole, job ${job ?? 'never sent'})`);
  }
}

/** One table: its ledger's ticket accounts, its money, every ticket and note in its stackers credited exactly once. */
function checkTable(site: TableSite, l: Ledger, violated: (s: string) => void): void {
  const t = ticketAccountFor(l);
  for (const p of t.problems) violated(`${site.name}: ${p}`);
  let notes = 0;
  for (const r of entriesOfTypes(l, ['bill.credit'])) {
    const p = (JSON.parse(r.body) as EntryBody).payload;
    notes += typeof p.denomination === 'number' ? p.denomination : 0;
  }
  let stackedNotes = 0;
  for (const truth of site.notes.values()) for (const n of truth.notes.values()) if (n.where === 'stacker') stackedNotes += n.amount;
  if (stackedNotes !== notes) violated(`${site.name}: notes stacked ${stackedNotes}, credited ${notes}`);
  const meters = [...site.notes.keys()].reduce((a, s) => a + l.credit(s), 0);
  if (notes + t.redeemed.amount !== meters + t.printed.amount + t.inPrint.amount)
    violated(
      `${site.name}: money not conserved: notes ${notes} + tickets in ${t.redeemed.amount} ≠ meters ${meters} + tickets out ${t.printed.amount} + in print ${t.inPrint.amount}`,
    );
  // Every ticket in a stacker credited once at this table, and no ticket credited that is not in one.
  const inStackers = new Map<string, number>();
  for (const slot of site.slots.values())
    for (const x of slot.tickets.values()) if (x.where === 'stacker') inStackers.set(x.validation, (inStackers.get(x.validation) ?? 0) + 1);
  const creditedHere = new Map<string, number>();
  for (const e of entries(l)) if (e.type === 'ticket.redeem.stacked') creditedHere.set(e.payload.validation, (creditedHere.get(e.payload.validation) ?? 0) + 1);
  for (const [n, k] of inStackers)
    if (creditedHere.get(n) !== k) violated(`${site.name}: ticket ${n} in a stacker ${k} time(s), credited ${creditedHere.get(n) ?? 0}`);
  for (const [n] of creditedHere) if (!inStackers.has(n)) violated(`${site.name}: ticket ${n} credited, in no stacker`);
}
