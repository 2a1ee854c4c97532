// `etg soak --game G --rules P --rounds N --stations K --seed S [--kill-every M] --json`:
// the autoplay host as a child process with instant simulated dealing, killed with SIGKILL every M
// rounds and restarted on the same data dir; then the money is accounted from the ledger.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tableGame } from '../engine/games.js';
import { Rng } from '../engine/random/seeded-rng.js';
import { openExistingLedger } from '../ledger/index.js';
import { DEFAULT_ROTATION } from '../host/logger.js';
import { accountFor } from './soak/account.js';
import { ticketSummary } from './soak/ticket-account.js';
import { HostChild, LedgerWatch, type HostChildOptions } from './soak/child.js';
import { options } from './command.js';
import { campaign, campaignTable, sigkillRows, sigkillTrials } from './soak/campaign.js';
import { killCampaign, killCampaignTable, measureTargetStart, startCostRows } from './kill-trials/campaign.js';
import { ticketCampaign, ticketCampaignOk, ticketCampaignTable } from './sim-faults/tickets/campaign.js';
import { SOAK_COMMAND } from './soak/command.js';
import { soakUpstream } from './soak/upstream.js';
import { simulatedTableConfig } from '../host/config/table-config.js';
import { UsageError } from './tool.js';

/** A host that stops closing rounds for this long is stuck: the soak says so rather than wait forever. */
const STALL_MS = 60_000;

export const command = SOAK_COMMAND;

/**
 * The hosts run from the script this soak runs from: bin/etg.js as users start it, or the same
 * command line bundled when a test starts the soak (tests/children/bundle.ts).
 */
function hostChild(o: HostChildOptions): HostChild {
  return new HostChild(process.argv[1] ? { ...o, etg: process.argv[1] } : o);
}

export async function run(argv: string[]): Promise<number> {
  const v = options(SOAK_COMMAND, argv);
  if (v.campaign) return runCampaign(v);
  const int = (name: string, value: string | undefined, fallback: number | null, min: number): number => {
    if (value === undefined) {
      if (fallback === null) throw new UsageError(`--${name} is required\n${SOAK_COMMAND.usage}`);
      return fallback;
    }
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer of at least ${min}, not "${value}"`);
    return n;
  };
  if (v.jackpot && ((v.game !== undefined && v.game !== 'blackjack') || (v.rules !== undefined && v.rules !== 'portugal-2001')))
    throw new UsageError('--jackpot plays Portugal blackjack (portugal-2001 rules 38-50)');
  const game = v.jackpot ? 'blackjack' : (v.game ?? '');
  if (!['blackjack', 'baccarat', 'war'].includes(game)) throw new UsageError(`--game must be blackjack, baccarat or war\n${SOAK_COMMAND.usage}`);
  // The table's profile and its authorised choice checked here, so that a missing reference is
  // the user's error (exit 2, naming it), not a host child that never starts.
  if (v.rules !== undefined && !v.jackpot) {
    try {
      tableGame(game === 'baccarat' ? 'baccarat' : game === 'war' ? 'war' : 'blackjack', v.rules, v.authorisation ? { authorisation: v.authorisation } : {});
    } catch (e) {
      throw new UsageError(`--rules ${v.rules}: ${e instanceof Error ? e.message : String(e)}${v.authorisation ? '' : ' (--authorisation REF)'}`);
    }
  }
  const rounds = int('rounds', v.rounds, null, 1);
  const stations = int('stations', v.stations, 3, 1);
  const seed = int('seed', v.seed, 1, 0);
  const killEvery = v['kill-every'] === undefined ? null : int('kill-every', v['kill-every'], null, 1);
  const cutCardAt = v['cut-card-at'] === undefined ? null : int('cut-card-at', v['cut-card-at'], null, 1);
  const dataDir = v['data-dir'] ? path.resolve(v['data-dir']) : mkdtempSync(path.join(os.tmpdir(), 'soak-'));
  const say = (s: string) => {
    if (!v.json) console.error(s);
  };

  const logMb = v['log-max-mb'];
  if (logMb !== undefined && !(Number(logMb) >= 0.001)) throw new UsageError(`--log-max-mb must be a size in MiB of at least 0.001, not "${logMb}"`);
  const logCap = logMb === undefined ? DEFAULT_ROTATION.maxBytes : Math.round(Number(logMb) * 1024 * 1024);
  const hostLog = path.join(dataDir, 'logs', 'host.log');
  let logPeak = 0;
  const sampleLog = () => {
    try {
      logPeak = Math.max(logPeak, statSync(hostLog).size);
    } catch {
      // Not written yet.
    }
  };

  const watch = new LedgerWatch(dataDir);
  // The kill lands a seeded random moment after the M-th round closed: in the next betting window,
  // mid-deal, at a decision, at the settlement — not always at the same step.
  const jitter = Rng.fromSeed(seed ^ 0x5eed);
  const t0 = Date.now();
  let restarts = 0;
  // With tickets, the validation authority the players' tickets are asked of: an upstream in this process.
  const tableId = v.jackpot ? null : simulatedTableConfig(game === 'baccarat' ? 'baccarat' : game === 'war' ? 'war' : 'blackjack').tableId;
  const upstream = v.tickets && tableId ? await soakUpstream(dataDir, tableId) : null;
  try {
    for (;;) {
      const child = hostChild({
        dataDir,
        game,
        ...(v.rules ? { rules: v.rules } : {}),
        stations,
        seed: seed + restarts,
        extra: [
          ...(logMb !== undefined ? [`--log-max-mb=${logMb}`] : []),
          ...(v.jackpot ? ['--jackpot'] : []),
          ...(v.authorisation ? [`--authorisation=${v.authorisation}`] : []),
          ...(cutCardAt !== null ? [`--test-cut-card-at=${cutCardAt}`] : []),
          // A simulated printer at every station (docs/tito.md): cash-outs print tickets the players insert elsewhere.
          ...(upstream ? ['--sim-controls', `--upstream=${upstream.url}`] : []),
        ],
      });
      const started = await child.started;
      if (!started) throw new Error(`the host did not start:\n${child.errors()}`);
      const from = watch.closedRounds();
      let last = from;
      let lastAt = Date.now();
      let killed = false;
      for (;;) {
        await sleep(20);
        sampleLog();
        const closed = watch.closedRounds();
        if (closed !== last) {
          last = closed;
          lastAt = Date.now();
        }
        if (closed >= rounds) break;
        if (killEvery !== null && closed - from >= killEvery) {
          killed = true;
          break;
        }
        if (Date.now() - lastAt > STALL_MS) {
          await child.kill('SIGKILL');
          throw new Error(`no round closed for ${STALL_MS / 1000} s (at ${closed} rounds)`);
        }
        if (child.process.exitCode !== null || child.process.signalCode !== null) throw new Error(`the host exited:\n${child.errors()}`);
      }
      if (!killed) {
        await child.kill('SIGTERM');
        break;
      }
      await sleep(jitter.below(600));
      await child.kill('SIGKILL');
      restarts++;
      say(`killed at ${last} rounds; restarting (${restarts})`);
    }
  } finally {
    watch.close();
    await upstream?.close();
  }
  sampleLog();
  const logFiles = readdirSync(path.dirname(hostLog)).filter((f) => /^host\.log(\.\d+)?$/.test(f)).length;
  const hours = (Date.now() - t0) / 3_600_000;
  const ledger = openExistingLedger(dataDir);
  let a;
  try {
    a = accountFor(ledger);
  } finally {
    ledger.close();
  }
  const out = {
    rounds: a.rounds,
    restarts,
    voided: a.voided,
    creditsIn: a.creditsIn,
    creditsOut: a.creditsOut,
    creditsOnMeters: a.creditsOnMeters,
    wagered: a.wagered,
    won: a.won,
    conserved: a.conserved,
    ledgerVerified: a.ledgerVerified,
    roundsPerHour: Math.round(a.rounds / hours),
    logCapBytes: logCap,
    logPeakBytes: logPeak,
    logFiles,
    shoeChanges: a.shoeChanges,
    holds: a.holds,
    tickets: {
      printed: a.tickets.printed,
      voided: a.tickets.voided,
      inPrint: a.tickets.inPrint,
      redeemed: a.tickets.redeemed,
      returned: a.tickets.returned,
      pendingRedemptions: a.tickets.pendingRedemptions,
    },
    ...(v.jackpot ? { jackpot: a.jackpot } : {}),
  };
  if (v.json) console.log(JSON.stringify(out));
  else {
    for (const [k, x] of Object.entries(out))
      console.log(`${k.padEnd(16)} ${k === 'tickets' ? ticketSummary(a.tickets) : typeof x === 'object' ? JSON.stringify(x) : String(x)}`);
    console.log(`${'inPlay'.padEnd(16)} ${a.inPlay}   houseNet ${a.houseNet}   data ${dataDir}`);
    for (const p of [...a.problems, ...a.tickets.problems]) console.log(`  MISMATCH: ${p}`);
    if (logPeak > logCap) console.log(`  host.log reached ${logPeak} bytes, past its cap of ${logCap}`);
  }
  if (!v['data-dir']) rmSync(dataDir, { recursive: true, force: true });
  const jackpotOk = !v.jackpot || (a.jackpot.conserved && a.jackpot.chips > 0);
  return a.conserved && a.ledgerVerified && logPeak <= logCap && jackpotOk ? 0 : 1;
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
