import { emptyStats, World, type WorldOptions, type WorldStats } from './world.js';

// Many seeded worlds (tests/fuzz/transfers/world.ts), each in one of four shapes: two or three
// hosts, all honest or the last one lying. The figures summed over the run say what was injected.

export function worldOf(seed: number, steps: number): WorldOptions {
  return { seed, hosts: seed % 4 < 2 ? 3 : 2, hostile: seed % 2 === 1, steps, stations: 4 };
}

function add(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

/** Runs `seeds` worlds from `firstSeed`; throws the first violation (its seed and step in the message). */
export function fuzzTransfers(seeds: number, firstSeed: number, steps = 300): WorldStats & { worlds: number; hostileWorlds: number } {
  const total = { ...emptyStats(), worlds: 0, hostileWorlds: 0 };
  for (let i = 0; i < seeds; i++) {
    const o = worldOf(firstSeed + i, steps);
    const s = new World(o).run();
    total.worlds++;
    if (o.hostile) total.hostileWorlds++;
    total.steps += s.steps;
    total.healRounds = Math.max(total.healRounds, s.healRounds);
    for (const k of ['started', 'startsRefused', 'delivered', 'completed', 'reversed', 'recalls', 'swallowed', 'disagreements'] as const) total[k] += s[k];
    add(total.faults, s.faults);
    add(total.lies, s.lies);
    add(total.alarms, s.alarms);
  }
  return total;
}

/** One line of figures for a campaign's output. */
export function describeRun(s: ReturnType<typeof fuzzTransfers>): string {
  const list = (r: Record<string, number>) =>
    Object.entries(r)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  return [
    `${s.worlds} worlds (${s.hostileWorlds} with a lying host), ${s.steps} steps, at most ${s.healRounds} heal rounds`,
    `transfers: ${s.started} started, ${s.startsRefused} refused at start, ${s.completed} completed, ${s.reversed} reversed, ${s.recalls} recalls, ${s.delivered} messages delivered`,
    `faults: ${list(s.faults)}`,
    `lies: ${list(s.lies)}, offers swallowed ${s.swallowed}`,
    `alarms: ${list(s.alarms)}; disagreements named by the reconciliation ${s.disagreements}`,
  ].join('\n\t');
}
