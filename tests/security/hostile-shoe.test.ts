// A card shoe that lies on the wire (or a reader that misreads into codes no card has), against the
// real framed driver: every card the dealer drew must reach the table, as a card or as a read the
// table holds for; a sequence number must never let one card stand in for another
// (docs/security.md, "Shoe and printer drivers that distrust the device").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MSG, encodeShoeFrame } from '../../hardware/shoe/framed.js';
import { ASCII_LINES_WAITING, AsciiShoe } from '../../hardware/shoe/ascii.js';
import type { SequencedShoeEvent, ShoeEvent } from '../../hardware/shoe/types.js';
import { ScriptedShoePort, cardFrame, scriptedShoe, until } from './shoe-wire-kit.js';

const said = (e: SequencedShoeEvent): string => {
  if (e.type === 'card') return `${e.sequence}:${e.card}`;
  if (e.type === 'unreadable') return `${e.sequence}:unreadable ${e.reason}`;
  if (e.type === 'alarm') return `${e.sequence}:alarm ${e.severity} ${e.code}`;
  return `${e.sequence}:${e.type}`;
};

describe('a shoe that sends what no card is', () => {
  it('a drawn card with a code no card has, too short a message, or sequence 0 is an unreadable read, never dropped', async () => {
    const r = scriptedShoe(10);
    await r.connected();
    r.port.send(cardFrame(11, 1, 14, 0)); // rank 14
    r.port.send(cardFrame(12, 2, 0, 1)); // rank 0
    r.port.send(cardFrame(13, 3, 1, 7)); // suit 7
    r.port.send(encodeShoeFrame(14, MSG.CARD_DRAWN, [4, 0, 1])); // 3 bytes of 6
    r.port.send(cardFrame(15, 5, 1, 0)); // AS
    r.port.send(cardFrame(0, 6, 13, 0)); // KS with sequence 0
    await until(() => r.journal.length >= 6, 'six reads journalled');
    const reads = r.journal.map(said);
    assert.equal(reads.length, 6, reads.join(' | '));
    assert.match(reads[0] ?? '', /^11:unreadable .*rank 14 suit 0/);
    assert.match(reads[1] ?? '', /^12:unreadable .*rank 0 suit 1/);
    assert.match(reads[2] ?? '', /^13:unreadable .*rank 1 suit 7/);
    assert.match(reads[3] ?? '', /^14:unreadable .*3 bytes/);
    assert.equal(reads[4], '15:AS');
    assert.match(reads[5] ?? '', /^0:unreadable .*sequence 0.*rank 13 suit 0/);
    // Every sequenced one acknowledged once journalled; the unsequenced one is not (nothing to acknowledge).
    await until(() => r.acks().includes(15), 'ACK 15');
    assert.deepEqual(r.acks(), [11, 12, 13, 14, 15]);
    await r.shoe.close();
  });

  it('a drawn card with sequence 0 sent before the HELLO is an unreadable read too, not dropped with the handshake', async () => {
    const r = scriptedShoe(10, {}, 0);
    // Ahead of its first HELLO, the shoe sends a KS under sequence 0 (the handshake kept only
    // numbered events: this one was lost, and the card with it).
    const answer = r.port.onWrite;
    let first = true;
    r.port.onWrite = (b) => {
      if (first && b[4] === MSG.GET_STATUS) {
        first = false;
        r.port.send(cardFrame(0, 6, 13, 0));
      }
      answer?.(b);
    };
    await r.connected();
    await until(() => r.journal.length >= 1, 'the read journalled');
    assert.match(r.journal.map(said)[0] ?? '', /^0:unreadable .*sequence 0.*rank 13 suit 0/);
    await r.shoe.close();
  });

  it('an unknown message type, or an event with sequence 0, is a critical alarm of the driver, not a silent ACK', async () => {
    const r = scriptedShoe(10);
    await r.connected();
    r.port.send(encodeShoeFrame(11, 0x30, [1, 2, 3]));
    r.port.send(encodeShoeFrame(0, MSG.LID, [1]));
    await until(() => r.journal.length >= 2, 'two alarms journalled');
    assert.deepEqual(r.journal.map(said), ['11:alarm critical protocol', '0:alarm critical protocol']);
    const texts = r.journal.map((e) => (e.type === 'alarm' ? e.text : ''));
    assert.match(texts[0] ?? '', /type 0x30/);
    assert.match(texts[1] ?? '', /sequence 0/);
    await r.shoe.close();
  });
});

describe('a shoe whose sequence numbers lie', () => {
  it('a sequence already delivered carrying another card, or one from before the counter, is an anomaly and a status check; a true resend stays silent', async () => {
    let deviceLast = 10;
    const r = scriptedShoe(() => deviceLast);
    await r.connected();
    deviceLast = 12; // what its HELLO says from now on: it claims no restart
    r.port.send(cardFrame(11, 1, 1, 0)); // AS
    r.port.send(cardFrame(11, 1, 1, 0)); // AS again: a true resend
    await until(() => r.acks().length >= 2, 'the resend acknowledged');
    assert.deepEqual(r.acks(), [11, 11]);
    const asked = r.statusAsks();
    r.port.send(cardFrame(11, 2, 13, 1)); // KH under 11: another card
    r.port.send(cardFrame(3, 3, 12, 2)); // QD under 3: a counter that went back without a HELLO
    r.port.send(cardFrame(12, 4, 2, 3)); // 2C
    await until(() => r.journal.length >= 4, 'four reads journalled');
    const reads = r.journal.map(said);
    assert.equal(reads[0], '11:AS');
    assert.match(reads[1] ?? '', /^11:unreadable .*sequence 11 .*rank 13 suit 1/);
    assert.match(reads[2] ?? '', /^3:unreadable .*sequence 3 .*rank 12 suit 2/);
    assert.equal(reads[3], '12:2C');
    const warnings = r.events.filter((e) => e.type === 'warning');
    assert.ok(warnings.length >= 2, JSON.stringify(warnings));
    assert.ok(r.statusAsks() > asked, 'GET_STATUS asked so the HELLO check runs');
    // The same lie again is not a second anomaly.
    const n = r.journal.length;
    r.port.send(cardFrame(11, 2, 13, 1));
    r.port.send(cardFrame(99, 5, 3, 3)); // a gap, to know the lie was handled
    await until(() => r.events.filter((e) => e.type === 'warning').some((w) => 'text' in w && /gap/.test(w.text)), 'the gap after the repeat');
    assert.equal(r.journal.length, n, r.journal.map(said).join(' | '));
    await r.shoe.close();
  });

  it("after a host restart, the shoe's resends of what it still holds unacknowledged are acknowledged and dropped, silently", async () => {
    const r = scriptedShoe(10, { lastSequence: 10 }, 8);
    await r.connected();
    for (const seq of [8, 9, 10]) r.port.send(cardFrame(seq, seq, 1, 0));
    r.port.send(cardFrame(11, 11, 5, 2));
    await until(() => r.journal.length >= 1, 'the new card');
    await until(() => r.acks().includes(11), 'ACK 11');
    assert.deepEqual(r.journal.map(said), ['11:5D']);
    assert.deepEqual(r.acks(), [10, 11]); // one ACK answers the three resends (cumulative)
    assert.deepEqual(
      r.events.filter((e) => e.type === 'warning'),
      [],
    );
    await r.shoe.close();
  });
});

describe('a shoe that floods the wire', () => {
  it('200,000 copies of a delivered frame while the journal is busy: the session ends as a flood, a bounded few ACKs', async () => {
    let release = (): void => undefined;
    const busy = new Promise<void>((r) => (release = r));
    let journalled = 0;
    const r = scriptedShoe(10, {
      onEvent: async (e) => {
        if (e.sequence === 12) await busy; // a journal write that takes its time
        journalled++;
      },
    });
    await r.connected();
    r.port.send(cardFrame(11, 1, 1, 0));
    await until(() => r.acks().includes(11), 'ACK 11');
    r.port.send(cardFrame(12, 2, 2, 0)); // its journal write waits
    const copy = cardFrame(11, 1, 1, 0);
    const chunk = new Uint8Array(copy.length * 20_000);
    for (let i = 0; i < 20_000; i++) chunk.set(copy, i * copy.length);
    for (let k = 0; k < 10; k++) r.port.send(chunk);
    release();
    await until(() => r.events.some((e) => e.type === 'disconnected'), 'the session ended');
    const down = r.events.find((e) => e.type === 'disconnected');
    assert.match(down && 'reason' in down ? down.reason : '', /flood/);
    assert.ok(r.acks().length < 50, `${r.acks().length} ACKs written`);
    assert.equal(journalled, 2);
    await r.shoe.close();
  });
});

describe('an ASCII shoe that floods its stream', () => {
  it('50,000 card lines faster than the journal: a bounded queue, and the lines it dropped are an unreadable read that holds the table', async () => {
    const port = new ScriptedShoePort();
    const journal: SequencedShoeEvent[] = [];
    const shoe = new AsciiShoe(async () => port, {
      onEvent: async (e) => {
        await new Promise((r) => setTimeout(r, 1)); // a journal slower than the wire
        journal.push(e);
      },
      reconnectBaseMs: 10_000,
    });
    const events: ShoeEvent[] = [];
    shoe.on((e) => events.push(e));
    shoe.start();
    await until(() => events.some((e) => e.type === 'connected'), 'connected');
    port.send(new TextEncoder().encode('[Game]<Card:4S>\n'.repeat(50_000)));
    await until(() => journal.some((e) => e.type === 'unreadable'), 'the dropped lines reported', 5000);
    const unreadable = journal.find((e) => e.type === 'unreadable');
    assert.match(unreadable && 'reason' in unreadable ? unreadable.reason : '', /\d+ lines dropped/);
    assert.ok(journal.length <= ASCII_LINES_WAITING + 2, `${journal.length} journalled`);
    assert.ok(events.some((e) => e.type === 'warning' && /dropped/.test(e.text)));
    await shoe.close();
  });
});

// An ASCII stream has no CRC and no resend: a line damaged on the wire (a control or 8-bit byte in
// it, a line cut short and glued to the next, one cut short and never ended) is gone for good. It
// may have been a card the dealer drew: dropped with a warning only, the next card out took its place
// in the deal (seat 1's card lost, the croupier's read as seat 1's). Each stands as an unreadable
// read in its place in the stream, so the table holds, as for the lines a flood drops.
describe('an ASCII shoe whose lines come damaged', () => {
  async function stream(bytes: string[], waitFor: (journal: SequencedShoeEvent[]) => boolean): Promise<SequencedShoeEvent[]> {
    const port = new ScriptedShoePort();
    const journal: SequencedShoeEvent[] = [];
    const shoe = new AsciiShoe(async () => port, { onEvent: (e) => void journal.push(e), reconnectBaseMs: 10_000, lineTimeoutMs: 50 });
    const events: ShoeEvent[] = [];
    shoe.on((e) => events.push(e));
    shoe.start();
    try {
      await until(() => events.some((e) => e.type === 'connected'), 'connected');
      for (const b of bytes) {
        port.send(Uint8Array.from(b, (c) => c.charCodeAt(0)));
        await new Promise((r) => setTimeout(r, 5));
      }
      await until(() => waitFor(journal), 'the reads journalled');
      return journal;
    } finally {
      await shoe.close();
    }
  }
  const reads = (journal: SequencedShoeEvent[]) => journal.map((e) => (e.type === 'card' ? e.card : e.type === 'unreadable' ? 'unreadable' : e.type));

  it('a card line with a control byte in it, then a good card: an unreadable read before the card', async () => {
    const journal = await stream(['[Game]<Card:\x004S>\n', '[Game]<Card:9H>\n'], (j) => j.some((e) => e.type === 'card'));
    assert.deepEqual(reads(journal), ['unreadable', '9H']);
    assert.deepEqual(
      journal.map((e) => ('index' in e ? e.index : null)),
      [1, 2],
    );
  });

  it('a card line cut short and glued to the next: an unreadable read, then the card at its end', async () => {
    const journal = await stream(['[Game]<Card:4', '[Game]<Card:9H>\n'], (j) => j.some((e) => e.type === 'card'));
    assert.deepEqual(reads(journal), ['unreadable', '9H']);
  });

  it('a card line cut short and never ended: an unreadable read once its line times out', async () => {
    const journal = await stream(['[Game]<Card:4'], (j) => j.length > 0);
    assert.deepEqual(reads(journal), ['unreadable']);
  });

  it('whole lines are read as ever: no unreadable read is made up', async () => {
    const journal = await stream(['[Game]<Card:4S>\r\n', '[Shoe]<CutCard>\n', '[Game]<Card:9H>\n'], (j) => j.filter((e) => e.type === 'card').length === 2);
    assert.deepEqual(reads(journal), ['4S', 'cutCard', '9H']);
  });
});

// The framed shoe sends a read again until the host journalled it (its ACK withheld); an ASCII
// stream says each line once. A card whose journal entry was refused (the journal busy, the table on
// hold: host/table/runtime.ts throws so the read is not lost) "still counted as seen": the card that
// left the shoe was in no record, and a person could enter a card for an unreadable one with another
// card gone unseen. The adapter now offers the same read again until it is journalled.
it('an ASCII card line whose journal entry is refused once is offered again, under its own sequence, until journalled', async () => {
  const port = new ScriptedShoePort();
  const journal: SequencedShoeEvent[] = [];
  let refused = 0;
  const shoe = new AsciiShoe(async () => port, {
    onEvent: (e) => {
      if (e.type === 'card' && refused++ < 2) throw new Error('journal busy');
      journal.push(e);
    },
    reconnectBaseMs: 10_000,
  });
  const events: ShoeEvent[] = [];
  shoe.on((e) => events.push(e));
  shoe.start();
  try {
    await until(() => events.some((e) => e.type === 'connected'), 'connected');
    port.send(new TextEncoder().encode('[Game]<Card:4S>\n[Game]<Card:9H>\n'));
    await until(() => journal.length === 2, 'both cards journalled');
    assert.deepEqual(
      journal.map((e) => (e.type === 'card' ? [e.card, e.sequence, e.index] : e.type)),
      [
        ['4S', 1, 1],
        ['9H', 2, 2],
      ],
    );
  } finally {
    await shoe.close();
  }
});
