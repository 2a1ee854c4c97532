// The parts of a ticket run's steps that wait for nothing: what a step draws and does before (or
// instead of) a call to a table's host. The calls themselves are awaited in simulateTickets, one
// async function, so that the held answers running in the background meet the run's draws exactly
// where they always did and a seed replays the same trace.
import { validationNumber } from '../../../terms/validation-number.js';
import { STATIONS, type TableSite, type TicketFloor } from './floor.js';
import { chance, fault, note, type TicketRun } from './ticket-run.js';

/** A note's amount, drawn. */
export function noteAmount(run: TicketRun): number {
  return [10_000, 50_000, 100_000][run.rng.below(3)] ?? 10_000;
}

/** The player takes the paper in the station's chute. */
export function takePaper(run: TicketRun, floor: TicketFloor, s: TableSite, st: number): void {
  const taken = floor.take(s, st);
  if (taken.length > 0) note(run, `took ${taken.join(',')} from ${s.name}/${st}`);
}

/** A ticket from the wallet (sometimes one already paid, kept as a copy), or a forged one now and then; none when the wallet is empty. */
export function walletTicket(run: TicketRun, floor: TicketFloor): { readonly n: string; readonly forged: boolean } | undefined {
  const { rng } = run;
  const forged = chance(rng, 0.05);
  const n = forged ? validationNumber(900 + rng.below(9), 1 + rng.below(50)) : floor.wallet[rng.below(Math.max(1, floor.wallet.length))];
  return n === undefined ? undefined : { n, forged };
}

/**
 * The same ticket for two tables at the same moment: a second copy (printed twice, or a photocopy
 * of the barcode) put in the wallet unless there is one; none when the wallet is empty.
 */
export function secondCopy(run: TicketRun, floor: TicketFloor, s: TableSite): { readonly n: string; readonly other: TableSite } | undefined {
  const n = floor.wallet[run.rng.below(Math.max(1, floor.wallet.length))];
  const other = floor.sites.find((x) => x !== s);
  if (n === undefined || !other) return undefined;
  if (floor.wallet.filter((x) => x === n).length < 2) {
    floor.wallet.push(n);
    fault(run, 'ticket photocopied');
  }
  return { n, other };
}

/** A step of the floor's own (a draw `r` of 80 to 99): a sync, held answers delivered late, a jam cleared, a kill armed ahead. */
export function floorChore(run: TicketRun, floor: TicketFloor, r: number, s: TableSite, st: number): void {
  if (r < 87) floor.sync(s);
  else if (r < 93) {
    const n = floor.held.release();
    if (n > 0) note(run, `${n} held answer(s) delivered late`);
  } else if (r < 96) floor.clearJam(s, st);
  else if (r < 100) armKillAhead(run, s);
}

/** A kill armed a few writes ahead on a live host: it lands wherever the host is by then. */
function armKillAhead(run: TicketRun, s: TableSite): void {
  if (run.calm || run.kills >= run.maxKills || !(run.swarm.rates.kill > 0) || !s.host) return;
  run.kills++;
  const after = 1 + run.rng.below(4);
  const committed = chance(run.rng, 0.5);
  s.host.faulty.armKill(after, committed);
  note(run, `armed kill on ${s.name} at its write +${after} ${committed ? 'after' : 'before'} commit`);
}

/** The end begins: the faults stop, held answers arrive, every journal reaches the authority, the players take their paper. */
export function stopFaults(run: TicketRun, floor: TicketFloor): void {
  run.calm = true;
  floor.disarm();
  floor.held.release();
  for (const s of floor.sites) {
    floor.sync(s);
    for (const st of STATIONS) floor.take(s, st);
  }
}
