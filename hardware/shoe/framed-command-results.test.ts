// A framed shoe's command results are taken as they arrive, not behind the events before them
// (review of 3 December). The session read one frame at a time and journalled each event before it
// read the next: a LOCK's CMD_RESULT that came while an event's journal write was slow waited in
// the queue behind it, its three tries timed out, and the host took the shoe for one that cannot
// lock (`lockUnavailable` for the rest of the link: cards drawn out of turn put the table on hold).
// The events themselves stay in order, each journalled before its ACK.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openShoe, type OpenedShoe } from '../open.js';
import { EventRecorder } from '../sim/recorder.js';
import type { ShoeSimulator } from './simulator.js';
import type { SequencedShoeEvent, ShoeEvent } from './types.js';

const FAST = { replyTimeoutMs: 60, heartbeatMs: 80, retries: 3, reconnectBaseMs: 5, reconnectMaxMs: 40, usbReadTimeoutMs: 30, lineTimeoutMs: 60 };

/** A shoe whose journal write of each card waits until the test lets it go. */
function slowJournalRig() {
  const journal: SequencedShoeEvent[] = [];
  const held: (() => void)[] = [];
  const rec = new EventRecorder<ShoeEvent>();
  const dev: OpenedShoe = openShoe('sim', {
    protocol: 'framed',
    seed: 42,
    ...FAST,
    sim: { retransmitMs: 40, keepReceived: true },
    onEvent: async (e) => {
      if (e.type === 'card') await new Promise<void>((resolve) => held.push(resolve));
      journal.push(e);
    },
  });
  dev.on(rec.listener);
  const sim = dev.simulator as NonNullable<OpenedShoe['simulator']> & ShoeSimulator;
  return { dev, sim, rec, journal, held };
}

describe('framed shoe: a command answered while an event is being journalled', () => {
  it('LOCK is confirmed while a card waits on a slow journal; the card is then journalled once, in order', async () => {
    const r = slowJournalRig();
    try {
      await r.rec.untilCount('connected');
      r.sim.loadShoe({ seed: 5 });
      await r.rec.until(() => r.journal.some((e) => e.type === 'shoeLoaded'));
      const drawn = r.sim.drawCard();
      assert.ok(drawn);
      await r.rec.until(() => r.held.length === 1);
      // The card's journal write is still running: the LOCK's answer must not wait behind it.
      assert.equal(await r.dev.lock(), true, 'the shoe said OK: the host must hear it');
      assert.equal(r.sim.drawCard(), null, 'the gate is locked');
      assert.equal(r.journal.filter((e) => e.type === 'card').length, 0, 'not journalled yet');
      r.held.shift()?.();
      await r.rec.until(() => r.journal.some((e) => e.type === 'lock'));
      const kinds = r.journal.map((e) => e.type);
      assert.deepEqual(
        kinds.filter((k) => k === 'card' || k === 'lock'),
        ['card', 'lock'],
        'the card drawn before the lock, then the lock: in order, once each',
      );
      const seqs = r.journal.map((e) => e.sequence);
      assert.deepEqual(
        seqs,
        [...seqs].sort((a, b) => a - b),
        'sequence order kept',
      );
    } finally {
      for (const release of r.held) release();
      await r.dev.close();
    }
  });
});
