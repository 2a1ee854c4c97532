import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Outbox, SharedMessage, wholeUpdate, type Update } from './outbox.js';

/** A transport that writes nothing out until told: a stalled or slow screen. */
function stalled() {
  const written: string[] = [];
  const pending: (() => void)[] = [];
  return {
    written,
    transport: {
      write: (m: SharedMessage, done: () => void) => {
        written.push(m.text);
        pending.push(done);
      },
    },
    drain: () => {
      for (const d of pending.splice(0)) d();
    },
  };
}

describe('a connection’s send buffer', () => {
  it('holds at most its limit in flight, and a stalled screen gets the latest snapshot of each view when it catches up, never the ones between', () => {
    const s = stalled();
    const box = new Outbox(s.transport, { highWater: 10, maxReplies: 4 });
    box.latest('public:round', wholeUpdate(1, new SharedMessage('round-1-xxxxxxxxx')));
    // The first is in flight (over the limit now): everything after waits.
    for (let v = 2; v <= 50; v++) box.latest('public:round', wholeUpdate(v, new SharedMessage(`round-${v}-xxxxxxxxx`)));
    box.latest('view:station/101', wholeUpdate(1, new SharedMessage('own-1')));
    box.latest('view:station/101', wholeUpdate(2, new SharedMessage('own-2')));
    assert.deepEqual(s.written, ['round-1-xxxxxxxxx']);
    assert.equal(box.counters.superseded, 49, '48 rounds and 1 own part replaced while waiting');
    assert.ok(box.waiting() < 40, 'what waits is one message per slot');
    s.drain();
    s.drain();
    assert.deepEqual(s.written, ['round-1-xxxxxxxxx', 'round-50-xxxxxxxxx', 'own-2']);
  });

  it('keeps replies in order with the snapshots, and closes a connection that reads none of them', () => {
    const s = stalled();
    let overflowed = false;
    const box = new Outbox(s.transport, { highWater: 1, maxReplies: 3 }, () => (overflowed = true));
    box.latest('view:table', wholeUpdate(1, new SharedMessage('snap-1')));
    box.reply(new SharedMessage('ack-a'));
    box.latest('view:table', wholeUpdate(2, new SharedMessage('snap-2')));
    box.reply(new SharedMessage('ack-b'));
    s.drain();
    s.drain();
    s.drain();
    assert.deepEqual(s.written, ['snap-1', 'ack-a', 'snap-2', 'ack-b']);
    for (let i = 0; i < 4; i++) box.reply(new SharedMessage(`r${i}`));
    assert.equal(overflowed, true, 'the fourth unread reply closes it');
    box.latest('view:table', wholeUpdate(3, new SharedMessage('after')));
    s.drain();
    assert.ok(!s.written.includes('after'), 'nothing is sent once closed');
  });

  it('sends a patch only to a screen that was sent the version it follows; after a replaced update, or once the screen lost track, the whole part', () => {
    const s = stalled();
    const box = new Outbox(s.transport, { highWater: 1, maxReplies: 4 });
    const update = (v: number): Update => ({
      version: v,
      patch: v > 1 ? new SharedMessage(`p${v}`) : null,
      whole: () => new SharedMessage(`whole-${v}-xxxxxxxxxx`),
    });
    box.latest('public:round', update(1));
    s.drain();
    box.latest('public:round', update(2));
    s.drain();
    box.latest('public:round', update(3));
    s.drain();
    assert.deepEqual(s.written, ['whole-1-xxxxxxxxxx', 'p2', 'p3'], 'the first whole, then each patch');
    // A stalled screen: version 4 goes, 5 waits and is replaced by 6, which cannot go as a patch.
    box.latest('public:round', update(4));
    box.latest('public:round', update(5));
    box.latest('public:round', update(6));
    s.drain();
    s.drain();
    assert.deepEqual(s.written.slice(3), ['p4', 'whole-6-xxxxxxxxxx']);
    box.latest('public:round', update(7));
    s.drain();
    // The screen asked for the part whole: the current version goes whole, the next as a patch.
    box.forget('public:round');
    box.latest('public:round', update(7));
    s.drain();
    box.latest('public:round', update(8));
    s.drain();
    assert.deepEqual(s.written.slice(5), ['p7', 'whole-7-xxxxxxxxxx', 'p8']);
  });
});
