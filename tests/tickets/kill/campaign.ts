// The ticket kill campaign at the operating system's level (issue 47: "a kill at every journal
// step of issue and of redemption"; docs/tito.md, "Tests and figures"). A real table host process
// (./host-child.ts: startHost, its TCL printer and ID-003 acceptors over TCP to simulators that
// live here, as a real printer and acceptor outlive their host) is SIGKILLed at one point of a
// ticket's life (setup.ts, KILL_POINTS), started again on its data folder (in this process: the
// restart that recovers, the printer asked about its last ticket, the acceptors reset), and the
// player goes on: presents the ticket they hold (again, if it came back), then once more. What
// must hold, whatever the kill:
//   - 0 lost: the note's value is on the stations' meters or on a printed ticket not yet paid;
//   - 0 paid twice: one `ticket.redeem.stacked` at most per number, as many as the acceptor stacked;
//   - never both printed and given back: a number journalled void never came out of the printer
//     whole, and one journalled printed did;
//   - the ledger's GLI-11 ticket meters (ticketsOut/ticketsIn, counts and amounts) equal the journal's
//     ends and the devices' truth; the ledger verifies;
//   - the upstream's ticket row ends as the journal says (printed, voided, or redeemed at station 2).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { Id003Simulator } from '../../../hardware/billacceptor/id003/simulator.js';
import { TclPrinterSimulator } from '../../../hardware/printer/simulator.js';
import { serveDevice, type DeviceServer } from '../../../hardware/sim/tcp-server.js';
import type { RunningHost } from '../../../host/start-host.js';
import { credentialsFile, verifyLedger, type Ledger } from '../../../ledger/index.js';
import { ticketInEscrow, ticketsInPrint } from '../../../ledger/ticket-queries.js';
import { enrolTerminal, migrateUpstream, openPglite, startUpstream, type Db } from '../../../upstream/index.js';
import { ticketByNumber } from '../../../upstream/ticket-queries.js';
import { machineIdOf } from '../../../upstream/tickets.js';
import { bundledChild } from '../../children/bundle.js';
import { ARMS, CASHIER, KILL_POINTS, NOTE, NOTE_MINOR, REDEEMER, startTicketHost, ticketKillConfig, type KillPoint, type Ports } from './setup.js';

export { KILL_POINTS, type KillPoint } from './setup.js';

const CHILD = 'tests/tickets/kill/host-child.ts';
const REDEMPTION: readonly KillPoint[] = ['escrow-asking', 'approved-not-stacked', 'stacked-not-credited'];

export interface TrialResult {
  point: KillPoint;
  /** What the ticket ended as in the journal after the restart: printed (and then redeemed or not), voided, or still in print. */
  ended: 'redeemed' | 'printed' | 'voided' | 'in-print' | 'none';
  /** The upstream's row at the end. */
  upstream: string;
  violations: string[];
  ms: number;
  /**
   * Set when the cash-out became a handpay before any ticket step (the host found the printer or
   * its number not ready in time: on a loaded machine, an answer over the loopback can come late):
   * the trial tested nothing, and `runTicketedTrial` runs it again.
   */
  untested?: string;
}

/** Trials of one point run again while one tests nothing (a handpay), at most `attempts` in all; the last is returned. */
export async function runTicketedTrial(point: KillPoint, attempts = 3, progress?: (s: string) => void): Promise<TrialResult> {
  let r = await runTrial(point);
  for (let i = 1; i < attempts && r.untested !== undefined; i++) {
    progress?.(`${point}: ${r.untested}; run again (${i + 1} of ${attempts})`);
    r = await runTrial(point);
  }
  return r;
}

const Line = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('wrote'), types: z.array(z.string()), notes: z.array(z.string()).optional() }),
  z.object({ kind: z.literal('answer'), outcome: z.unknown() }),
]);

/** The host's first life: a process of its own, for the SIGKILL. */
class HostChild {
  readonly written: string[] = [];
  /** Each entry written, with its note (a ticket step's attempt and reason, a fault's kind): what a failed trial says. */
  readonly told: string[] = [];
  readonly answers: string[] = [];
  readonly exited: Promise<void>;
  private readonly waiters = new Set<() => void>();
  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    void this.exited.then(() => this.poke());
  }

  static async start(args: string[]): Promise<HostChild> {
    const file = await bundledChild(CHILD);
    const child = spawn(process.execPath, [file, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    const h = new HostChild(child);
    const stdout = child.stdout;
    if (!stdout) throw new Error('no stdout');
    let ready = false;
    createInterface({ input: stdout }).on('line', (text) => {
      const line = Line.safeParse(JSON.parse(text));
      if (!line.success) return;
      if (line.data.kind === 'ready') ready = true;
      else if (line.data.kind === 'wrote') {
        h.written.push(...line.data.types);
        const notes = line.data.notes ?? [];
        h.told.push(...line.data.types.map((t, i) => (notes[i] ? `${t} (${notes[i]})` : t)));
      } else h.answers.push(JSON.stringify(line.data.outcome));
      h.poke();
    });
    await h.until(() => ready, 120_000, 'the host child ready');
    return h;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  send(line: unknown): void {
    this.child.stdin?.write(`${JSON.stringify(line)}\n`);
  }

  /** Waits for `ok` (checked on each line and at exit); throws after `ms` or when the child died first. */
  async until(ok: () => boolean, ms: number, what: string, orDeath = false): Promise<void> {
    const t0 = Date.now();
    while (!ok()) {
      if (!this.alive) {
        if (orDeath) return;
        throw new Error(`the host child died waiting for ${what}`);
      }
      if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what} (journalled ${this.told.join(', ')}; answered ${this.answers.join(', ')})`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 20);
        this.waiters.add(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async kill(): Promise<void> {
    if (this.alive) this.child.kill('SIGKILL');
    await this.exited;
  }

  private poke(): void {
    for (const w of [...this.waiters]) w();
    this.waiters.clear();
  }
}

async function until(ok: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!(await ok())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Rig {
  work: string;
  dataDir: string;
  db: Db;
  url: string;
  printer: TclPrinterSimulator;
  cashier: Id003Simulator;
  redeemer: Id003Simulator;
  servers: DeviceServer[];
  ports: Ports;
  close(): Promise<void>;
}

async function rig(): Promise<Rig> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'ticket-kill-'));
  const dataDir = path.join(work, 'table');
  mkdirSync(dataDir, { recursive: true });
  const printer = new TclPrinterSimulator();
  const cashier = new Id003Simulator({ currency: 'MOP' });
  const redeemer = new Id003Simulator({ currency: 'MOP' });
  const servers = [await serveDevice(printer), await serveDevice(cashier), await serveDevice(redeemer)];
  const [p, a1, a2] = servers;
  if (!p || !a1 || !a2) throw new Error('three device servers');
  const db = await openPglite();
  await migrateUpstream(db);
  const up = await startUpstream({ db, limits: { tickets: 1_000_000, ingest: 1_000_000, ticketRefusals: 1_000_000 }, backoffice: false, logger: false });
  const terminal = ticketKillConfig({ printer: p.port, cashierAcceptor: a1.port, redeemerAcceptor: a2.port, machineId: 1 }).tableId;
  const c = await enrolTerminal(db, terminal);
  // The id the table's configuration names (the lower half: terms/validation-number.ts), claimed at the upstream for it.
  const ports: Ports = { printer: p.port, cashierAcceptor: a1.port, redeemerAcceptor: a2.port, machineId: await machineIdOf(db, terminal, 1) };
  writeFileSync(credentialsFile(dataDir), JSON.stringify({ terminalId: c.terminalId, key: c.key, receiptKey: c.receiptKey, upstream: up.url }), {
    mode: 0o600,
  });
  return {
    work,
    dataDir,
    db,
    url: up.url,
    printer,
    cashier,
    redeemer,
    servers,
    ports,
    close: async () => {
      await up.close();
      await db.close();
      for (const s of servers) await s.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

interface TicketEnd {
  validation: string;
  amount: number;
  ends: string[];
  stacked: number;
}

/** Each ticket of the journal: its number, amount, its ends (printed/void) and how many times it was stacked. */
function ticketsOf(l: Ledger): Map<string, TicketEnd> {
  const out = new Map<string, TicketEnd>();
  const Body = z.object({ payload: z.object({ validation: z.string(), amount: z.number().optional() }) });
  for (const e of l.entries()) {
    if (!e.type.startsWith('ticket.')) continue;
    const p = Body.safeParse(JSON.parse(e.body)).data?.payload;
    if (!p) continue;
    const t = out.get(p.validation) ?? { validation: p.validation, amount: 0, ends: [], stacked: 0 };
    if (e.type === 'ticket.issue') t.amount = p.amount ?? 0;
    if (e.type === 'ticket.printed' || e.type === 'ticket.void') t.ends.push(e.type);
    if (e.type === 'ticket.redeem.stacked') t.stacked++;
    out.set(p.validation, t);
  }
  return out;
}

/** The player's ticket: the whole ticket out of the printer, not yet in an acceptor's cashbox. */
function heldPaper(r: Rig): string[] {
  const stacked = [...r.redeemer.ticketsStacked, ...r.cashier.ticketsStacked];
  return r.printer.paper.filter((p) => p.whole && p.barcodeComplete && !stacked.includes(p.barcode)).map((p) => p.barcode);
}

/** Inserts a ticket at station 2 and waits for its attempt to end in the host's journal. */
async function present(r: Rig, host: RunningHost, barcode: string): Promise<void> {
  const before = r.redeemer.ticketsStacked.length + r.redeemer.ticketsReturned.length;
  r.redeemer.insertTicket(barcode);
  await until(() => r.redeemer.ticketsStacked.length + r.redeemer.ticketsReturned.length > before, 30_000, `ticket …${barcode.slice(-4)} stacked or returned`);
  await until(() => ticketInEscrow(host.ledger, REDEEMER) === null, 30_000, 'the attempt ended in the journal');
}

/** Whether the cash-out became a handpay before any ticket was journalled: the trial tests nothing. */
function handpaid(c: HostChild): boolean {
  return c.written.includes('credit.cancel') && !c.written.includes('ticket.issue');
}

function untestedTrial(point: KillPoint, c: HostChild, t0: number): TrialResult {
  const untested = `the cash-out became a handpay, not a ticket: the trial tested nothing (journalled ${c.told.join(', ')}; answered ${c.answers.join(', ')})`;
  return { point, ended: 'none', upstream: '?', violations: [untested], untested, ms: Date.now() - t0 };
}

/** One trial: a fresh table, upstream and devices; the ticket's life killed at `point`. */
export async function runTrial(point: KillPoint): Promise<TrialResult> {
  const t0 = Date.now();
  const r = await rig();
  const violations: string[] = [];
  let host: RunningHost | null = null;
  let child: HostChild | null = null;
  try {
    const arm = ARMS[point];
    child = await HostChild.start([r.dataDir, JSON.stringify(r.ports), r.url, ...(arm ? [JSON.stringify(arm)] : [])]);
    const c = child;
    // The player's note, credited at station 1.
    r.cashier.insertNote(NOTE);
    await c.until(() => c.written.includes('bill.credit'), 60_000, 'the note credited');
    await until(() => !r.printer.busy && r.printer.powered, 5_000, 'the printer idle');
    c.send({ kind: 'cash-out', station: CASHIER });
    if (point === 'printing') {
      await until(() => r.printer.busy || !c.alive, 60_000, 'the printer printing');
      await c.kill();
    } else if (REDEMPTION.includes(point)) {
      await c.until(() => c.written.includes('ticket.printed') || handpaid(c), 60_000, 'the ticket printed');
      if (handpaid(c)) return untestedTrial(point, c, t0);
      const [barcode] = heldPaper(r);
      if (!barcode) throw new Error('no ticket came out of the printer');
      r.printer.takeTicket();
      r.redeemer.insertTicket(barcode);
    }
    await c.until(() => !c.alive || c.written.includes('credit.cancel'), 240_000, `the host's death at ${point}`);
    if (c.alive) return untestedTrial(point, c, t0);
    await c.exited;
    // The restart, on the same data folder and devices.
    host = await startTicketHost(r.dataDir, r.ports, r.url);
    const h = host;
    await until(() => ticketsInPrint(h.ledger).length === 0 && ticketInEscrow(h.ledger, REDEEMER) === null, 60_000, 'the restart resolved the ticket');
    r.printer.takeTicket();
    // The player goes on: presents what they hold (it may have come back), then the same paper once more.
    for (const barcode of heldPaper(r)) await present(r, h, barcode);
    for (const p of r.printer.paper.filter((x) => x.whole && x.barcodeComplete)) await present(r, h, p.barcode);
    const sync = h.sync;
    await until(
      () => {
        const s = sync?.status();
        return s !== undefined && s.ackedSeq >= s.headSeq;
      },
      60_000,
      'the journal synced',
    );
    const verdict = await check(r, h.ledger, violations);
    return { point, ...verdict, violations, ms: Date.now() - t0 };
  } catch (e) {
    violations.push(e instanceof Error ? e.message : String(e));
    return { point, ended: 'none', upstream: '?', violations, ms: Date.now() - t0 };
  } finally {
    await child?.kill();
    await host?.close();
    await r.close();
  }
}

async function check(r: Rig, l: Ledger, v: string[]): Promise<{ ended: TrialResult['ended']; upstream: string }> {
  const tickets = [...ticketsOf(l).values()];
  if (tickets.length > 1) v.push(`${tickets.length} tickets issued for one cash-out`);
  const paper = r.printer.paper.filter((p) => p.whole && p.barcodeComplete).map((p) => p.barcode);
  let onPaper = 0;
  let printedAmount = 0;
  let redeemedAmount = 0;
  let ended: TrialResult['ended'] = 'none';
  let upstream = 'none';
  for (const t of tickets) {
    const last4 = `…${t.validation.slice(-4)}`;
    if (t.ends.length !== 1) v.push(`${last4}: ${t.ends.length} ends (${t.ends.join(', ')})`);
    const printed = t.ends[0] === 'ticket.printed';
    const out = paper.filter((b) => b === t.validation).length;
    if (printed && out !== 1) v.push(`${last4}: journalled printed, ${out} whole tickets out of the printer`);
    if (t.ends[0] === 'ticket.void' && out > 0) v.push(`${last4}: journalled void (the credit given back) and printed: both printed and given back`);
    if (t.stacked > 1) v.push(`${last4}: paid ${t.stacked} times`);
    const inCashbox = r.redeemer.ticketsStacked.filter((b) => b === t.validation).length;
    if (inCashbox !== t.stacked) v.push(`${last4}: the acceptor stacked it ${inCashbox} times, the journal credited ${t.stacked}`);
    if (printed) printedAmount += t.amount;
    if (t.stacked > 0) redeemedAmount += t.amount;
    if (printed && t.stacked === 0) onPaper += t.amount;
    ended = t.stacked > 0 ? 'redeemed' : printed ? 'printed' : t.ends[0] === 'ticket.void' ? 'voided' : 'in-print';
    const row = (await ticketByNumber(r.db, t.validation)).ticket;
    upstream = row ? `${row.state}${row.state === 'redeemed' && row.redemption ? ` at station ${row.redemption.station}` : ''}` : 'none';
    const want = ended === 'redeemed' ? `redeemed at station ${REDEEMER}` : ended === 'voided' ? 'voided' : ended === 'printed' ? 'printed' : 'issued';
    if (upstream !== want) v.push(`${last4}: the upstream's row is ${upstream}, the journal says ${want}`);
  }
  const credits = l.credit(CASHIER) + l.credit(REDEEMER);
  if (credits + onPaper !== NOTE_MINOR) v.push(`money: ${credits} on the meters + ${onPaper} on paper unpaid ≠ ${NOTE_MINOR} put in`);
  const m1 = l.meters(`station:${CASHIER}`);
  const m2 = l.meters(`station:${REDEEMER}`);
  const count = (a: number | undefined) => a ?? 0;
  if (count(m1.ticketsOutAmount) !== printedAmount) v.push(`meters: ticketsOutAmount ${count(m1.ticketsOutAmount)}, printed ${printedAmount}`);
  if (count(m1.ticketsOut) !== tickets.filter((t) => t.ends[0] === 'ticket.printed').length) v.push(`meters: ticketsOut ${count(m1.ticketsOut)}`);
  if (count(m2.ticketsInAmount) !== redeemedAmount) v.push(`meters: ticketsInAmount ${count(m2.ticketsInAmount)}, redeemed ${redeemedAmount}`);
  if (count(m2.ticketsIn) !== tickets.filter((t) => t.stacked > 0).length) v.push(`meters: ticketsIn ${count(m2.ticketsIn)}`);
  for (const p of verifyLedger(l).problems) v.push(`verify: ${JSON.stringify(p)}`);
  return { ended, upstream };
}

export function describeTrial(t: TrialResult): string {
  return `${t.point}: ${t.ended}, upstream ${t.upstream}, ${(t.ms / 1000).toFixed(1)} s${t.violations.length ? `\n  ${t.violations.join('\n  ')}` : ''}`;
}

export async function runCampaign(points: readonly KillPoint[] = KILL_POINTS, progress?: (s: string) => void): Promise<TrialResult[]> {
  const out: TrialResult[] = [];
  for (const p of points) {
    const t = await runTicketedTrial(p, 3, progress);
    progress?.(describeTrial(t));
    out.push(t);
  }
  return out;
}
