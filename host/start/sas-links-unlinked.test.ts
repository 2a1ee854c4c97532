// A station whose SAS link was taken out of the configuration between two runs: what its casino
// system had ordered (a game lock, play or the acceptor disabled) can no longer be lifted by that
// system, and those faults clear themselves only (`clears: 'auto'`), so the start ends them
// (docs/sas.md, "The host's wiring").
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig } from '../config/table-config.js';
import { entriesOfTypes, Ledger } from '../../ledger/index.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { quietSasLinks } from './sas-links-test-kit.js';

const SAS_FAULTS = ['sas-aft-locked', 'sas-play-disabled', 'sas-bills-disabled', 'sas-link-stop', 'sas-link-down'] as const;

function journal() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-unlinked-'));
  const ledger = Ledger.open({ file: path.join(dir, 'ledger.sqlite'), terminalId: 'T-UNLINKED' });
  ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
  return { dir, ledger, done: () => (ledger.close(), rmSync(dir, { recursive: true, force: true })) };
}

describe('a station whose SAS link was removed from the configuration', () => {
  it('has every fault its casino system ordered cleared at the start, with why in the journal; other faults stay', async () => {
    const { dir, ledger, done } = journal();
    try {
      const log = pino({ level: 'silent' });
      const before = new TiltManager({ ledger, log });
      for (const kind of SAS_FAULTS) before.raise(kind, { station: 2 });
      before.raise('bill-jam', { station: 2, detail: 'a note stuck' });
      // Station 1 keeps its link: a disable its system ordered stands over the restart, as before.
      before.raise('sas-play-disabled', { station: 1 });
      // The restart: the journal's faults come back, and the configuration no longer gives station 2 a SAS link.
      const tilts = new TiltManager({ ledger, log });
      tilts.restore();
      assert.deepEqual(
        tilts
          .list()
          .filter((t) => t.station === 2)
          .map((t) => t.kind)
          .sort(),
        [...SAS_FAULTS, 'bill-jam'].sort(),
      );
      const base = simulatedTableConfig('war');
      const config = {
        ...base,
        stations: base.stations.map((s) => (s.station === 1 ? { ...s, sas: { link: `serial:${path.join(dir, 'no-such-port')}`, address: 1 } } : s)),
      };
      assert.ok(config.stations.every((s) => s.station === 1 || !s.sas) && config.remoteSas.length === 0);
      const links = quietSasLinks({ config, ledger, tilts, log, dir });
      links.start();
      await links.close();
      assert.deepEqual(
        tilts
          .list()
          .filter((t) => t.station === 1)
          .map((t) => t.kind),
        ['sas-play-disabled'],
        'a station still linked keeps its orders',
      );
      assert.deepEqual(
        tilts
          .list()
          .filter((t) => t.station === 2)
          .map((t) => t.kind),
        ['bill-jam'],
        'only the fault no casino system ordered is left',
      );
      const clears = [...entriesOfTypes(ledger, ['tilt.clear'])].map(
        (e) => (JSON.parse(e.body) as { payload: { kind: string; station?: number; detail?: string; say?: { key: string } } }).payload,
      );
      assert.deepEqual(clears.map((c) => c.kind).sort(), [...SAS_FAULTS].sort());
      for (const c of clears) {
        assert.equal(c.station, 2);
        assert.equal(c.say?.key, 'tiltDetail.sasLinkRemoved');
        assert.match(c.detail ?? '', /no SAS link/);
      }
      // A second start finds nothing more to clear.
      const again = new TiltManager({ ledger, log });
      again.restore();
      assert.deepEqual(
        again
          .list()
          .filter((t) => t.station === 2)
          .map((t) => t.kind),
        ['bill-jam'],
      );
      assert.deepEqual(
        again
          .list()
          .filter((t) => t.station === 1)
          .map((t) => t.kind),
        ['sas-play-disabled'],
      );
    } finally {
      done();
    }
  });
});
