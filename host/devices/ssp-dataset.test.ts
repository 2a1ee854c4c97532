// The table's SSP dataset (config `sspDataset`) reaches each SSP station's driver, which holds the
// validator to it (docs/security.md, "A hostile SSP dataset"): a table whose dataset says channel 1
// is another note than the validator's gets no note taken on that channel, and a violation.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openBillAcceptor, type OpenedBillAcceptor } from '../../hardware/open.js';
import type { BillAcceptorEvent } from '../../hardware/billacceptor/types.js';
import { openLedger } from '../../ledger/index.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { silent } from '../testing/table-kit.js';
import { BillAcceptors } from './bill-acceptors.js';
import { tableCreditRule } from './credit-rule/table-credit-rule.js';

describe('the table’s SSP dataset', () => {
  it('is given to the SSP stations’ drivers only; a validator whose channel 1 is not the table’s takes no note on it', async (t) => {
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({
      ...base,
      // The simulator's HKD/MOP channel 1 is the 10 note; this table says its validators have the 20 there.
      sspDataset: [20, 20, 50, 100, 500, 1000],
      stations: [
        { station: 1, seat: 1, billAcceptor: 'sim', billProtocol: 'ssp' },
        { station: 2, seat: 2, billAcceptor: 'sim', billProtocol: 'id003' },
      ],
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ssp-dataset-'));
    const ledger = openLedger(dir, 'SIM-WAR-01');
    t.after(() => {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const given = new Map<string, readonly number[] | undefined>();
    const events: BillAcceptorEvent[] = [];
    let ssp: OpenedBillAcceptor | null = null;
    const acceptors = new BillAcceptors({
      config,
      ledger,
      log: silent,
      credits: tableCreditRule({ config, ledger, log: silent, fault: () => undefined }),
      open: (spec, options) => {
        given.set(options.protocol, options.dataset);
        const d = openBillAcceptor(spec, { ...options, pollIntervalMs: 5, replyTimeoutMs: 100 });
        if (options.protocol === 'ssp') {
          ssp = d;
          d.on((e) => events.push(e));
        }
        return d;
      },
    });
    try {
      acceptors.start();
      assert.deepEqual(given.get('ssp'), [20, 20, 50, 100, 500, 1000]);
      assert.equal(given.get('id003'), undefined);
      const until = async (done: () => boolean) => {
        for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
        assert.ok(done(), `events: ${events.map((e) => e.type).join(', ')}`);
      };
      await until(() => events.some((e) => e.type === 'idle' && e.enabled));
      const v = events.find((e) => e.type === 'protocolViolation');
      assert.equal(v?.type === 'protocolViolation' ? v.rule : undefined, 'dataset-mismatch');
      const sim = (ssp as OpenedBillAcceptor | null)?.simulator;
      assert.ok(sim);
      sim.insertNote(10);
      await until(() => sim.returned.length === 1);
      assert.deepEqual(sim.cashbox, []);
      assert.ok(!events.some((e) => e.type === 'escrowed' || e.type === 'credit'));
    } finally {
      await acceptors.close();
    }
  });
});
