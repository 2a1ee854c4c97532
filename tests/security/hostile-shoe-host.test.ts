// The shoe's lies at a table: the real framed driver and TableShoe feeding a War table. A card the
// dealer drew that the driver cannot read must hold the round, never let the next card take its
// place (a review: a rank-14 read was dropped, and the round settled on the croupier's card as
// seat 1's and the next card out as the croupier's).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import pino from 'pino';
import { FramedShoe } from '../../hardware/shoe/framed-driver.js';
import { TableShoe } from '../../host/devices/shoe.js';
import { credit, testTable } from '../../host/testing/table-kit.js';
import { MSG, encodeShoeFrame, u16 } from '../../hardware/shoe/framed.js';
import { ScriptedShoePort, ackOf, cardFrame, honestReplies, typeOf, until } from './shoe-wire-kit.js';

/** A War table whose shoe is the scripted one, a bet of 10,000 at seat 1, betting closed; `run` sends the cards. */
async function warRound(
  send: (port: ScriptedShoePort) => number | Promise<number>,
  prepare: (t: ReturnType<typeof testTable>) => void = () => undefined,
): Promise<{ hold: string | null; phase: string; settled: number; credit: number }> {
  const t = testTable();
  prepare(t);
  const port = new ScriptedShoePort();
  honestReplies(port, () => 10);
  const shoe = new TableShoe('usb:script', t.table, pino({ level: 'silent' }), {
    decks: 8,
    open: (_spec, o) => {
      const d = new FramedShoe(async () => port, { ...o, heartbeatMs: 60_000 });
      d.start();
      return d;
    },
  });
  try {
    credit(t.ledger, 1, 50_000);
    t.table.commands.placeBet(1, { bet: 'main' }, 10_000);
    shoe.start();
    await until(() => shoe.state().state === 'ready', 'the shoe connected');
    t.clock.runOut(t.table.reads.view().endsAt);
    const last = await send(port);
    await until(() => port.written.some((b) => typeOf(b) === MSG.ACK && ackOf(b) === last), `ACK ${last}`);
    const v = t.table.reads.view();
    return { hold: v.hold, phase: v.phase, settled: t.ledger.rounds.recall({ station: 1, limit: 1 }).length, credit: t.ledger.credit(1) };
  } finally {
    await shoe.close();
    t.close();
  }
}

it('war: seat 1 drawn with rank 14, then two good cards: the round holds, nothing settles', async () => {
  const r = await warRound((port) => {
    port.send(cardFrame(11, 1, 14, 0)); // seat 1's card: rank 14
    port.send(cardFrame(12, 2, 2, 2)); // 2D
    port.send(cardFrame(13, 3, 9, 0)); // 9S
    return 13;
  });
  assert.notEqual(r.hold, null, `phase ${r.phase}, hold ${r.hold}`);
  assert.equal(r.settled, 0, 'no round settled');
  assert.equal(r.credit, 40_000, 'the stake stays staked');
});

it("war: the shoe's count skips a card (index 1, then 3): the round holds for the card never reported", async () => {
  const r = await warRound((port) => {
    port.send(cardFrame(11, 1, 10, 0)); // seat 1: TS, the shoe's first card
    port.send(cardFrame(12, 3, 2, 2)); // 2D, the shoe's third: its second was never reported
    return 12;
  });
  assert.notEqual(r.hold, null, `phase ${r.phase}, hold ${r.hold}`);
  assert.equal(r.settled, 0, 'no round settled');
  assert.equal(r.credit, 40_000, 'the stake stays staked');
});

it("war: the shoe's count goes on one by one: the round settles", async () => {
  const r = await warRound((port) => {
    port.send(cardFrame(11, 7, 10, 0)); // TS (a shoe started before this host: its count is its own)
    port.send(cardFrame(12, 8, 2, 2)); // 2D
    return 12;
  });
  assert.equal(r.hold, null);
  assert.equal(r.settled, 1);
});

// A review of the change: the index was followed before the read was handled, so a read whose
// handling failed once (a journal busy: not ACKed, the shoe sends it again) came back with the same
// index, was taken for a count gone back, and held the round; the real card was then dropped as a
// sequence already journalled, for a person to enter.
it('war: a read whose handling failed once comes again with its own index: no hold, the round settles', async () => {
  let refused = 0;
  const r = await warRound(
    async (port) => {
      port.send(cardFrame(11, 1, 10, 0)); // TS: its handling refused once, not ACKed
      await until(() => refused === 1, 'the first handling refused');
      port.send(cardFrame(11, 1, 10, 0)); // the shoe sends it again
      await until(() => port.written.some((b) => typeOf(b) === MSG.ACK && ackOf(b) === 11), 'ACK 11');
      port.send(cardFrame(12, 2, 2, 2)); // 2D
      return 12;
    },
    (t) => {
      const onCard = t.table.shoe.onCard.bind(t.table.shoe);
      t.table.shoe.onCard = (...a: Parameters<typeof onCard>) => {
        if (refused++ === 0) throw new Error('journal busy');
        return onCard(...a);
      };
    },
  );
  assert.equal(r.hold, null, `phase ${r.phase}`);
  assert.equal(r.settled, 1);
});

// The cut card says how many cards were dealt before it (docs/protocols/shoe.md, CUT_CARD): more
// than the shoe reported is a card drawn and never reported. The table holds then, not at the next
// card: the dealer, shown the table still waiting for the croupier's card that lies on the felt,
// would otherwise draw another.
it("war: the cut card's count says a card was dealt that the shoe never reported: the round holds at once", async () => {
  const r = await warRound((port) => {
    port.send(cardFrame(11, 1, 10, 0)); // seat 1: TS, the shoe's first card
    port.send(encodeShoeFrame(12, MSG.CUT_CARD, [...u16(2)])); // two dealt before it: the croupier's never reported
    return 12;
  });
  assert.notEqual(r.hold, null, `phase ${r.phase}, hold ${r.hold}`);
  assert.equal(r.settled, 0, 'no round settled');
});

it("war: the cut card's count is the cards reported: the round goes on and settles", async () => {
  const r = await warRound((port) => {
    port.send(cardFrame(11, 1, 10, 0)); // TS
    port.send(encodeShoeFrame(12, MSG.CUT_CARD, [...u16(1)]));
    port.send(cardFrame(13, 2, 2, 2)); // 2D
    return 13;
  });
  assert.equal(r.hold, null);
  assert.equal(r.settled, 1);
});

// A card the shoe says was burnt (CARD_DRAWN flags bit 1: the dealer's burn mode, docs/protocols/
// shoe.md) while the table waits for a card of the round: the dealer laid it with the burns, not at
// seat 1. Taken as seat 1's card, the round settled on a card nobody saw dealt to the seat and the
// next card out (the seat's, on the felt) as the croupier's.
it("war: the shoe reads seat 1's card as a burn: the round holds, the card out of turn, nothing settles", async () => {
  const r = await warRound((port) => {
    port.send(encodeShoeFrame(11, MSG.CARD_DRAWN, [...u16(1), 10, 0, 90, 1])); // TS, burnt
    port.send(cardFrame(12, 2, 2, 2)); // 2D
    port.send(cardFrame(13, 3, 9, 0)); // 9S
    return 13;
  });
  assert.equal(r.settled, 0, `no round settled (phase ${r.phase}, hold ${r.hold})`);
  assert.equal(r.credit, 40_000, 'the stake stays staked');
  assert.equal(r.hold, 'out-of-turn');
});
