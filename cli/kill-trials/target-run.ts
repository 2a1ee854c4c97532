// One kill-target process (target.ts): started, SIGKILLed at its seeded moment, reaped.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { TargetReady } from './target.js';

/** When the kill lands: `ms` after the process starts (`duringStart`, mid-recovery) or after it says it is in play. */
export interface KillMoment {
  readonly duringStart: boolean;
  readonly ms: number;
}

export interface TargetExit {
  ready: TargetReady | null;
  /** The target ended on its own (not by our kill). */
  early: boolean;
  stderr: string;
}

/** One target: started, killed at the seeded moment, reaped. */
export async function runTarget(cmd: { node: string; args: string[] }, killAt: KillMoment): Promise<TargetExit> {
  const child = spawn(cmd.node, cmd.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // A crash's first lines say what was thrown; its last lines say where: keep both.
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    const all = stderr + d.toString();
    stderr = all.length <= 4000 ? all : `${all.slice(0, 2000)}\n…\n${all.slice(-2000)}`;
  });
  let killed = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ready: TargetReady | null = null;
  const kill = () => {
    if (killed || child.exitCode !== null || child.signalCode !== null) return;
    killed = true;
    child.kill('SIGKILL');
  };
  if (killAt.duringStart) setTimeout(kill, killAt.ms);
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    if (ready !== null || !line.startsWith('{"ready"')) return;
    ready = JSON.parse(line) as TargetReady;
    if (!killAt.duringStart) setTimeout(kill, killAt.ms);
  });
  await exited;
  lines.close();
  return { ready, early: !killed, stderr };
}
