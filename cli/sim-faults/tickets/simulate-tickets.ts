import { Rng } from '../../../engine/random/seeded-rng.js';
import { validationNumber } from '../../../terms/validation-number.js';
import type { WriteFault } from '../faulty-ledger.js';
import { AUTHORITY_FAULTS, type AuthorityFault } from './authority-model.js';
import { STATIONS, TicketFloor, type TableSite } from './floor.js';
import { checkTickets, type TicketTally } from './invariants.js';
import { PRINTER_JOBS, type PrinterJob } from './printer-model.js';

// One seed, one run of a floor that prints and takes tickets under faults (issue 47), in the
// manner of simulate.ts: the seed draws which faults the run meets and how often (swarm testing),
// and every step. Faults: kills at the tables' journal writes (before or after the commit, at any
// start, recovery included); printers that jam, run out of paper, say printed when they jammed,
// print twice, or are printing when their host dies; an authority that answers late, never,
// twice, loses the request or the answer; acceptors' power-ups after each kill. Then the faults
// stop, every journal syncs, the players present every ticket they hold, and the invariants
// (invariants.ts) are checked.

export interface TicketSimOptions {
  seed: number;
  steps?: number;
  /** Tables of the floor (default 2). */
  tables?: number;
  maxKills?: number;
  /** The harness's own check: a flawed authority that approves a ticket already pending (it must be found). */
  flaw?: 'approve-pending';
}

export interface TicketSimResult {
  seed: number;
  steps: number;
  starts: number;
  kills: number;
  faults: Record<string, number>;
  tally: TicketTally;
  trace: string[];
  violations: string[];
}

export async function simulateTickets(o: TicketSimOptions): Promise<TicketSimResult> {
  const rng = Rng.fromSeed(o.seed ^ 0x7170);
  const chance = (p: number) => rng.below(1_000_000) < p * 1_000_000;
  const steps = o.steps ?? 200;
  const maxKills = o.maxKills ?? 12;
  const trace: string[] = [];
  const violations: string[] = [];
  const faults: Record<string, number> = {};
  let step = 0;
  const note = (s: string) => trace.push(`#${step} ${s}`);
  const fault = (k: string) => {
    faults[k] = (faults[k] ?? 0) + 1;
    note(`FAULT ${k}`);
  };
  const rate = (max: number) => (chance(0.7) ? (1 + rng.below(100)) * (max / 100) : 0);
  const rates = { kill: rate(0.9), printer: rate(0.5), link: rate(0.5) };
  const printerKinds = PRINTER_JOBS.filter((j) => j !== 'ok' && chance(0.8));
  const linkKinds = AUTHORITY_FAULTS.filter((f) => f !== 'ok' && chance(0.8));
  let calm = false;
  let kills = 0;
  note(`rates ${JSON.stringify(rates)}; printer ${printerKinds.join(',')}; link ${linkKinds.join(',')}`);

  const floor = new TicketFloor(
    o.tables ?? 2,
    {
      armed: (): WriteFault[] => {
        if (calm || kills >= maxKills || !chance(rates.kill)) return [];
        kills++;
        return [{ kind: 'kill', at: 1 + rng.below(30), committed: chance(0.5) }];
      },
      job: (): PrinterJob => {
        if (calm || printerKinds.length === 0 || !chance(rates.printer)) return 'ok';
        const j = printerKinds[rng.below(printerKinds.length)] ?? 'ok';
        fault(`printer ${j}`);
        return j;
      },
      link: (_table, call): AuthorityFault => {
        if (calm || linkKinds.length === 0 || !chance(rates.link)) return 'ok';
        const f = linkKinds[rng.below(linkKinds.length)] ?? 'ok';
        fault(`authority ${call} ${f}`);
        return f;
      },
      note,
      violated: (s) => {
        violations.push(`step ${step}: ${s}`);
        note(`VIOLATION ${s}`);
      },
    },
    o.flaw ?? null,
  );
  const site = (): TableSite => floor.sites[rng.below(floor.sites.length)] ?? (floor.sites[0] as TableSite);
  const station = () => STATIONS[rng.below(STATIONS.length)] ?? 1;
  try {
    await floor.open();
    for (step = 1; step <= steps; step++) {
      const r = rng.below(100);
      const s = site();
      const st = station();
      if (r < 22) await floor.insertNote(s, st, [10_000, 50_000, 100_000][rng.below(3)] ?? 10_000);
      else if (r < 42) note(`cash-out ${s.name}/${st}: ${await floor.cashOut(s, st)}`);
      else if (r < 55) {
        const taken = floor.take(s, st);
        if (taken.length > 0) note(`took ${taken.join(',')} from ${s.name}/${st}`);
      } else if (r < 77) {
        // A ticket from the wallet (sometimes one already paid, kept as a copy), or a forged one now and then.
        const forged = chance(0.05);
        const n = forged ? validationNumber(900 + rng.below(9), 1 + rng.below(50)) : floor.wallet[rng.below(Math.max(1, floor.wallet.length))];
        if (n !== undefined) note(`insert ${n}${forged ? ' (never issued)' : ''} at ${s.name}/${st}: ${await floor.insertTicket(s, st, n)}`);
      } else if (r < 80) {
        // The same ticket at two tables at the same moment: a second copy (printed twice, or a photocopy of the barcode).
        const n = floor.wallet[rng.below(Math.max(1, floor.wallet.length))];
        const other = floor.sites.find((x) => x !== s);
        if (n !== undefined && other) {
          if (floor.wallet.filter((x) => x === n).length < 2) {
            floor.wallet.push(n);
            fault('ticket photocopied');
          }
          const [a, b] = await Promise.all([floor.insertTicket(s, st, n), floor.insertTicket(other, station(), n)]);
          note(`insert ${n} at ${s.name} and ${other.name} at once: ${a}, ${b}`);
        }
      } else if (r < 87) floor.sync(s);
      else if (r < 93) {
        const n = floor.held.release();
        if (n > 0) note(`${n} held answer(s) delivered late`);
      } else if (r < 96) floor.clearJam(s, st);
      else if (r < 100) {
        // A kill armed a few writes ahead on a live host: it lands wherever the host is by then.
        if (!calm && kills < maxKills && rates.kill > 0 && s.host) {
          kills++;
          const after = 1 + rng.below(4);
          const committed = chance(0.5);
          s.host.faulty.armKill(after, committed);
          note(`armed kill on ${s.name} at its write +${after} ${committed ? 'after' : 'before'} commit`);
        }
      }
    }
    // The end: the faults stop, held answers arrive, every journal reaches the authority, the
    // players take their paper and present every ticket they hold, twice over.
    calm = true;
    floor.disarm();
    floor.held.release();
    for (const s of floor.sites) {
      floor.sync(s);
      for (const st of STATIONS) floor.take(s, st);
    }
    for (let pass = 0; pass < 2; pass++)
      for (const n of [...floor.wallet]) {
        const r = await floor.insertTicket(site(), station(), n);
        note(`last insert ${n}: ${r}`);
        for (const s of floor.sites) floor.sync(s);
      }
    const tally = checkTickets(floor, (s) => violations.push(`end: ${s}`));
    return {
      seed: o.seed,
      steps: step - 1,
      starts: floor.sites.reduce((a, s) => a + s.starts, 0),
      kills: floor.sites.reduce((a, s) => a + s.kills, 0),
      faults,
      tally,
      trace,
      violations,
    };
  } finally {
    await floor.close();
  }
}
