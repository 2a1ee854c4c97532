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
import { MSG } from '../../hardware/shoe/framed.js';
import { ScriptedShoePort, ackOf, cardFrame, honestReplies, typeOf, until } from './shoe-wire-kit.js';

it('war: seat 1 drawn with rank 14, then two good cards: the round holds, nothing settles', async () => {
  const t = testTable();
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
    port.send(cardFrame(11, 1, 14, 0)); // seat 1's card: rank 14
    port.send(cardFrame(12, 2, 2, 2)); // 2D
    port.send(cardFrame(13, 3, 9, 0)); // 9S
    await until(() => port.written.some((b) => typeOf(b) === MSG.ACK && ackOf(b) === 13), 'all three acknowledged');
    const v = t.table.reads.view();
    assert.notEqual(v.hold, null, `phase ${v.phase}, hold ${v.hold}`);
    assert.equal(t.ledger.rounds.recall({ station: 1, limit: 1 }).length, 0, 'no round settled');
    assert.equal(t.ledger.credit(1), 40_000, 'the stake stays staked');
  } finally {
    await shoe.close();
    t.close();
  }
});
