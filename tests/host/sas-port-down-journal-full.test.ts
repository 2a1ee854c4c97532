// A SAS uart: port that is lost (or will not open) while the journal refuses
// a write: sas-links.ts portDown → tilts.raise('sas-link-down') throws inside Link.loop
// (hardware/link.ts:118, outside its try), whose promise nobody catches (link.ts:66 `this.running
// ??= this.loop()`): an unhandled rejection, the host process ends (and the loop, had it lived, is
// over: the port is never opened again). A review of 2 December, H3.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { childCase, heldKinds, runInChild } from '../../host/testing/in-child.js';
import type { SasPortProblem } from '../../hardware/sas/link.js';

if (childCase()) {
  const pino = (await import('pino')).default;
  const { Ledger } = await import('../../ledger/index.js');
  const { TiltManager } = await import('../../host/tilts/tilt-manager.js');
  const { refusingOnce } = await import('../../host/testing/refusing-ledger.js');
  const { SasLink } = await import('../../hardware/sas/link.js');
  const { MemoryGame } = await import('../sas/fixture.js');
  const log = pino({ level: 'silent' });
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ZZ' });
  const tilts = new TiltManager({ ledger, log });
  refusingOnce(ledger, 'tilt.raise');
  const spec = 'uart:/dev/ttyUSB7';
  // As SasLinks.portDown does for a uart: line (sas-links.ts, portDown).
  const { linkDownSaid } = await import('../../host/start/sas-links.js');
  const portDown = (problem: SasPortProblem) => tilts.raise('sas-link-down', { station: 1, say: linkDownSaid(spec, { port: problem.why }) });
  let opens = 0;
  const link = new SasLink(() => (opens++, Promise.reject(new Error('ENOENT: no such device'))), {
    address: 1,
    game: new MemoryGame(),
    reconnectBaseMs: 50,
    onPortDown: portDown,
  });
  link.start();
  setTimeout(() => {
    console.log(`host still alive; opens: ${opens > 2 ? 'several' : opens}; faults: ${heldKinds(tilts)}`);
    process.exit(0);
  }, 1000);
} else {
  describe('a SAS port lost while the journal is full', () => {
    it('the host process survives, the port is opened again, the link-down is held', () => {
      const r = runInChild(import.meta.url);
      assert.equal(r.status, 0, 'the host process died');
      assert.match(r.stdout, /host still alive; opens: several; faults: sas-link-down\n/);
    });
  });
}
