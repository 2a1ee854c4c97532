import { CARD_CODES, cardOf, type Card } from '../../engine/cards/card.js';
import type { Rng } from '../../engine/random/seeded-rng.js';
import { pendingOf } from '../../engine/table/queries.js';
import type { Spot } from '../../engine/table/vocabulary.js';
import type { TableHost } from './table-host.js';

const ALL_CARDS: readonly Card[] = CARD_CODES.map(cardOf);
/** Never dealt: the fallback of an index the loops keep in range. */
const ACE_OF_SPADES = cardOf('AS');

/**
 * Seeded play on a table host, one step at a time: the dealer's cards from a shuffled shoe,
 * players betting and deciding, notes inserted, time passing, as cli/sim-faults/simulate.ts does
 * without its injected faults (the kill comes from outside the process). The shoe's sequence
 * numbers continue the journal's, so a card read after a restart is never taken for a re-report.
 */
export class Player {
  private shoe: Card[] = [];
  private sequence: number;

  constructor(
    private readonly host: TableHost,
    private readonly rng: Rng,
    lastSequence: number,
  ) {
    this.sequence = lastSequence;
    this.shuffle();
  }

  step(): void {
    const r = this.rng.below(100);
    if (r < 55) this.auto();
    else if (r < 80) this.bet();
    else if (r < 92) this.insertNote();
    else this.host.clock.advance(this.rng.below(1500));
  }

  private shuffle(): void {
    const decks = this.host.def.decks;
    this.shoe = Array.from({ length: decks }, () => ALL_CARDS).flat();
    for (let i = this.shoe.length - 1; i > 0; i--) {
      const j = this.rng.below(i + 1);
      [this.shoe[i], this.shoe[j]] = [this.shoe[j] ?? ACE_OF_SPADES, this.shoe[i] ?? ACE_OF_SPADES];
    }
  }

  private auto(): void {
    const { table, def, clock } = this.host;
    const cue = table.reads.cue();
    const p = pendingOf(table.state, def);
    if (cue?.kind === 'shuffle') {
      this.shuffle();
      table.shoe.onNewShoe(++this.sequence);
    } else if (cue?.kind === 'card') {
      if (this.shoe.length === 0) this.shuffle();
      table.input({ kind: 'card', at: clock.wall(), card: this.shoe.pop() ?? ACE_OF_SPADES, sequence: ++this.sequence });
    } else if (p?.kind === 'decision') {
      const who = p.decider.kind === 'behind' ? p.decider.station : p.seat;
      table.commands.decide(who, p.legal[this.rng.below(p.legal.length)] ?? p.default);
    } else if (table.state.hold) table.supervisor.voidRound('kill trial: the supervisor resolves the hold', ['sup-1', 'wit-2']);
    else if (table.reads.view().endsAt !== null) clock.advance(Math.max(0, (table.reads.view().endsAt ?? 0) - clock.wall()) + 1);
    else clock.advance(500);
  }

  private bet(): void {
    const { table, def, stations } = this.host;
    const station = stations[this.rng.below(stations.length)] ?? 1;
    const spots: Spot[] = def.rules.bets.map((b): Spot => ({ bet: b }));
    const main = spots[0];
    if (!main) return;
    // An additional bet only beside a main bet of the station's (docs/faults.md: a side bet alone
    // is a finding left to the engine's owners).
    const hasMain = table.state.chips.some((c) => c.station === station && c.spot.bet === def.rules.bets[0]);
    const spot = hasMain && this.rng.below(5) === 0 ? (spots[this.rng.below(spots.length)] ?? main) : main;
    table.commands.placeBet(station, spot, 10_000 * (1 + this.rng.below(5)));
  }

  private insertNote(): void {
    const { stations, devices } = this.host;
    const station = stations[this.rng.below(stations.length)] ?? 1;
    const device = devices.get(station);
    // The note, then the device's next poll: its credit reported (recorded as acknowledged once the host's handler returns).
    device?.insert([10_000, 50_000, 100_000][this.rng.below(3)] ?? 10_000);
    device?.poll(false);
  }
}
