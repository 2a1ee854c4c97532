// What a hostile SAS host can tell in the fields of a 0x72 transfer after its transaction id, against
// the machine side on a manual clock. Table 8.3a gives them as expiration (4 BCD), pool id (2),
// receipt data length (1) and that many bytes of receipt data, lock timeout (2 BCD); the length byte
// counts every byte after it. Until 8 December the machine checked the length byte only as far as
// the id: a message whose length ended at the id, or inside any field after it, or whose receipt
// data length said more or fewer bytes than the message held, was taken as a transfer (the station
// asked, the money moved). Each frame is whole here (its length byte is the message's): only the
// fields inside it lie. Refused now with 82 (not a valid function) in the short answer, as a message
// too short for its id is, and never made the current transaction.
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
  send([0x80 | OTHER]);
  return { aft, send, take: () => out.splice(0) };
}

/** A 0x72 transfer in of 25.00, id "T1", then `tail` as the bytes after the id; its length byte the message's own. */
function with72Tail(tail: number[]): number[] {
  const head = [0x00, 0x00, 0x00, ...bcd(2_500, 5), ...bcd(0, 5), ...bcd(0, 5), 0x00, 1, 0, 0, 0, ...new Array<number>(20).fill(0), 2, 0x54, 0x31];
  const body = [...head, ...tail];
  return appendCrc([A, 0x72, body.length, ...body]);
}

const EXPIRY = bcd(0, 4);
const POOL = [0, 0];
const TIMEOUT = bcd(0, 2);

/** One poll, then a poll to another machine (its implied ACK); the one answer it got. */
function ask(r: ReturnType<typeof rig>, poll: number[]) {
  r.send(poll);
  const answers = r.take();
  r.send([0x80 | OTHER]);
  assert.equal(answers.length, 1, `one answer, not ${JSON.stringify(answers)}`);
  return { bytes: answers[0] ?? [], read: read72(answers[0] ?? []) };
}

describe("AFT: a host's lies in the length of 0x72's fields after the transaction id", () => {
  it('a whole request, with no receipt data and with 4 bytes of it, is taken', () => {
    for (const receipt of [[], [0x00, 0x02, 0x41, 0x42]]) {
      const r = rig();
      const { read } = ask(r, with72Tail([...EXPIRY, ...POOL, receipt.length, ...receipt, ...TIMEOUT]));
      assert.deepEqual([read.status, read.id], [0x00, 'T1']);
      assert.equal(r.aft.transfers.length, 1);
    }
  });

  const lies: [string, number[]][] = [
    ['nothing after the id', []],
    ['half an expiration', EXPIRY.slice(0, 2)],
    ['an expiration and no pool id', EXPIRY],
    ['half a pool id', [...EXPIRY, 0]],
    ['no receipt data length', [...EXPIRY, ...POOL]],
    ['no lock timeout', [...EXPIRY, ...POOL, 0]],
    ['half a lock timeout', [...EXPIRY, ...POOL, 0, 0]],
    ['receipt data length 5, 3 bytes of it and nothing after', [...EXPIRY, ...POOL, 5, 1, 2, 3]],
    ['receipt data length 5, 5 bytes of it, no lock timeout', [...EXPIRY, ...POOL, 5, 1, 2, 3, 4, 5]],
    ['receipt data length 5 and 3 bytes, the lock timeout read as its last 2', [...EXPIRY, ...POOL, 5, 1, 2, 3, ...TIMEOUT]],
    ['receipt data length 255', [...EXPIRY, ...POOL, 255, ...TIMEOUT]],
    ['receipt data length 0 with 3 bytes of it', [...EXPIRY, ...POOL, 0, 1, 2, 3, ...TIMEOUT]],
    ['3 bytes after the lock timeout', [...EXPIRY, ...POOL, 0, ...TIMEOUT, 7, 7, 7]],
  ];
  for (const [name, tail] of lies)
    it(`${name}: refused 82 in the short answer, the station never asked`, () => {
      const r = rig();
      const { bytes, read } = ask(r, with72Tail(tail));
      assert.deepEqual([read.position, read.status], [0x00, 0x82]);
      assert.equal(bytes[2], 2, 'the short answer: position and status only');
      assert.equal(r.aft.transfers.length, 0, 'the station was asked');
    });
});
