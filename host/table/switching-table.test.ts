// The table the host holds forwards each part to the running game's runtime. What a benchmark
// assigns through it (a wrapper around `shoe.onCard`, to time each card) must reach the running
// part: assigned on the forwarding stand-in, it was never called, and the stadium bench waited
// for cards it never counted (28 November, bisected to the switch at the shoe).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cardCode, parseCard, type Card } from '../../engine/cards/card.js';
import type { LiveTable, ShoeFeed } from './live-table.js';
import { SwitchingTable } from './switching-table.js';

/** A runtime whose only live part is its shoe feed, which records the cards it is given. */
function runtimeWithShoe(seen: string[]): LiveTable {
  const shoe: ShoeFeed = {
    onCard: (card) => void seen.push(`runtime:${cardCode(card)}`),
    onAnomaly: () => undefined,
    onCutCard: () => undefined,
    onNewShoe: () => ({ ok: true }),
  };
  return { shoe, onChange: () => () => undefined, stop: () => undefined } as unknown as LiveTable;
}

describe('SwitchingTable', () => {
  it("a wrapper assigned to its shoe's onCard is the one the shoe's driver calls, and the running runtime still gets the card", () => {
    const seen: string[] = [];
    const table = new SwitchingTable(runtimeWithShoe(seen));
    const original = table.shoe.onCard;
    table.shoe.onCard = (card: Card, sequence?: number) => {
      seen.push(`wrapper:${cardCode(card)}`);
      original(card, sequence);
    };
    table.shoe.onCard(parseCard('AS'));
    assert.deepEqual(seen, ['wrapper:AS', 'runtime:AS']);
  });

  it('after a switch the shoe feeds the new runtime', () => {
    const first: string[] = [];
    const second: string[] = [];
    const table = new SwitchingTable(runtimeWithShoe(first));
    table.switchTo(() => runtimeWithShoe(second));
    table.shoe.onCard(parseCard('KD'));
    assert.deepEqual([first, second], [[], ['runtime:KD']]);
  });

  // Each method's forwarder is made once while its part stands (issue 52: not a new closure at every read).
  it('a method read twice is one forwarder while the part stands; a part switched in with the same method (a class method) is called on the new part', () => {
    const seen: string[] = [];
    class Shoe {
      constructor(private readonly name: string) {}
      onCard(card: Card): void {
        seen.push(`${this.name}:${cardCode(card)}`);
      }
      onAnomaly(): void {}
      onCutCard(): void {}
      onNewShoe(): void {}
    }
    const runtime = (name: string) => ({ shoe: new Shoe(name), onChange: () => () => undefined, stop: () => undefined }) as unknown as LiveTable;
    const table = new SwitchingTable(runtime('first'));
    const read = table.shoe.onCard;
    assert.equal(table.shoe.onCard, read);
    read(parseCard('2H'));
    table.switchTo(() => runtime('second'));
    table.shoe.onCard(parseCard('3H'));
    assert.notEqual(table.shoe.onCard, read);
    assert.deepEqual(seen, ['first:2H', 'second:3H']);
  });
});
