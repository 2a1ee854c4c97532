// The AFT kill campaign (issue 48: "an AFT transfer killed at every journal step completes or is
// refused exactly once"; docs/sas.md, "AFT"). A transfer in (0x72 type 00) or out (type 80) is
// killed by a real SIGKILL of the station's process (./station-child.ts: the real host start, its
// SAS link on a socat pty pair) at each step: inside the journal's write of its entry before and
// after the commit, after the casino system has the answer, after it read exception 69, after it
// acknowledged 69. The station is started again on its data folder, and the system (the host
// simulator, tests/sas/host/, from the document) recovers as SAS §8 has a system do it: it
// interrogates the current transaction (0x72 FF, index 00); a transfer the station reports is
// complete; one it does not is sent again with the same transaction id (policy `retry`) or given
// up (`give-up`: refused, the money stays in the player's account). A completed transfer's id is
// then sent once more, as a confused system would. What must hold, whatever the kill:
//   - the system decided the transfer once (complete or refused), and the journal holds it as
//     many times as that (1 or 0);
//   - the money is conserved between the player's account and the station's credit meter;
//   - exception 69 was acknowledged once per completed transfer (none lost, none twice);
//   - the SAS AFT meters (0x2F A0, A1, B8, B9) equal the ledger's;
//   - the meters of 0x1C, read right after each restart and at the end, equal the ledger's.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { RunningHost } from '../../../host/start-host.js';
import { aftTransfersAt } from '../../../ledger/aft-queries.js';
import { SasHost, type HostIo } from '../host/host.js';
import { openPtyHost, ptyPair } from '../host/io.js';
import * as A from '../host/aft.js';
import * as P from '../host/polls.js';
import { ADDRESS, ASSET, type KillArm, type KillPoint, KILL_POINTS, STATION, startAftStation } from './setup.js';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'station-child.ts');
const AFT_COMPLETE = 0x69; // Table A-1
const POWER_APPLIED = 0x17;
const ACCOUNT = 1_000_000;
const SEED_IN = 100_000;

export type Direction = 'in' | 'out';
export type Policy = 'retry' | 'give-up';
export interface Trial {
  direction: Direction;
  point: KillPoint;
  policy: Policy;
}
export interface TrialResult extends Trial {
  outcome: 'complete' | 'refused';
  violations: string[];
  ms: number;
}

/** Every trial: each direction at each kill point; the policy matters only where the station may have nothing to report. */
export function allTrials(): Trial[] {
  const out: Trial[] = [];
  for (const direction of ['in', 'out'] as const)
    for (const point of KILL_POINTS)
      for (const policy of point === 'before-commit' ? (['retry', 'give-up'] as const) : (['retry'] as const)) out.push({ direction, point, policy });
  return out;
}

const Ready = z.object({ kind: z.literal('ready') });

/** The station's first life: a process of its own, for the SIGKILL. */
class Station {
  readonly exited: Promise<void>;
  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  static async start(dataDir: string, machinePty: string, arm: KillArm | null): Promise<Station> {
    const args = ['--import', 'tsx', CHILD, dataDir, machinePty, ...(arm ? [JSON.stringify(arm)] : [])];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const s = new Station(child);
    let ready = false;
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('exit', (code, signal) => {
          if (!ready) reject(new Error(`the station exited before it was ready (${code ?? signal})`));
        });
        const stdout = child.stdout;
        if (!stdout) return reject(new Error('no stdout'));
        createInterface({ input: stdout }).on('line', (text) => {
          Ready.parse(JSON.parse(text));
          ready = true;
          resolve();
        });
      });
    } catch (e) {
      await s.kill();
      throw e;
    }
    return s;
  }

  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** The casino system's side of one trial: the player's account, and every exception it acknowledged. */
class System {
  account = ACCOUNT;
  /** Exceptions read and then acknowledged by a following poll to the same live station. */
  readonly acked: number[] = [];
  constructor(readonly h: SasHost) {}

  /** After a start the machine opens its port a moment later: one poll with a long window. */
  async sync(): Promise<void> {
    for (let i = 0; i < 10; i++) {
      await this.h.pollOther();
      const a = await this.h.exchange([0x80 | ADDRESS], 1, 2_000);
      if (a?.[0] === 0) return;
      // An exception read here is acknowledged by the next poll (the loop's, or drain's).
      if (a?.[0] !== undefined) return void (await this.drain(a[0]));
    }
    throw new Error('the station never answered a general poll');
  }

  /** General polls until the station has nothing; every code read is acknowledged by the poll after it. */
  async drain(first?: number): Promise<void> {
    let code = first ?? (await this.h.generalPoll());
    for (let i = 0; code !== 0 && i < 40; i++) {
      const next = await this.h.generalPoll();
      this.acked.push(code);
      code = next;
    }
  }

  /** General polls until 69 is read, not acknowledged (the caller kills the station before the next poll). */
  async read69(): Promise<void> {
    for (let i = 0; i < 40; i++) {
      const code = await this.h.generalPoll();
      if (code === AFT_COMPLETE) return;
      if (code !== 0) this.acked.push(code);
    }
    throw new Error('exception 69 never came');
  }
}

const ask = (direction: Direction, id: string, cashable: number): A.TransferAsk => ({ type: direction === 'in' ? 0x00 : 0x80, cashable, asset: ASSET, id });
const count = (xs: readonly number[], x: number): number => xs.filter((y) => y === x).length;

export async function runTrial(t: Trial): Promise<TrialResult> {
  const t0 = Date.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-aft-kill-'));
  const dataDir = path.join(dir, 'data');
  const violations: string[] = [];
  const pair = await ptyPair(dir);
  let io: HostIo | null = null;
  let station: Station | null = null;
  let running: RunningHost | null = null;
  // 1–20 printable characters (§8: the transaction id).
  const id = `K-${t.direction}-${KILL_POINTS.indexOf(t.point)}-${t.policy}`;
  const amount = t.direction === 'in' ? 30_000 : 40_000;
  try {
    const arm: KillArm | null = t.point === 'before-commit' || t.point === 'after-commit' ? { at: t.point, id } : null;
    station = await Station.start(dataDir, pair.machine, arm);
    io = await openPtyHost(pair.host);
    const sys = new System(new SasHost(io, ADDRESS, { answerTimeoutMs: 1_000 }));
    await sys.sync();
    // Credit to take out: a transfer in first, not killed.
    let completed = 0;
    if (t.direction === 'out') {
      const seed = await A.transfer72(sys.h, ask('in', 'SEED-IN', SEED_IN));
      if (seed.status !== 0x00) throw new Error(`the seed transfer was not complete (${seed.status})`);
      sys.account -= SEED_IN;
      completed++;
      await sys.drain();
    }
    // The transfer, and the kill at its point.
    const bytes = A.transfer72Bytes(ADDRESS, ask(t.direction, id, amount));
    if (arm) {
      // Unanswered, the system sends the same poll again (the implied NACK, §3.2): on a loaded
      // machine a 0x72 written across a pty can stall past the 5 ms between bytes (§2.3.2) and be
      // dropped unheard, so the first may never reach the station's journal.
      let dead = false;
      void station.exited.then(() => (dead = true));
      await sys.h.pollOther();
      for (let attempt = 0; !dead && attempt < 4; attempt++) {
        const answered = await sys.h.exchange(bytes, 'variable', 3_000);
        if (answered) violations.push(`answered though killed: ${answered.map((b) => b.toString(16)).join(' ')}`);
        if (!dead) await Promise.race([station.exited, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      }
      if (!dead) throw new Error(`the armed station did not die: ${violations.join('; ')}`);
    } else {
      const first = A.read72(await sys.h.poll(bytes, 'variable'));
      if (first.status !== 0x00) violations.push(`the transfer was answered ${first.status.toString(16)}, not complete`);
      if (t.point === 'after-69-read') await sys.read69();
      if (t.point === 'after-69-acked') await sys.drain();
      await station.kill();
    }
    // The restart, in this process (the modules are loaded: a second child would only cost time).
    running = await startAftStation(dataDir, pair.machine);
    await sys.sync();
    await meters1CMatch(violations, 'after the restart', sys.h, running);
    // The system's recovery: what the station says of the current transaction, then the policy.
    const now = await A.interrogate72(sys.h, 0x00);
    let outcome: TrialResult['outcome'];
    if (now.id === id && (now.status === 0x00 || now.status === 0x01)) outcome = 'complete';
    else if (t.policy === 'retry') {
      const again = await A.transfer72(sys.h, ask(t.direction, id, amount));
      outcome = again.status === 0x00 ? 'complete' : 'refused';
      if (outcome === 'refused') violations.push(`the retry was refused (${again.status.toString(16)})`);
    } else outcome = 'refused';
    if (outcome === 'complete') {
      completed++;
      sys.account += t.direction === 'in' ? -amount : amount;
    }
    // A confused system sends a completed transfer's id again: nothing moves (81, not unique).
    if (outcome === 'complete') {
      const dup = await A.transfer72(sys.h, ask(t.direction, id, amount));
      if (dup.status !== 0x81) violations.push(`the same id after completion answered ${dup.status.toString(16)}, not 81`);
    }
    await sys.drain();
    const r = reportOf(running, id);
    const credit = t.direction === 'in' ? (outcome === 'complete' ? amount : 0) : SEED_IN - (outcome === 'complete' ? amount : 0);
    const aftSas = await P.selected2F(sys.h, [0xa0, 0xa1, 0xb8, 0xb9]);
    const v = (k: string): number => r.meters[k] ?? 0;
    check(violations, 'journal entries of the transfer', r.entries, outcome === 'complete' ? 1 : 0);
    check(violations, 'station credit', r.credit, credit);
    check(violations, 'account + credit', sys.account + r.credit, ACCOUNT);
    check(violations, '69 acknowledged', count(sys.acked, AFT_COMPLETE), completed);
    check(violations, '17 acknowledged (one per start)', count(sys.acked, POWER_APPLIED), 2);
    check(violations, 'SAS A0 = aftInAmount', aftSas.get(0xa0) ?? -1, v('aftInAmount'));
    check(violations, 'SAS A1 = aftIn', aftSas.get(0xa1) ?? -1, v('aftIn'));
    check(violations, 'SAS B8 = aftOutAmount', aftSas.get(0xb8) ?? -1, v('aftOutAmount'));
    check(violations, 'SAS B9 = aftOut', aftSas.get(0xb9) ?? -1, v('aftOut'));
    await meters1CMatch(violations, 'at the end', sys.h, running);
    return { ...t, outcome, violations, ms: Date.now() - t0 };
  } finally {
    await station?.kill();
    await running?.close();
    await io?.close();
    pair.socat.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The station's credit, its journal's transfers with the system's id (payloads, not the ledger's key: money moved twice under another key would show), its meters. */
function reportOf(running: RunningHost, id: string): { credit: number; entries: number; meters: Record<string, number> } {
  const l = running.ledger;
  const entries = aftTransfersAt(l, STATION, 0, 10_000).filter((t) => t.payload.transactionId === id).length;
  return { credit: l.credit(STATION), entries, meters: l.meters(`station:${STATION}`) };
}

/** 0x1C as the host simulator reads it beside the ledger's meters of the station (the meter map, docs/sas.md). */
async function meters1CMatch(out: string[], when: string, h: SasHost, running: RunningHost): Promise<void> {
  const m = running.ledger.meters(`station:${STATION}`);
  const v = (name: string): number => m[name] ?? 0;
  const got = await P.meters1C(h);
  const want = {
    coinIn: v('creditsWagered'),
    coinOut: v('creditsWon'),
    drop: v('totalIn'),
    jackpot: v('jackpotHandpays'),
    gamesPlayed: v('gamesPlayed'),
    gamesWon: v('gamesWon'),
    slotDoorOpened: v('doorOpens'),
    powerResets: running.ledger.meters('table').powerResets ?? 0,
  };
  if (JSON.stringify(got) !== JSON.stringify(want)) out.push(`0x1C ${when}: ${JSON.stringify(got)}, the ledger's ${JSON.stringify(want)}`);
}

function check(out: string[], what: string, got: number, want: number): void {
  if (got !== want) out.push(`${what}: ${got}, expected ${want}`);
}

export function describeTrial(r: TrialResult): string {
  return `${r.direction} killed ${r.point} (${r.policy}): ${r.outcome}, ${r.ms} ms${r.violations.length ? ` — ${r.violations.join('; ')}` : ''}`;
}
