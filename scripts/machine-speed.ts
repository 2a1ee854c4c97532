/**
 * One line naming the machine a test run ran on and how fast its cores did a fixed piece of work,
 * printed by `scripts/check-system.ts` at the start of `npm test`. CI's sessions run on machines
 * that differ from one to the next: the same commit took 27 minutes on one and 54 on another
 * (docs/testing.md, 2 December), and nothing in the logs told the machine from the code. The
 * figures are CPU time (this process's user + system), not wall, so other work on the machine
 * changes them less than it changes the run's length.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

export interface MachineSpeed {
  cores: number;
  model: string;
  mhz: number;
  load: number;
  /** CPU milliseconds to SHA-256 128 MiB (the median of three). */
  sha256Ms: number;
  /** CPU milliseconds of a fixed loop of integer arithmetic in JavaScript (the median of three). */
  loopMs: number;
}

function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function median(work: () => void): number {
  const runs = [cpuMs(work), cpuMs(work), cpuMs(work)].sort((a, b) => a - b);
  return runs[1] as number;
}

const BLOCK = Buffer.alloc(32 * 1024 * 1024, 0x5a);

function sha256Work(): void {
  const hash = createHash('sha256');
  for (let i = 0; i < 4; i++) hash.update(BLOCK);
  hash.digest();
}

let sink = 0;
function loopWork(): void {
  let x = 1;
  for (let i = 0; i < 200_000_000; i++) x = (Math.imul(x, 1_103_515_245) + 12_345) | 0;
  sink ^= x;
}

/** Some virtual machines give Node no speed: Linux's own figure then, if it has one. */
function cpuinfoMhz(): number {
  try {
    const m = /^cpu MHz\s*:\s*([\d.]+)/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return m ? Math.round(Number(m[1])) : 0;
  } catch {
    return 0;
  }
}

export function machineSpeed(): MachineSpeed {
  const all = cpus();
  const first = all[0];
  return {
    cores: all.length,
    model: first?.model.trim() ?? 'unknown',
    mhz: first?.speed || cpuinfoMhz(),
    load: loadavg()[0] ?? 0,
    sha256Ms: median(sha256Work),
    loopMs: median(loopWork) + (sink & 0),
  };
}

export function machineLine(m: MachineSpeed): string {
  return (
    `machine: ${m.cores} cores, ${m.model} at ${m.mhz} MHz, load ${m.load.toFixed(2)}; ` +
    `fixed work: SHA-256 of 128 MiB ${m.sha256Ms.toFixed(0)} ms of CPU, an integer loop ${m.loopMs.toFixed(0)} ms of CPU`
  );
}
