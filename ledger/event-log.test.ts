import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventLog } from './event-log.js';
import { billCredit } from './fixtures.js';
import { Ledger } from './ledger.js';

const page = { offset: 0, limit: 50 };

function journal(): Ledger {
  const l = Ledger.open({
    file: ':memory:',
    terminalId: 'T-1',
    clock: (() => {
      let t = Date.UTC(2025, 0, 1);
      return () => new Date((t += 60_000));
    })(),
  });
  l.append(billCredit(1, 1000, 'n1')); // 1
  l.append({ type: 'tilt.raise', payload: { kind: 'bill-jam', station: 1 } }); // 2
  l.append({ type: 'tilt.raise', payload: { kind: 'ledger-integrity' } }); // 3
  l.append({ type: 'tilt.raise', payload: { kind: 'from-a-later-version' } }); // 4
  l.append({ type: 'tilt.clear', payload: { kind: 'bill-jam', station: 1, raisedSeq: 2, automatic: true } }); // 5
  l.append({ type: 'door.open', payload: { door: 'main' } }); // 6
  return l;
}
const seqs = (r: { entries: { seq: number }[] }) => r.entries.map((e) => e.seq);

describe('event log', () => {
  it('newest first, paged, with whether more follow', () => {
    const l = journal();
    try {
      assert.deepEqual(seqs(eventLog(l, {}, page)), [6, 5, 4, 3, 2, 1]);
      assert.deepEqual(
        eventLog(l, {}, { offset: 1, limit: 2 }).entries.map((e) => e.seq),
        [5, 4],
      );
      assert.equal(eventLog(l, {}, { offset: 1, limit: 2 }).more, true);
      assert.equal(eventLog(l, {}, { offset: 4, limit: 2 }).more, false);
    } finally {
      l.close();
    }
  });

  it('by types (none: nothing), and by time, inclusive', () => {
    const l = journal();
    try {
      assert.deepEqual(seqs(eventLog(l, { types: ['door.open', 'bill.credit'] }, page)), [6, 1]);
      assert.deepEqual(eventLog(l, { types: [] }, page), { entries: [], more: false });
      const ts = [...l.entries()].map((e) => e.ts);
      assert.deepEqual(seqs(eventLog(l, { from: ts[1], to: ts[2] }, page)), [3, 2]);
    } finally {
      l.close();
    }
  });

  it('by time, newest by its own time (then by seq), when the clock was stepped back', () => {
    // Minutes 1–4, then the clock put back 3 minutes: entries 5 and 6 are dated between 1 and 3.
    const minute = (m: number) => new Date(Date.UTC(2025, 0, 1, 0, m, 30));
    const times = [1, 2, 3, 4, 1, 2].map(minute);
    let i = 0;
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-1', clock: () => times[i++] ?? minute(59) });
    try {
      for (let n = 1; n <= 6; n++) l.append({ type: 'door.open', payload: { door: `d${n}` } });
      const window = { from: minute(2).toISOString(), to: minute(3).toISOString() };
      // In the window: seqs 2 (minute 2), 3 (minute 3), 6 (minute 2).
      assert.deepEqual(seqs(eventLog(l, window, page)), [3, 6, 2]);
      assert.deepEqual(seqs(eventLog(l, { from: minute(2).toISOString() }, page)), [4, 3, 6, 2]);
      assert.deepEqual(seqs(eventLog(l, { to: minute(1).toISOString() }, page)), [5, 1]);
      const pages = [0, 1, 2].map((offset) => eventLog(l, window, { offset, limit: 1 }));
      assert.deepEqual(pages.map(seqs), [[3], [6], [2]], 'pages in the same order, none twice');
      assert.deepEqual(
        pages.map((p) => p.more),
        [true, true, false],
      );
    } finally {
      l.close();
    }
  });

  it('by a severity: its types, or faults of its kinds, and with the known kinds, faults of any other kind', () => {
    const l = journal();
    try {
      assert.deepEqual(seqs(eventLog(l, { severity: { types: ['door.open'], tiltKinds: ['bill-jam'] } }, page)), [6, 5, 2]);
      assert.deepEqual(seqs(eventLog(l, { severity: { types: [], tiltKinds: ['ledger-integrity'] } }, page)), [3]);
      assert.deepEqual(seqs(eventLog(l, { severity: { types: [], tiltKinds: [] } }, page)), []);
      assert.deepEqual(
        seqs(eventLog(l, { severity: { types: [], tiltKinds: ['bill-jam'], knownTiltKinds: ['bill-jam', 'ledger-integrity'] } }, page)),
        [5, 4, 2],
      );
      assert.deepEqual(
        seqs(eventLog(l, { types: ['tilt.raise'], severity: { types: ['door.open'], tiltKinds: ['bill-jam'] } }, page)),
        [2],
        'both filters hold',
      );
    } finally {
      l.close();
    }
  });
});
