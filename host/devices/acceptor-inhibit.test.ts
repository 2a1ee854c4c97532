import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openBillAcceptor } from '../../hardware/open.js';
import { openLedger } from '../../ledger/index.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { silent } from '../testing/floor-kit.js';
import { BillAcceptors } from './bill-acceptors.js';

describe('bill acceptor inhibition by the floor', () => {
  it('opens a station disabled before start (a fault restored from the journal) inhibited, the others accepting', async (t) => {
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 3) });
    const enabled = new Map<number, boolean | undefined>();
    let n = 0;
    // The acceptors read the journal for a note left in escrow: an empty ledger has none.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'inhibit-'));
    const ledger = openLedger(dir, 'SIM-WAR-01');
    t.after(() => {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const acceptors = new BillAcceptors({
      config, ledger, log: silent, onCreditChanged: () => undefined,
      open: (spec, options) => {
        enabled.set(++n, options.enabled);
        return openBillAcceptor(spec, options);
      },
    });
    acceptors.setStationEnabled(2, false);
    acceptors.start();
    await acceptors.close();
    assert.deepEqual([...enabled], [[1, true], [2, false], [3, true]]);
  });
});
