// `etg sim-faults --seed S | --seeds N`: the deterministic simulation of the table host under
// faults (cli/sim-faults/simulate.ts). A failing seed replays exactly: its trace is the same run.
import { options } from './command.js';
import { SIM_FAULTS_COMMAND } from './sim-faults/command.js';
import { FAULT_KINDS } from './sim-faults/faults.js';
import { simulate, TABLES, type SimResult } from './sim-faults/simulate.js';
import { ticketCampaign, ticketCampaignOk, ticketCampaignTable } from './sim-faults/tickets/campaign.js';
import { simulateTickets } from './sim-faults/tickets/simulate-tickets.js';
import { UsageError } from './tool.js';

export const command = SIM_FAULTS_COMMAND;

function int(name: string, value: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not "${value}"`);
  return n;
}

function json(r: SimResult): string {
  return JSON.stringify({
    seed: r.seed,
    game: r.game,
    profile: r.profile,
    starts: r.starts,
    roundsClosed: r.roundsClosed,
    entries: r.entries,
    faults: Object.fromEntries([...r.faults].filter(([, n]) => n > 0)),
    notes: r.notes,
    violations: r.violations,
  });
}

export async function run(argv: string[]): Promise<number> {
  const v = options(SIM_FAULTS_COMMAND, argv);
  if (v.tickets) return runTickets(v);
  const steps = int('steps', v.steps, 300, 1);
  const table = v.table === undefined ? undefined : int('table', v.table, 0, 0, TABLES.length - 1);
  const common = { steps, sideBetsAlone: v['side-bets-alone'] === true, ...(table !== undefined ? { table } : {}) };
  if (v.seed !== undefined) {
    const r = await simulate({ seed: int('seed', v.seed, 1, 0, 0xffffffff), ...common });
    if (v.json) console.log(json(r));
    else {
      console.log(`seed ${r.seed}: ${r.game} ${r.profile}, ${r.steps} steps, ${r.starts} start(s), ${r.roundsClosed} rounds closed, ${r.entries} entries`);
      for (const line of r.trace) console.log(line);
      console.log(r.violations.length === 0 ? 'every invariant holds' : `${r.violations.length} invariant(s) broken:`);
      for (const x of r.violations) console.log(`  ${x}`);
    }
    return r.violations.length === 0 ? 0 : 1;
  }
  const n = int('seeds', v.seeds, 200, 1);
  const from = int('from', v.from, 1, 0, 0xffffffff);
  const totals = new Map<string, number>(FAULT_KINDS.map((k) => [k, 0]));
  const failing: number[] = [];
  let rounds = 0;
  let starts = 0;
  const t0 = Date.now();
  for (let seed = from; seed < from + n; seed++) {
    const r = await simulate({ seed, ...common });
    for (const [k, c] of r.faults) totals.set(k, (totals.get(k) ?? 0) + c);
    rounds += r.roundsClosed;
    starts += r.starts;
    if (v.json) console.log(json(r));
    if (r.violations.length > 0) {
      failing.push(seed);
      if (!v.json) {
        console.log(`seed ${seed} (${r.game} ${r.profile}) FAILED: replay with npm run sim-faults -- --seed ${seed}`);
        for (const x of r.violations) console.log(`  ${x}`);
        if (v.trace) for (const line of r.trace) console.log(`    ${line}`);
      }
    }
  }
  if (!v.json) {
    console.log(
      `${n} seeds (${from}…${from + n - 1}), ${steps} steps each, ${((Date.now() - t0) / 1000).toFixed(1)} s: ${rounds} rounds closed, ${starts - n} kills`,
    );
    console.log('faults injected:');
    for (const [k, c] of totals) console.log(`  ${k.padEnd(20)} ${c}`);
    console.log(failing.length === 0 ? 'every invariant held on every seed' : `failing seeds: ${failing.join(' ')}`);
  }
  return failing.length === 0 ? 0 : 1;
}

/** `--tickets`: one seed of the tickets' floor with its trace, or the kill points and N seeds with their table. */
async function runTickets(v: {
  seed?: string | undefined;
  seeds?: string | undefined;
  from?: string | undefined;
  steps?: string | undefined;
  json?: boolean | undefined;
}): Promise<number> {
  const steps = int('steps', v.steps, 200, 1);
  if (v.seed !== undefined) {
    const r = await simulateTickets({ seed: int('seed', v.seed, 1, 0, 0xffffffff), steps });
    if (v.json) console.log(JSON.stringify({ seed: r.seed, starts: r.starts, kills: r.kills, faults: r.faults, tally: r.tally, violations: r.violations }));
    else {
      for (const line of r.trace) console.log(line);
      console.log(`seed ${r.seed}: ${r.steps} steps, ${r.kills} kill(s); ${JSON.stringify(r.tally)}`);
      console.log(r.violations.length === 0 ? 'every invariant holds' : `${r.violations.length} invariant(s) broken:`);
      for (const x of r.violations) console.log(`  ${x}`);
    }
    return r.violations.length === 0 ? 0 : 1;
  }
  const r = await ticketCampaign({
    seeds: int('seeds', v.seeds, 200, 0),
    from: int('from', v.from, 1, 0, 0xffffffff),
    steps,
    progress: (s) => {
      if (!v.json) console.error(s);
    },
  });
  console.log(v.json ? JSON.stringify(r) : ticketCampaignTable(r));
  return ticketCampaignOk(r) ? 0 : 1;
}
