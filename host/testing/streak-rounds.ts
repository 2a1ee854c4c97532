// Test kit: a Macau 2009 blackjack table with the winning streak on, and the rounds the held-stake
// tests play on it (host/table/streak-held-stakes, streak-not-dealt; host/floor/cashout-streak).
import assert from 'node:assert/strict';
import { parseCard } from '../../engine/cards/card.js';
import { heldStakeOf } from '../../ledger/index.js';
import type { BetId } from '../../protocol/index.js';
import { credit, submitted, type TestTable } from './table-kit.js';

export const SIDE = { min: 500, max: 50_000 };
/** The streak on, its spots and the other additional bets within limits, an authorisation as a live 2009 table needs. */
export const STREAK = {
  betLimits: { anyPair: SIDE, sevens: SIDE, over13: SIDE, under13: SIDE, streak2: SIDE, streak3: SIDE, streak4: SIDE, streak5: SIDE },
  profileOptions: { winningStreak: true },
  profileAuthorisation: 'DICJ-TEST-16',
};

/** What the rounds need of a table: the test kit's, or a real host's (its runtime, hub, clock and ledger). */
export type StreakTable = Pick<TestTable, 'table' | 'hub' | 'clock' | 'ledger'>;

export const place = (t: StreakTable, station: number, bet: BetId, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot: { bet }, amount }));
export const decide = (t: StreakTable, station: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action: 'stand' }));
export const cards = (t: StreakTable, codes: string) => {
  for (const c of codes.split(' ')) t.table.shoe.onCard(parseCard(c));
};
export const close = (t: StreakTable) => t.clock.runOut(t.table.reads.view().endsAt);
/** What the ledger holds of a station's streak stakes (`held:<n>`). */
export const held = (t: Pick<TestTable, 'ledger'>, station: number) => heldStakeOf(t.ledger, station);

/** A shoe ready for a round: loaded if the table asks for one, its start burned. */
export function burnShoeStart(t: StreakTable) {
  if (t.table.reads.cue()?.kind === 'shuffle') t.table.shoe.onNewShoe();
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
}

/** Station 1 bets main 10,000 and streak3 5,000 and wins: 105,000 credit, 5,000 held; betting open again. */
export function wonRoundWithStreak(t: StreakTable): void {
  credit(t.ledger, 1, 100_000);
  credit(t.ledger, 2, 100_000);
  burnShoeStart(t);
  assert.equal(place(t, 1, 'main', 10_000).ok, true);
  assert.equal(place(t, 1, 'streak3', 5_000).ok, true);
  close(t);
  cards(t, 'TS 9H 9D');
  assert.equal(decide(t, 1).ok, true);
  cards(t, '8C');
  assert.equal(t.table.reads.view().phase, 'results');
  assert.equal(t.ledger.credit(1), 105_000);
  assert.equal(held(t, 1), 5_000);
  close(t);
  assert.equal(t.table.reads.view().phase, 'betting');
}

/** A round station 2 plays alone (19 against 17), left at its results. */
export function station2Round(t: StreakTable): void {
  assert.equal(place(t, 2, 'main', 10_000).ok, true);
  close(t);
  cards(t, 'TH 9D 9H');
  assert.equal(decide(t, 2).ok, true);
  cards(t, '8H');
  assert.equal(t.table.reads.view().phase, 'results');
}
