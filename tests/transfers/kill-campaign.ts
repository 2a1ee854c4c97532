import { runKillTrial, type KillTrialResult } from './kill-trial.js';

// Several SIGKILL trials of the transfer protocol (kill-trial.ts) one after another, seeds from
// `firstSeed`; throws on the first with a problem, naming its seed.

export interface KillTrialsTotal {
  trials: number;
  sigkills: number;
  midCommand: number;
  started: number;
  completed: number;
  reversed: number;
  delivered: number;
  dropped: number;
  duplicated: number;
  seconds: number;
}

export async function runKillTrials(trials: number, firstSeed: number, steps = 160): Promise<KillTrialsTotal> {
  const total: KillTrialsTotal = {
    trials: 0,
    sigkills: 0,
    midCommand: 0,
    started: 0,
    completed: 0,
    reversed: 0,
    delivered: 0,
    dropped: 0,
    duplicated: 0,
    seconds: 0,
  };
  const t0 = performance.now();
  for (let i = 0; i < trials; i++) {
    const seed = firstSeed + i;
    const r: KillTrialResult = await runKillTrial({ seed, steps });
    const wrong = [
      ...r.problems,
      ...r.alarms.map((a) => `alarm ${a}`),
      ...(r.credits === r.opening ? [] : [`credits ${r.credits}, opening ${r.opening}`]),
      ...(r.settlements[0] === -r.settlements[1] ? [] : [`settlements ${r.settlements.join(' / ')} do not mirror`]),
    ];
    if (wrong.length) throw new Error(`seed ${seed}: ${wrong.join('; ')}`);
    total.trials++;
    for (const k of ['sigkills', 'midCommand', 'started', 'completed', 'reversed', 'delivered', 'dropped', 'duplicated'] as const) total[k] += r[k];
  }
  total.seconds = (performance.now() - t0) / 1000;
  return total;
}

export function describeKillTrials(t: KillTrialsTotal): string {
  return `${t.trials} trials, ${t.sigkills} SIGKILLs (${t.midCommand} with a command in flight), ${t.started} transfers started, ${t.completed} completed, ${t.reversed} reversed, ${t.delivered} messages delivered, ${t.dropped} dropped, ${t.duplicated} duplicated, ${t.seconds.toFixed(1)} s`;
}
