import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openBillAcceptor } from '../../hardware/open.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { silent } from '../testing/floor-kit.js';
import { BillAcceptors } from './bill-acceptors.js';

describe('bill acceptor inhibition by the floor', () => {
  it('opens a station disabled before start (a fault restored from the journal) inhibited, the others accepting', async () => {
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 3) });
    const enabled = new Map<number, boolean | undefined>();
    let n = 0;
    const acceptors = new BillAcceptors({
      config, ledger: null as never, log: silent, onCreditChanged: () => undefined,
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
