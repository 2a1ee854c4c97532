// A ticket printer that misbehaves in ways the protocol shows (a review of 4 December): it refuses
// the ticket layout, prints something nobody asked for, prints one job twice, or holds jobs the
// driver had to reset it to be rid of. Before, each was only a sampled log line: no one at the
// table heard of it, and a printer printing tickets on its own went on printing. Now each raises
// `printer-misbehaved` at the printer's station, latched, with what it did, for an attendant to
// clear after looking at the printer and its last tickets. Garbage on the wire is not one: a noisy
// cable is `printer-offline`'s business when it loses the link.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printerTilts } from '../testing/printer-tilts.js';

function rig() {
  const r = printerTilts({ terminalId: 'T-PM' });
  return { emit: r.emit, raised: () => r.journalled('tilt.raise'), station: r.station, close: r.close };
}

describe("a printer's misbehaviour is a fault at its station", () => {
  it('a refused layout, an unsolicited or repeated print, a reset to drop held jobs: printer-misbehaved, journalled once while it stands', () => {
    const r = rig();
    try {
      r.emit({ type: 'failure', reason: 'the printer refused the ticket layout (data-error)', failure: { code: 'layout-refused', faults: ['data-error'] } });
      const first = r.raised().filter((t) => t.kind === 'printer-misbehaved');
      assert.equal(first.length, 1, JSON.stringify(r.raised()));
      assert.equal(first[0]?.station, r.station);
      assert.match(first[0]?.detail ?? '', /refused the ticket layout/);
      r.emit({ type: 'protocolViolation', rule: 'unsolicited-print', report: 'print cycle with no job' });
      r.emit({ type: 'protocolViolation', rule: 'repeated-print', report: 'more than one print cycle' });
      assert.equal(r.raised().filter((t) => t.kind === 'printer-misbehaved').length, 1, 'one fault while it stands');
    } finally {
      r.close();
    }
  });

  it('an unsolicited print alone raises it, saying what the printer did', () => {
    const r = rig();
    try {
      r.emit({ type: 'protocolViolation', rule: 'unsolicited-print', report: 'print cycle with no job (busy true)' });
      const got = r.raised().filter((t) => t.kind === 'printer-misbehaved');
      assert.equal(got.length, 1);
      assert.match(got[0]?.detail ?? '', /a print cycle that no ticket asked for/);
    } finally {
      r.close();
    }
  });

  it('garbage on the wire raises nothing', () => {
    const r = rig();
    try {
      r.emit({ type: 'protocolViolation', rule: 'garbage', report: 'bytes that are no TCL status reply' });
      assert.deepEqual(r.raised(), []);
    } finally {
      r.close();
    }
  });
});
