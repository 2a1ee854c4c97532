import type { TicketTally } from './invariants.js';
import { killEveryTicketStep } from './kill-every-step.js';
import { simulateTickets } from './simulate-tickets.js';

// The tickets' part of `etg soak --campaign` and of `etg sim-faults --tickets --seeds N`: the kill
// at every journal step of a ticket's issue and redemption, then N seeded floors under every
// fault, and one table of what they met and found.

/** What the campaign met and found: the seeded floors' tallies added up, beside the kill points. */
export interface TicketCampaignResult extends TicketTally {
  killPoints: number;
  killPointsFailing: string[];
  seeds: number;
  failingSeeds: number[];
  kills: number;
  faults: Record<string, number>;
  seconds: number;
}

export async function ticketCampaign(o: { seeds: number; from: number; steps: number; progress?: (s: string) => void }): Promise<TicketCampaignResult> {
  const t0 = Date.now();
  const points = await killEveryTicketStep();
  const r: TicketCampaignResult = {
    killPoints: points.length,
    killPointsFailing: points
      .filter((p) => p.violations.length > 0)
      .map((p) => `${p.scenario}: ${p.table} write ${p.write} (${p.types.join(', ')}) ${p.committed ? 'after' : 'before'} commit: ${p.violations.join('; ')}`),
    seeds: 0,
    failingSeeds: [],
    kills: points.length,
    faults: {},
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
    seconds: 0,
  };
  for (const p of points) add(r, p.tally);
  o.progress?.(`tickets: ${points.length} kill points, ${r.killPointsFailing.length} failing`);
  for (let seed = o.from; seed < o.from + o.seeds; seed++) {
    const s = await simulateTickets({ seed, steps: o.steps });
    r.seeds++;
    r.kills += s.kills;
    for (const [k, n] of Object.entries(s.faults)) r.faults[k] = (r.faults[k] ?? 0) + n;
    add(r, s.tally);
    if (s.violations.length > 0) {
      r.failingSeeds.push(seed);
      o.progress?.(`tickets seed ${seed} FAILED (npm run sim-faults -- --tickets --seed ${seed}): ${s.violations.slice(0, 3).join(' | ')}`);
    }
    if (r.seeds % 50 === 0) o.progress?.(`tickets: ${r.seeds} seeds`);
  }
  r.seconds = (Date.now() - t0) / 1000;
  return r;
}

function add(r: TicketCampaignResult, t: TicketTally): void {
  for (const k of ['issued', 'printed', 'voided', 'heldForPerson', 'redeemed', 'printedTwice', 'lost', 'paidTwice', 'printedAndGivenBack'] as const)
    r[k] += t[k];
  for (const [k, v] of Object.entries(t.returned)) r.returned[k] = (r.returned[k] ?? 0) + v;
}

export function ticketCampaignOk(r: TicketCampaignResult): boolean {
  return r.killPointsFailing.length === 0 && r.failingSeeds.length === 0 && r.lost === 0 && r.paidTwice === 0 && r.printedAndGivenBack === 0;
}

export function ticketCampaignTable(r: TicketCampaignResult): string {
  const row = (k: string, v: string | number) => `${k.padEnd(40)} ${v}`;
  return [
    row('kill points (every ticket journal step)', `${r.killPoints} (${r.killPointsFailing.length} failing)`),
    row('seeded floors (2 tables each)', `${r.seeds} (${r.failingSeeds.length} failing${r.failingSeeds.length ? `: ${r.failingSeeds.join(' ')}` : ''})`),
    row('host kills', r.kills),
    ...Object.entries(r.faults)
      .sort()
      .map(([k, n]) => row(`fault ${k}`, n)),
    row('tickets issued', r.issued),
    row('  printed / voided', `${r.printed} / ${r.voided}`),
    row('  held for a person (a jam)', r.heldForPerson),
    row('  printed twice by a lying printer', r.printedTwice),
    row('tickets redeemed', r.redeemed),
    ...Object.entries(r.returned)
      .sort()
      .map(([k, n]) => row(`  returned ${k}`, n)),
    row('tickets lost', r.lost),
    row('tickets paid twice', r.paidTwice),
    row('tickets printed and given back', r.printedAndGivenBack),
    ...r.killPointsFailing.map((f) => `  FAILED ${f}`),
    row('wall time (s)', r.seconds.toFixed(1)),
  ].join('\n');
}
