// The implied ACK of a general poll's answer takes out the exception that answer reported, and no
// other (SAS 6.02 §2.2.1, §3.1). It took out whatever of that code stood first when the ACK came:
// an overflow (§2.2.1: the oldest is lost, 70 reported) that dropped the reported exception meanwhile
// let the ACK take the next one of the same code, which the host never had; a flag withdrawn and
// raised anew meanwhile (the machine's own 6F as a lock ends, the journal's for the next lock) was
// taken out unreported.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SasMachine } from '../../hardware/sas/machine.js';
import type { SasLinkEvent } from '../../hardware/sas/types.js';
import { ManualClock, MemoryGame } from './fixture.js';

const A = 5;

function rig() {
  const out: number[][] = [];
  const machine = new SasMachine({ address: A, game: new MemoryGame(), clock: new ManualClock(), write: (b) => out.push([...b]) });
  const events: SasLinkEvent[] = [];
  machine.events.on((e) => events.push(e));
  const send = (bytes: number[]): void => bytes.forEach((b, i) => machine.char(b, i === 0));
  send([0x80 | 1]); // synchronised
  const tagsOf = (type: 'exception-acked' | 'exception-lost'): (string | undefined)[] => events.flatMap((e) => (e.type === type ? [e.tag] : []));
  return { machine, send, take: () => out.splice(0).map((b) => b[0]), tagsOf };
}

describe('SAS exceptions: the ACK takes out what was reported', () => {
  it('the reported exception lost to an overflow before its ACK: the ACK takes out nothing else; 70, then the next of its code', () => {
    const r = rig();
    r.machine.raise(0x47, 'a'); // a $1 bill
    r.machine.raise(0x47, 'b'); // another
    for (let i = 0; i < 18; i++) r.machine.raise(i % 2 === 0 ? 0x7e : 0x7f, `g${i}`);
    r.send([0x80 | A]);
    assert.deepEqual(r.take(), [0x47]);
    r.machine.raise(0x7e, 'z'); // the queue is full: the oldest (a) is lost
    assert.deepEqual(r.tagsOf('exception-lost'), ['a']);
    r.send([0x80 | 1]); // the implied ACK of the answer that reported a
    assert.deepEqual(r.tagsOf('exception-acked'), [], 'b was never reported: it stays');
    r.send([0x80 | A]);
    r.send([0x80 | 1]);
    r.send([0x80 | A]);
    assert.deepEqual(r.take(), [0x70, 0x47], '70 at the next opportunity, then b');
    r.send([0x80 | 1]);
    assert.deepEqual(r.tagsOf('exception-acked'), [undefined, 'b']);
    assert.equal(r.machine.exceptions.queued, 19, 'b out, the rest kept');
  });

  it('a flag withdrawn and raised anew before the ACK of its report: the new one stays, to be reported', () => {
    const r = rig();
    r.machine.raise(0x6f); // the machine's own copy (untagged)
    r.send([0x80 | A]);
    assert.deepEqual(r.take(), [0x6f]);
    assert.equal(r.machine.exceptions.withdrawUntagged(0x6f), true);
    r.machine.raise(0x6f, 'lock-2');
    r.send([0x80 | 1]);
    assert.deepEqual(r.tagsOf('exception-acked'), [], 'lock-2 was never reported');
    r.send([0x80 | A]);
    assert.deepEqual(r.take(), [0x6f]);
    r.send([0x80 | 1]);
    assert.deepEqual(r.tagsOf('exception-acked'), ['lock-2']);
  });

  it('an untagged flag taken over by a tagged raise before the ACK of its report: that one report answers for it', () => {
    const r = rig();
    r.machine.raise(0x51);
    r.send([0x80 | A]);
    assert.deepEqual(r.take(), [0x51]);
    r.machine.raise(0x51, 'hp');
    r.send([0x80 | 1]);
    assert.deepEqual(r.tagsOf('exception-acked'), ['hp']);
    r.send([0x80 | A]);
    assert.deepEqual(r.take(), [0x00]);
  });

  it('a poll whose address byte was hit into a general poll to this machine reports an exception the host never reads: its next poll acknowledges nothing', () => {
    // The host's 05 1C (or any longer poll) with its address byte hit on the line into 85: the
    // machine answers the general poll (the exception goes to a host waiting for 1C's answer, which
    // discards it), then the data byte after it shows it was no general poll. With no longer
    // answer held before it, that general poll's answer stayed pending, and the host's retry of 1C,
    // a different poll, acknowledged it: the exception was taken out, never read (before this fix).
    const r = rig();
    r.machine.raise(0x11, 'door');
    r.send([0x80 | A, 0x1c]); // 05 1C, its address byte hit into 85
    assert.deepEqual(r.take(), [0x11], 'answered as a general poll, before the data byte shows otherwise');
    r.send([A, 0x1c]); // the host's retry, clean
    assert.deepEqual(r.take(), [A], '1C answered');
    assert.deepEqual(r.tagsOf('exception-acked'), [], 'the exception the host never read stays');
    r.send([0x80 | A]);
    assert.deepEqual(r.take(), [0x11], 'and is reported to its general poll');
    r.send([0x80 | 1]);
    assert.deepEqual(r.tagsOf('exception-acked'), ['door']);
  });

  it('a longer poll hit into a general poll while a general poll’s answer awaits its ACK: that answer stays pending, acknowledged once', () => {
    const r = rig();
    r.machine.raise(0x11, 'a');
    r.machine.raise(0x12, 'b');
    r.send([0x80 | A]);
    assert.deepEqual(r.take(), [0x11]);
    r.send([0x80 | A, 0x1c]); // the host, having 11, sends 05 1C, hit into 85: the same bytes as the general poll, its repeat
    assert.deepEqual(r.take(), [0x11]);
    r.send([A, 0x1c]); // the clean retry: the implied ACK of 11, which the host had
    assert.deepEqual(r.tagsOf('exception-acked'), ['a']);
    r.send([0x80 | A]);
    assert.deepEqual(r.take(), [A, 0x12], '1C’s answer, then 12');
  });
});
