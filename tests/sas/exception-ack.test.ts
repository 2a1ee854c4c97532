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
});
