import { pendingOf } from '../../engine/table/queries.js';
import type { Spot } from '../../engine/table/vocabulary.js';
import type { TiltKind } from '../../host/tilts/tilt-kinds.js';
import { Killed } from './faulty-ledger.js';
import { ACE, chance, fault, note, shuffle, type SimRun } from './sim-run.js';

// What happens at a step of a fault simulation (cli/sim-faults/simulate.ts): the dealer's cards and
// the table's own course, players betting, notes, tilts, the sync client; each draw from the run's
// seeded generator, each fault counted and traced.

const TILTS: readonly { kind: TiltKind; station: boolean }[] = [
  { kind: 'bill-jam', station: true },
  { kind: 'stacker-full', station: true },
  { kind: 'shoe-lid-open', station: false },
  { kind: 'shoe-alarm', station: false },
];

/** The shoe sends its next card (or again the one it had no ACK for), through a garbled frame or a lost ACK. */
function dealCard<S, R>(run: SimRun<S, R>): void {
  if (run.unackedCard === null) {
    if (run.shoe.length === 0) shuffle(run);
    const card = run.shoe.pop() ?? ACE;
    run.unackedCard = { card, sequence: ++run.shoeSeq };
  }
  if (run.rates.cardGarbled > 0 && chance(run, run.rates.cardGarbled)) {
    // The frame reached the host garbled: its CRC fails, the driver drops it, the shoe sends it again.
    return fault(run, 'card-frame-garbled', `seq ${run.unackedCard.sequence}`);
  }
  const c = run.unackedCard;
  run.host.table.input({ kind: 'card', at: run.clock.wall(), card: c.card, sequence: c.sequence });
  if (run.host.faulty.killed) return; // died before the ACK: the shoe sends it again
  if (run.rates.cardAck > 0 && chance(run, run.rates.cardAck)) {
    fault(run, 'card-ack-lost', `seq ${c.sequence}`);
    // Sent again at once with its sequence: the table must not place it twice.
    run.host.table.input({ kind: 'card', at: run.clock.wall(), card: c.card, sequence: c.sequence });
    if (run.host.faulty.killed) return;
  }
  run.unackedCard = null;
}

/** The table's own course: a new shoe, a card, a decision (the `n`th legal one), a hold resolved, or time to the countdown's end. */
export function auto<S, R>(run: SimRun<S, R>, n: number): void {
  const table = run.host.table;
  const cue = table.reads.cue();
  const p = pendingOf(table.state, run.def);
  note(
    run,
    `auto: phase ${table.state.phase}, cue ${cue?.kind ?? 'none'}${p ? `, pending ${p.kind}` : ''}${table.state.hold ? `, hold ${table.state.hold.reason}` : ''}`,
  );
  if (cue?.kind === 'shuffle') {
    shuffle(run);
    run.unackedCard = null;
    table.shoe.onNewShoe(++run.shoeSeq);
  } else if (cue?.kind === 'card' || run.unackedCard !== null) dealCard(run);
  else if (p?.kind === 'decision') table.commands.decide(p.decider.kind === 'behind' ? p.decider.station : p.seat, p.legal[n % p.legal.length] ?? p.default);
  else if (table.state.hold) table.supervisor.voidRound('simulation: supervisor resolves the hold', ['sup-1', 'wit-2']);
  else if (table.reads.view().endsAt !== null) run.clock.advance(Math.max(0, (table.reads.view().endsAt ?? 0) - run.clock.wall()) + 1);
  else run.clock.advance(500);
}

/** A player at a random station bets, mostly the game's first (main) bet. */
export function bet<S, R>(run: SimRun<S, R>): void {
  const { def, rng, stations } = run;
  const station = stations[rng.below(stations.length)] ?? 1;
  const spots: Spot[] = def.rules.bets.map((b): Spot => ({ bet: b }));
  let spot = spots[chance(run, 0.8) ? 0 : rng.below(spots.length)];
  if (!spot) return;
  const hasMain = run.host.table.state.chips.some((c) => c.station === station && c.spot.bet === def.rules.bets[0]);
  if (!run.options.sideBetsAlone && !hasMain) spot = spots[0] ?? spot;
  const amount = 10_000 * (1 + rng.below(5));
  const r = run.host.table.commands.placeBet(station, spot, amount);
  note(run, `bet ${station} ${spot.bet} ${amount}: ${r.ok ? 'taken' : `refused (${r.reason})`}`);
}

/** A note into a random station's acceptor, then the acceptors polled. */
export function insertNote<S, R>(run: SimRun<S, R>): void {
  const station = run.stations[run.rng.below(run.stations.length)] ?? 1;
  const a = run.host.sims.get(station);
  if (!a) return;
  const amount = [10_000, 50_000, 100_000][run.rng.below(3)] ?? 10_000;
  try {
    a.insert(amount);
  } catch (e) {
    if (!(e instanceof Killed)) note(run, `the escrow of a note at ${station} was not journalled: ${e instanceof Error ? e.message : String(e)}`);
  }
  pollAcceptors(run, false);
}

/** Every acceptor polled, each credit's ACK lost at this seed's rate. */
export function pollAcceptors<S, R>(run: SimRun<S, R>, recovered: boolean): void {
  for (const [station, a] of run.host.sims) {
    const lost = run.rates.creditAck > 0 && chance(run, run.rates.creditAck);
    try {
      a.poll(recovered, lost);
      if (lost && (run.truths.get(station)?.owed.length ?? 0) > 0) fault(run, 'credit-ack-lost', `station ${station}`);
    } catch (e) {
      if (!(e instanceof Killed)) note(run, `a credit at ${station} was not journalled: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (run.host.faulty.killed) return;
  }
}

/** A device fault raised, or its condition gone. */
export function raiseTilt<S, R>(run: SimRun<S, R>): void {
  const t = TILTS[run.rng.below(TILTS.length)];
  if (!t) return;
  const where = t.station ? { station: run.stations[run.rng.below(run.stations.length)] ?? 1 } : {};
  try {
    if (chance(run, 0.7)) run.host.tilts.raise(t.kind, where);
    else run.host.tilts.conditionGone(t.kind, where.station);
  } catch (e) {
    if (!(e instanceof Killed)) note(run, `a tilt was not journalled: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export async function syncOnce<S, R>(run: SimRun<S, R>): Promise<void> {
  try {
    await run.host.sync.syncOnce();
  } catch (e) {
    note(run, `sync threw ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The acceptors' escrow times out (at ten times this seed's rate, on the one step in a hundred that may). */
export function escrowTimeout<S, R>(run: SimRun<S, R>): void {
  if (run.rates.escrowTimeout > 0 && chance(run, run.rates.escrowTimeout * 10)) {
    fault(run, 'escrow-timeout');
    for (const a of run.host.sims.values()) a.escrowTimeout();
  }
}

/** The acceptor unplugged and plugged back: its power-up report, a note owed reported again. */
export function replug<S, R>(run: SimRun<S, R>): void {
  if (run.rates.replug > 0 && chance(run, run.rates.replug * 50)) {
    fault(run, 'acceptor-replugged');
    for (const a of run.host.sims.values()) {
      a.start();
      a.poll(true, false);
    }
  }
}

/** The wall clock steps back or forward by up to an hour. */
export function clockStep<S, R>(run: SimRun<S, R>): void {
  if (run.rates.clock > 0 && chance(run, run.rates.clock * 25)) {
    const back = chance(run, 0.5);
    const ms = (1 + run.rng.below(3600)) * 1000;
    fault(run, back ? 'clock-step-back' : 'clock-step-forward', `${ms / 1000} s`);
    run.clock.step(back ? -ms : ms);
  }
}
