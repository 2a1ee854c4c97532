// A SAS peer that sends faster than a SAS line can carry (SAS 6.02 §1.2: 19,200 baud, 11-bit
// characters, 1,745 a second; §2.3.3: a machine polled no faster than every 200 ms). Over a real
// UART the wire bounds it; over `tcp:` (a terminal server) or a pty's far end nothing did: a host
// flooding polls had every one decoded, answered and written, and held the table host's event loop
// (measured here on 6 December: a flood over TCP, lag of 0.5–2 s at every 20 ms tick for as long as
// it lasted, +200 MB). The relayed line of a remote station is held to twice its wire's rate
// (host/server/lan-server.ts, RELAYED_BYTE_LIMITS); a direct link is now held the same way
// (hardware/sas/link.ts, SAS_LINE_BYTES): bytes past it are dropped and counted, as line noise.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SAS_LINE_BYTES, SasLink, type SasPortProblem } from '../../hardware/sas/link.js';
import { encodeWire } from '../../hardware/sas/wire.js';
import { MessagePort } from '../../hardware/transport/message-port.js';
import { ManualClock, MemoryGame } from './fixture.js';

const A = 5;
const OTHER = 1;

async function linked() {
  const clock = new ManualClock();
  let written = 0;
  const port = new MessagePort('test', () => {
    written++;
  });
  const link = new SasLink(() => Promise.resolve(port), { address: A, game: new MemoryGame(), clock });
  link.start();
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return { clock, port, link, written: () => written };
}

/** `n` general polls to this machine, the first after a poll to another address (the machine synchronises on it). */
function generalPolls(n: number): Uint8Array {
  const parts = [encodeWire(Uint8Array.of(0x80 | OTHER), true)];
  for (let i = 0; i < n; i++) parts.push(encodeWire(Uint8Array.of(0x80 | A), true), encodeWire(Uint8Array.of(0x80 | OTHER), true));
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

describe('a SAS link takes no more than twice what its line carries', () => {
  it('a flood of polls at once: the bytes past the budget are dropped and counted, not answered', async () => {
    const r = await linked();
    const flood = generalPolls(50_000); // 300,003 bytes, time standing still
    r.port.receive(flood);
    // Each answered poll costs 6 bytes here (its own and the other address's): the burst answers a few thousand at most.
    assert.ok(r.link.machine.answered <= Math.ceil(SAS_LINE_BYTES.burst / 6), `answered ${r.link.machine.answered}`);
    assert.ok(r.link.machine.answered > 0, 'what the budget allows is answered');
    assert.equal(r.link.overBudget, flood.length - SAS_LINE_BYTES.burst);
    await r.link.close();
  });

  it('a host within the line’s rate is answered in full, the budget refilled as time passes', async () => {
    const r = await linked();
    r.port.receive(generalPolls(1_000)); // 6,003 bytes: within the burst
    assert.equal(r.link.machine.answered, 1_000);
    // A second of the most an honest line carries, every second, for ten seconds: all answered.
    for (let s = 0; s < 10; s++) {
      r.clock.advance(1_000);
      r.port.receive(generalPolls(Math.floor((3 * 1_745) / 6)));
    }
    assert.equal(r.link.overBudget, 0);
    assert.equal(r.link.machine.answered, 1_000 + 10 * Math.floor((3 * 1_745) / 6));
    await r.link.close();
  });
  it('a peer that goes on sending past the budget is cut off: the port closed, its reason told, opened again after the backoff', async () => {
    // Before: the bytes past the budget were dropped and the flooding peer kept its connection for
    // as long as it liked, every chunk still read, and nothing told the technician why the polls
    // went unanswered (the relayed line is closed after its refusals: host/server/lan-server.ts).
    const clock = new ManualClock();
    const ports: MessagePort[] = [];
    const downs: SasPortProblem[] = [];
    const opener = (): Promise<MessagePort> => {
      const port = new MessagePort(`test ${ports.length + 1}`, () => undefined);
      ports.push(port);
      return Promise.resolve(port);
    };
    const link = new SasLink(opener, { address: A, game: new MemoryGame(), clock, onPortDown: (problem) => downs.push(problem) });
    link.start();
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    };
    await settle();
    const first = ports[0];
    assert.ok(first);
    // A burst within the budget, then more than a second burst past it with time standing still.
    first.receive(generalPolls(3_000));
    first.receive(generalPolls(3_000));
    assert.equal(first.closed, false, 'a burst past the budget alone is line noise: dropped, the connection kept');
    first.receive(generalPolls(3_000));
    await settle();
    assert.equal(first.closed, true, 'the flooding connection is closed');
    assert.equal(downs.length, 1);
    assert.equal(downs[0]?.why, 'flood', 'its cause, the code the fault says');
    assert.match(downs[0]?.report ?? '', /faster than a SAS line/);
    clock.advance(5_000);
    await settle();
    assert.equal(ports.length, 2, 'the link is opened again after its backoff');
    const answered = link.machine.answered;
    ports[1]?.receive(generalPolls(10));
    assert.equal(link.machine.answered, answered + 10, 'a host within the line’s rate is answered on the new connection');
    await link.close();
  });
});
