// What a hostile SAS host can tell in a 0x72 transfer's transaction id, against the machine side on
// a manual clock. Table 8.3a gives the id as 1–20 ASCII characters after its length byte; status 95
// (Table 8.3d) is "transaction ID not valid". Until 7 December the machine made a string of the
// id's bytes whatever they were (String.fromCharCode), handed it to the station, and echoed it in
// the answer masked to 7 bits: an id of C1 was answered as "A", one of 21 bytes as its first 20,
// one of 0 bytes was looked up in the journal. Each is now refused at the machine before the
// station hears of it, with the short answer (position 00, status), and is not made the current
// transaction: its id cannot be given back as the host sent it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SasMachine } from '../../hardware/sas/machine.js';
import { ManualClock, MemoryAft, MemoryGame } from './fixture.js';
import { read72 } from './host/aft.js';
import { appendCrc, bcd } from './host/codec.js';

const A = 5;
const OTHER = 9;

function rig() {
  const clock = new ManualClock();
  const game = new MemoryGame();
  const aft = new MemoryAft();
  game.aft = aft;
  const out: number[][] = [];
  const machine = new SasMachine({ address: A, game, clock, write: (b) => out.push([...b]), romChunk: 1024 });
  const send = (bytes: number[]): void => bytes.forEach((b, i) => machine.char(b, i === 0));
  // In the host's cycle: a poll to another address first (§3.3).
  send([0x80 | OTHER]);
  return { clock, aft, send, take: () => out.splice(0) };
}

/** A 0x72 transfer in of 25.00 whose id field is `idLength` then `id`'s bytes, as sent, then (`tail`) expiry, pool, receipt length and lock timeout; its length byte the message's. */
function lying72(idLength: number, id: number[], tail = true): number[] {
  const data = [0x00, 0x00, 0x00, ...bcd(2_500, 5), ...bcd(0, 5), ...bcd(0, 5), 0x00, 1, 0, 0, 0, ...new Array<number>(20).fill(0), idLength, ...id];
  const body = [...data, ...(tail ? [...bcd(0, 4), 0, 0, 0, ...bcd(0, 2)] : [])];
  return appendCrc([A, 0x72, body.length, ...body]);
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

describe("AFT: a host's lies in 0x72's transaction id", () => {
  /** One poll, then a poll to another machine (its implied ACK); the one answer it got. */
  const ask = (r: ReturnType<typeof rig>, poll: number[]) => {
    r.send(poll);
    const answers = r.take();
    r.send([0x80 | OTHER]);
    assert.equal(answers.length, 1, `one answer, not ${JSON.stringify(answers)}`);
    return { bytes: answers[0] ?? [], read: read72(answers[0] ?? []) };
  };

  it('an id of 1 and of 20 printable characters (20h and 7Eh among them) is the station’s to decide, taken as sent', () => {
    const r = rig();
    for (const id of ['A', ' ~ID-edge-20-chars~~'.slice(0, 20)]) {
      const { read } = ask(r, lying72(id.length, ascii(id)));
      assert.deepEqual([read.status, read.id], [0x00, id]);
    }
    assert.deepEqual(
      r.aft.transfers.map((t) => t.transactionId),
      ['A', ' ~ID-edge-20-chars~~'],
    );
  });

  const refused95: [string, number, number[]][] = [
    ['id length 0', 0, []],
    ['id length 21', 21, ascii('ABCDEFGHIJKLMNOPQRSTU')],
    ['id length 255', 255, ascii('ABCDE')],
    ['a zero byte', 3, [0x41, 0x00, 0x42]],
    ['a control character (1F)', 2, [0x1f, 0x41]],
    ['DEL (7F)', 2, [0x41, 0x7f]],
    ['a byte above 7F (C1, "A" with the top bit)', 1, [0xc1]],
    ['FF', 4, [0x54, 0x31, 0xff, 0x32]],
  ];
  for (const [name, idLength, id] of refused95)
    it(`${name}: refused 95 in the short answer, the station never asked, nothing echoed`, () => {
      const r = rig();
      const { bytes, read } = ask(r, lying72(idLength, id));
      assert.deepEqual([read.position, read.status], [0x00, 0x95]);
      assert.equal(bytes[2], 2, 'the short answer: position and status only, no id built from the bytes');
      assert.equal(r.aft.transfers.length, 0, 'the station was not asked');
    });

  it('an id running past the message (its length byte says more than the message holds) is 82, the station never asked', () => {
    const r = rig();
    // An id of 20 claimed, 3 sent and nothing after them: the message ends 17 bytes short of the id.
    const { read } = ask(r, lying72(20, ascii('ABC'), false));
    assert.deepEqual([read.position, read.status], [0x00, 0x82]);
    assert.equal(r.aft.transfers.length, 0);
  });

  it('a message shorter than its length byte says is never whole: not answered, not taken, and the next poll is answered', () => {
    const r = rig();
    const poll = lying72(3, ascii('ABC'));
    poll[2] = (poll[2] ?? 0) + 20;
    r.send(poll);
    r.clock.advance(1_000);
    assert.deepEqual(r.take(), [], 'waiting for bytes that never come, then dropped at the stall');
    r.send([0x80 | OTHER]);
    const { read } = ask(r, lying72(3, ascii('ABC')));
    assert.deepEqual([read.status, read.id], [0x00, 'ABC'], 'the honest poll after it');
    assert.deepEqual(
      r.aft.transfers.map((t) => t.transactionId),
      ['ABC'],
    );
  });

  it('a length byte too short to hold the id length is 82, nothing read past it', () => {
    const r = rig();
    const body = lying72(3, ascii('ABC')).slice(3, -2).slice(0, 43);
    const { read } = ask(r, appendCrc([A, 0x72, body.length, ...body]));
    assert.deepEqual([read.position, read.status], [0x00, 0x82]);
    assert.equal(r.aft.transfers.length, 0);
  });
});
