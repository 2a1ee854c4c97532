import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Rng } from '../../engine/random/seeded-rng.js';
import { Ledger, verifyLedger } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { LedgerTransferJournal } from '../../host/transfers/ledger-journal.js';
import { reconcile, type PairedTransfer } from '../../terms/transfer-reconcile.js';
import { NodeLine, OPENING_CREDIT, STATIONS, type NodeAsk } from './node-wire.js';

// Two table hosts as processes (transfer-node.ts), each over its SQLite ledger, SIGKILLed at
// seeded moments — idle, or a few milliseconds after a command, so inside its append or between
// its append and its send — and started again from their ledgers, while this process carries
// their messages and loses, repeats and reorders them. At the end the links heal; then both
// ledgers are opened here and checked: every transfer closed once, the reconciliation names
// nothing, the money across the two is what was put in, the settlements mirror, both verify.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TABLES = [TableId.parse('home'), TableId.parse('war')] as const;

export interface KillTrialOptions {
  readonly seed: number;
  readonly steps: number;
}

export interface KillTrialResult {
  sigkills: number;
  /** Of those, how many struck with a command in flight. */
  midCommand: number;
  started: number;
  refusedStarts: number;
  delivered: number;
  dropped: number;
  duplicated: number;
  completed: number;
  reversed: number;
  transfers: readonly PairedTransfer[];
  credits: number;
  opening: number;
  settlements: [number, number];
  problems: string[];
  alarms: string[];
}

class Node {
  private child: ChildProcess | null = null;
  private n = 0;
  private readonly waiting = new Map<number, (line: Extract<NodeLine, { kind: 'done' }> | null) => void>();

  constructor(
    readonly table: TableId,
    private readonly dir: string,
    private readonly entry: string,
    private readonly onSend: (to: string, message: unknown) => void,
    private readonly onAlarm: (a: string) => void,
  ) {}

  get alive(): boolean {
    return this.child !== null;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [this.entry, this.dir, this.table], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.child = child;
    const ready = new Promise<void>((resolve, reject) => {
      child.once('exit', (code, signal) => reject(new Error(`${this.table} exited before ready (${code ?? signal})`)));
      const stdout = child.stdout;
      if (!stdout) return reject(new Error('no stdout'));
      createInterface({ input: stdout }).on('line', (text) => {
        const line = NodeLine.parse(JSON.parse(text));
        if (line.kind === 'ready') resolve();
        else if (line.kind === 'send') this.onSend(line.to, line.message);
        else if (line.kind === 'alarm') this.onAlarm(`${this.table}: ${line.reason} ${line.detail}`);
        else {
          this.waiting.get(line.n)?.(line);
          this.waiting.delete(line.n);
        }
      });
    });
    child.once('exit', () => {
      if (this.child === child) this.child = null;
      for (const w of this.waiting.values()) w(null);
      this.waiting.clear();
    });
    await ready;
  }

  /** Sends a command; resolves with its answer, or null if the process died first. */
  ask(c: NodeAsk): Promise<Extract<NodeLine, { kind: 'done' }> | null> {
    const child = this.child;
    if (!child?.stdin) return Promise.resolve(null);
    const n = ++this.n;
    const answer = new Promise<Extract<NodeLine, { kind: 'done' }> | null>((resolve) => this.waiting.set(n, resolve));
    child.stdin.write(`${JSON.stringify({ ...c, n })}\n`);
    return answer;
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await gone;
  }
}

/** The node bundled once (a child then starts without compiling TypeScript). */
export async function bundleNode(dir: string): Promise<string> {
  const outfile = path.join(dir, 'transfer-node.mjs');
  await build({
    entryPoints: [path.join(root, 'tests/transfers/transfer-node.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    logLevel: 'warning',
    absWorkingDir: root,
  });
  return outfile;
}

function journalOf(l: Ledger) {
  return [...new LedgerTransferJournal(l).entries()];
}

export async function runKillTrial(o: KillTrialOptions): Promise<KillTrialResult> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'transfer-kill-'));
  // The bundle imports its packages from the repository's node_modules: it must sit inside it.
  const cache = path.join(root, 'node_modules/.cache/etg-transfer-trial');
  mkdirSync(cache, { recursive: true });
  const entry = await bundleNode(mkdtempSync(path.join(cache, 'b-')));
  const rng = Rng.fromSeed(o.seed);
  const wire: { from: TableId; to: string; message: unknown }[] = [];
  const r: KillTrialResult = {
    sigkills: 0,
    midCommand: 0,
    started: 0,
    refusedStarts: 0,
    delivered: 0,
    dropped: 0,
    duplicated: 0,
    completed: 0,
    reversed: 0,
    transfers: [],
    credits: 0,
    opening: STATIONS.length * OPENING_CREDIT,
    settlements: [0, 0],
    problems: [],
    alarms: [],
  };
  const nodes = TABLES.map(
    (t) =>
      new Node(
        t,
        path.join(work, t),
        entry,
        (to, message) => wire.push({ from: t, to, message }),
        (a) => r.alarms.push(a),
      ),
  );
  try {
    for (const n of nodes) await n.start();
    for (let i = 0; i < o.steps; i++) {
      const node = nodes[rng.below(nodes.length)];
      const other = nodes.find((n) => n !== node);
      if (!node || !other) continue;
      if (!node.alive) {
        await node.start();
        continue;
      }
      const roll = rng.below(100);
      let ask: NodeAsk | null = null;
      let target = node;
      if (roll < 22) ask = { kind: 'start', station: STATIONS[rng.below(STATIONS.length)] ?? 1, to: other.table, amount: 1 + rng.below(4_000) };
      else if (roll < 60 && wire.length) {
        const [w] = wire.splice(rng.below(wire.length), 1);
        const to = nodes.find((n) => n.table === w?.to);
        if (w && to?.alive) {
          ask = { kind: 'receive', link: w.from, message: w.message };
          target = to;
          r.delivered++;
        }
      } else if (roll < 66 && wire.length) {
        wire.splice(rng.below(wire.length), 1);
        r.dropped++;
      } else if (roll < 71 && wire.length) {
        const w = wire[rng.below(wire.length)];
        if (w) wire.push(w);
        r.duplicated++;
      } else if (roll < 82) ask = { kind: 'tick' };
      else if (roll < 87) ask = { kind: 'recall' };
      else {
        // A SIGKILL: idle, or with the command just sent still being worked (inside its append, or after it).
        if (rng.below(2) === 0 && wire.length) {
          const w = wire.shift();
          const to = nodes.find((n) => n.table === w?.to);
          if (w && to?.alive) {
            void to.ask({ kind: 'receive', link: w.from, message: w.message });
            await new Promise((res) => setTimeout(res, rng.below(4)));
            r.midCommand++;
            target = to;
          }
        }
        await target.kill();
        r.sigkills++;
        await target.start();
        continue;
      }
      if (ask) {
        const done = await target.ask(ask);
        if (ask.kind === 'start' && done) {
          if (done.refused) r.refusedStarts++;
          else r.started++;
        }
      }
    }
    // The links heal: both up, every message delivered, ticks until nothing is open.
    for (const n of nodes) if (!n.alive) await n.start();
    for (let round = 0; round < 20; round++) {
      let open = 0;
      for (const n of nodes) open += (await n.ask({ kind: 'tick' }))?.open ?? 0;
      while (wire.length) {
        const w = wire.shift();
        const to = nodes.find((n) => n.table === w?.to);
        if (w && to) await to.ask({ kind: 'receive', link: w.from, message: w.message });
      }
      if (open === 0) break;
    }
    for (const n of nodes) await n.ask({ kind: 'exit' });
    // The two ledgers, read here.
    const ledgers = TABLES.map((t) => Ledger.open({ dataDir: path.join(work, t), terminalId: t }));
    try {
      const journals = new Map<TableId, ReturnType<typeof journalOf>>();
      TABLES.forEach((t, i) => {
        const l = ledgers[i];
        if (l) journals.set(t, journalOf(l));
      });
      r.transfers = reconcile(journals);
      for (const p of r.transfers) {
        if (p.disagreements.length) r.problems.push(`${JSON.stringify(p.id)}: ${p.disagreements.join(', ')}`);
        if (p.sender === 'open') r.problems.push(`${JSON.stringify(p.id)} still open after the links healed`);
        if (p.sender === 'completed') r.completed++;
        if (p.sender === 'reversed') r.reversed++;
      }
      for (const l of ledgers) {
        for (const s of STATIONS) r.credits += l.credit(s);
        for (const p of verifyLedger(l).problems) r.problems.push(`verify: ${JSON.stringify(p)}`);
      }
      const [home, war] = ledgers;
      r.settlements = [home?.balance(`table:${TABLES[1]}:settlement`) ?? 0, war?.balance(`table:${TABLES[0]}:settlement`) ?? 0];
    } finally {
      for (const l of ledgers) l.close();
    }
    return r;
  } finally {
    for (const n of nodes) await n.kill();
    rmSync(work, { recursive: true, force: true });
    rmSync(path.dirname(entry), { recursive: true, force: true });
  }
}
