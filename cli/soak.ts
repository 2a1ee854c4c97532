// `etg soak --game G --rules P --rounds N --stations K --seed S [--kill-every M] --json`:
// the autoplay host as a child process with instant simulated dealing, killed with SIGKILL every M
// rounds and restarted on the same data dir; then the money is accounted from the ledger. Its parts:
// the plan (soak/plan.ts), the hosts (soak/host-runs.ts), the account (soak/account.ts), what it
// prints (soak/report.ts).
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { openExistingLedger } from '../ledger/index.js';
import { accountFor } from './soak/account.js';
import { options } from './command.js';
import { campaign, campaignTable, sigkillRows, sigkillTrials } from './soak/campaign.js';
import { killCampaign, killCampaignTable, measureTargetStart, startCostRows } from './kill-trials/campaign.js';
import { ticketCampaign, ticketCampaignOk, ticketCampaignTable } from './sim-faults/tickets/campaign.js';
import { SOAK_COMMAND } from './soak/command.js';
import { LogPeak, runHosts } from './soak/host-runs.js';
import { soakPlan } from './soak/plan.js';
import { printSoak, soakVerdict } from './soak/report.js';
import { UsageError } from './tool.js';

export const command = SOAK_COMMAND;

export async function run(argv: string[]): Promise<number> {
  const v = options(SOAK_COMMAND, argv);
  if (v.campaign) return runCampaign(v);
  const plan = soakPlan(v);
  const say = (s: string) => {
    if (!v.json) console.error(s);
  };
  const log = new LogPeak(path.join(plan.dataDir, 'logs', 'host.log'));
  const t0 = Date.now();
  const { restarts, killsMidPrint, upstreamAlarms } = await runHosts(plan, log, say);
  log.sample();
  const logFiles = readdirSync(path.dirname(log.file)).filter((f) => /^host\.log(\.\d+)?$/.test(f)).length;
  const hours = (Date.now() - t0) / 3_600_000;
  const ledger = openExistingLedger(plan.dataDir);
  let a;
  try {
    a = accountFor(ledger);
  } finally {
    ledger.close();
  }
  const soakRun = { restarts, killsMidPrint, upstreamAlarms, hours, logPeak: log.peak, logFiles };
  printSoak(plan, a, soakRun);
  if (!v['data-dir']) rmSync(plan.dataDir, { recursive: true, force: true });
  return soakVerdict(plan, a, soakRun);
}

async function runCampaign(v: {
  trials?: string | undefined;
  seed?: string | undefined;
  json?: boolean | undefined;
  'sigkill-rounds'?: string | undefined;
  'sigkill-trials'?: string | undefined;
  'start-cost'?: string | undefined;
  'data-dir'?: string | undefined;
  'kill-every'?: string | undefined;
  'ticket-seeds'?: string | undefined;
}): Promise<number> {
  const num = (name: string, value: string | undefined, fallback: number, min = 1) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer of at least ${min}, not "${value}"`);
    return n;
  };
  const progress = (s: string) => {
    if (!v.json) console.error(s);
  };
  // OS-level SIGKILL trials first: they are what the done-when counts (cli/kill-trials/).
  const startCost = num('start-cost', v['start-cost'], 10, 0);
  const cost = startCost > 0 ? await measureTargetStart({ starts: startCost }) : null;
  const sigkillTrialCount = num('sigkill-trials', v['sigkill-trials'], 1000, 0);
  const kills =
    sigkillTrialCount > 0
      ? await killCampaign({ trials: sigkillTrialCount, seed: num('seed', v.seed, 1), ...(v['data-dir'] ? { dir: v['data-dir'] } : {}), progress })
      : null;
  const r = await campaign({
    trials: num('trials', v.trials, 1000),
    from: num('seed', v.seed, 1),
    steps: 300,
    progress: (s) => {
      if (!v.json) console.error(s);
    },
  });
  // Tickets (issue 47): a kill at every journal step of a ticket's issue and redemption, then seeded floors under every fault.
  const tickets = await ticketCampaign({ seeds: num('ticket-seeds', v['ticket-seeds'], 200, 0), from: num('seed', v.seed, 1), steps: 200, progress });
  const sigkill =
    v['sigkill-rounds'] === undefined
      ? null
      : await sigkillTrials({
          rounds: num('sigkill-rounds', v['sigkill-rounds'], 6),
          killEvery: num('kill-every', v['kill-every'], 2),
          seed: num('seed', v.seed, 1),
          progress: (s) => {
            if (!v.json) console.error(s);
          },
        });
  if (v.json)
    console.log(JSON.stringify({ ...r, ...(kills ? { kills } : {}), ...(cost ? { startCost: cost } : {}), tickets, ...(sigkill ? { sigkill } : {}) }));
  else
    console.log(
      [
        kills ? `OS-level SIGKILL trials (cli/kill-trials/)\n${killCampaignTable(kills)}` : null,
        cost ? startCostRows(cost) : null,
        `Simulated kills at journal writes, with the other faults (cli/sim-faults/)\n${campaignTable(r)}`,
        `Tickets: kills at every journal step, then seeded floors under every fault (cli/sim-faults/tickets/)\n${ticketCampaignTable(tickets)}`,
        sigkill ? sigkillRows(sigkill) : null,
      ]
        .filter((x) => x !== null)
        .join('\n\n'),
    );
  const ok = r.failingSeeds.length === 0 && r.lostCredits === 0 && r.duplicatedCredits === 0 && r.ledgerFailures === 0;
  const killsOk = kills === null || kills.violations.length === 0;
  return ok && killsOk && ticketCampaignOk(tickets) && (sigkill?.failures.length ?? 0) === 0 ? 0 : 1;
}
