// npm run fuzz [-- --cases N] [--seed S] [--only NAME,…] [--honest]: the fuzz campaign of
// tests/fuzz/parsers.ts and of the drivers' model-based fuzz (tests/fuzz/drivers.ts: `driver-id003`,
// `driver-ssp`, with the hostile device unless --honest), 1,000,000 cases each unless told
// otherwise; prints cases, time and the result per target (for a driver: how many cases lied, the
// lies told and withheld, the violations the driver reported). `transfers`: that many seeded worlds
// of the transfer protocol between table hosts (tests/fuzz/transfers/), with the faults and lies
// injected summed. `transfers-sigkill`: that many SIGKILL trials of two table-host processes over
// their SQLite ledgers (tests/transfers/kill-trial.ts), 160 steps each. `transfers-floor` (only when
// named): the three-table soak (tests/transfers/floor-soak.ts) with that many SIGKILLs of the hosts,
// a third as many of the station agents, and at least 10 link cuts; its hosts sync to a real
// upstream, whose reconciliation must agree with the ledgers' (tests/transfers/floor-upstream.ts).
// `witness-wire`: that many frames on the ledger witness's wire (tests/fuzz/witness-wire.ts).
// `sas`: that many byte-level frames at the SAS machine side (tests/fuzz/sas.ts). `sas-aft-kill`
// (only when named; --cases is ignored): every trial of the AFT kill campaign, each direction at
// each kill point (tests/sas/aft-kill/campaign.ts), a SIGKILL of a real station process each.
// `tickets-sigkill` (only when named): the ticket kill campaign (tests/tickets/kill/campaign.ts),
// every kill point of a ticket's issue and redemption, a SIGKILL of a real table host each, --cases
// rounds of it (default 1 when only this is named with no --cases).
import { parseArgs } from 'node:util';
import { fuzzDriver, type CaseCounts, type DriverProtocol } from './drivers.js';
import { fuzz, PARSERS, type ParserName } from './parsers.js';
import { fuzzSas } from './sas.js';
import { allTrials, describeTrial, runTrial } from '../sas/aft-kill/campaign.js';
import { describeRun, fuzzTransfers } from './transfers/campaign.js';
import { describeKillTrials, runKillTrials } from '../transfers/kill-campaign.js';
import { describeFloorSoak, runFloorSoak } from '../transfers/floor-soak.js';
import { describeWitnessFuzz, fuzzWitnessWire } from './witness-wire.js';
import { describeTrial as describeTicketTrial, runCampaign as runTicketKills, type TrialResult as TicketTrial } from '../tickets/kill/campaign.js';

const { values } = parseArgs({
  options: { cases: { type: 'string', default: '1000000' }, seed: { type: 'string' }, only: { type: 'string' }, honest: { type: 'boolean', default: false } },
});
const cases = Number(values.cases);
if (!Number.isSafeInteger(cases) || cases < 1) throw new Error('--cases must be a positive integer');
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
const DRIVERS: Record<string, DriverProtocol> = { 'driver-id003': 'id003', 'driver-ssp': 'ssp' };
const all = [...Object.keys(PARSERS), ...Object.keys(DRIVERS), 'sas', 'transfers', 'transfers-sigkill', 'witness-wire'];
// Run only when named: a campaign of real processes, sized by --cases (SIGKILLs), not a million of anything.
const named = ['transfers-floor', 'sas-aft-kill', 'tickets-sigkill'];
const names = values.only ? values.only.split(',').map((n) => n.trim()) : all;
const unknown = names.filter((n) => !all.includes(n) && !named.includes(n));
if (unknown.length) throw new Error(`unknown fuzz target ${unknown.join(', ')}; known: ${[...all, ...named].join(', ')}`);
const isParser = (n: string): n is ParserName => Object.keys(PARSERS).includes(n);
let failed = 0;
for (const name of names) {
  const t0 = performance.now();
  const counts: CaseCounts = { cases: 0, lying: 0, liesTold: 0, liesWithheld: 0, violations: 0 };
  const driver = DRIVERS[name];
  const tally = () =>
    driver
      ? `\t${values.honest ? 'lossy wire only' : 'hostile device'}: ${counts.cases} run, ${counts.lying} with lies told (${counts.liesTold} told, ${counts.liesWithheld} withheld), ${counts.violations} violations reported`
      : '';
  try {
    let figures = '';
    if (driver) await fuzzDriver(driver, cases, seed, { hostile: !values.honest, counts });
    else if (isParser(name)) fuzz(name, cases, seed);
    else if (name === 'sas') {
      const r = fuzzSas(cases, seed);
      figures = `\n\t${r.bytes} bytes, ${r.answers} answers; ${Object.entries(r.kinds)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`;
    } else if (name === 'sas-aft-kill') {
      const results = [];
      for (const t of allTrials()) {
        const r = await runTrial(t);
        console.error(describeTrial(r));
        results.push(r);
      }
      const failing = results.filter((r) => r.violations.length > 0);
      if (failing.length) throw new Error(failing.map(describeTrial).join('\n'));
      figures = `\n\t${results.length} trials: ${results.filter((r) => r.outcome === 'complete').length} complete, ${results.filter((r) => r.outcome === 'refused').length} refused, each once`;
    } else if (name === 'tickets-sigkill') {
      // Rounds of every kill point: a million is the parsers' default, not a number of host processes.
      const rounds = values.cases === '1000000' ? 1 : cases;
      const results: TicketTrial[] = [];
      for (let i = 0; i < rounds; i++) results.push(...(await runTicketKills(undefined, (l) => console.error(l))));
      const failing = results.filter((r) => r.violations.length > 0);
      if (failing.length) throw new Error(failing.map(describeTicketTrial).join('\n'));
      const by = (e: string) => results.filter((r) => r.ended === e).length;
      figures = `\n\t${results.length} trials (a SIGKILL each): ${by('redeemed')} redeemed once, ${by('voided')} voided, ${by('printed')} printed unpaid, ${by('in-print')} held; 0 lost, 0 paid twice`;
    } else if (name === 'transfers') figures = `\n\t${describeRun(fuzzTransfers(cases, seed))}`;
    else if (name === 'witness-wire') figures = `\n\t${describeWitnessFuzz(fuzzWitnessWire(cases, seed))}`;
    else if (name === 'transfers-sigkill') figures = `\n\t${describeKillTrials(await runKillTrials(cases, seed))}`;
    else if (name === 'transfers-floor') {
      const r = await runFloorSoak({
        seed,
        hostKills: cases,
        agentKills: Math.ceil(cases / 3),
        cuts: Math.max(10, Math.ceil(cases / 3)),
        stations: 6,
        faultEveryMs: 1_000,
        log: (l) => console.error(l),
      });
      if (r.transfers === 0) r.problems.push('no transfer was made: the soak proved nothing');
      for (const [table, g] of Object.entries(r.games))
        if (g.remoteBets === 0 || g.remoteLines === 0) r.problems.push(`the stations bet nothing settled at ${table} (${g.game}): its money was not tested`);
      if (r.problems.length) throw new Error(`${describeFloorSoak(r)}\n${r.problems.slice(0, 20).join('\n')}`);
      figures = `\n\t${describeFloorSoak(r)}`;
    }
    console.log(`${name}\t${cases} cases\tseed ${seed}\t${((performance.now() - t0) / 1000).toFixed(1)} s\tok${tally()}${figures}`);
  } catch (e) {
    failed++;
    console.log(
      `${name}\t${cases} cases\tseed ${seed}\t${((performance.now() - t0) / 1000).toFixed(1)} s\tFAILED${tally()}\n${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
process.exit(failed ? 1 : 0);
