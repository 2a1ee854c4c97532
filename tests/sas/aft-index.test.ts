// A 0x72 transfer whose transaction index is not 00 (SAS 6.02 §8.3: "when initiating a transfer,
// the transaction index must be zero"; only the interrogation reads positions 01–FF). The public
// Aristocrat platform refuses it 82 (not a valid transfer function, "wrong transaction index");
// here it was taken as a transfer and the credit moved. Now it is 82 and nothing is journalled.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AFT_STATUS, aftTransferPoll } from '../../hardware/sas/aft.js';
import { billCredit } from '../../ledger/fixtures.js';
import { entryCount, Ledger } from '../../ledger/index.js';
import { transfer72Bytes } from './host/aft.js';
import { appendCrc } from './host/codec.js';
import { fixedLocal } from '../../host/testing/aft-request.js';
import { StationAft } from '../../host/devices/sas-aft.js';

const STATION = 2;
const ASSET = 4_242;

describe('AFT: a transfer with a transaction index other than 00', () => {
  let dir: string;
  let ledger: Ledger;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aft-index-'));
    ledger = Ledger.open({ file: path.join(dir, 'ledger.sqlite'), terminalId: 'T-AFT' });
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
    ledger.append(billCredit(STATION, 10_000, 'note-1'));
  });
  afterEach(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const station = () =>
    new StationAft({
      ledger,
      station: STATION,
      assetNumber: ASSET,
      limit: 1_000_000,
      refuseIn: () => null,
      refuseOut: () => null,
      local: fixedLocal(2026, 12, 6),
    });
  /** The request as the system sends it, its transaction index (byte 4) set to `index`, the CRC made again. */
  const poll = (index: number, type: number, id: string): Uint8Array => {
    const bytes = transfer72Bytes(1, { type, cashable: 2_500, asset: ASSET, id }).slice(0, -2);
    bytes[4] = index;
    return Uint8Array.from(appendCrc(bytes));
  };
  /** 0x72's answer payload: length, position, status, … */
  const statusOf = (r: ReturnType<typeof aftTransferPoll>): number | undefined => (r.kind === 'payload' ? r.payload[2] : undefined);

  for (const [name, type] of [
    ['in', 0x00],
    ['out', 0x80],
  ] as const) {
    it(`${name}: refused 82, nothing moved; the same request with index 00 moves`, () => {
      const s = station();
      for (const index of [0x01, 0x7f, 0x81, 0xff])
        assert.equal(statusOf(aftTransferPoll(poll(index, type, `IDX-${name}-${index}`), s)), AFT_STATUS.notValidFunction, `index ${index}`);
      assert.equal(entryCount(ledger, ['aft.in', 'aft.out']), 0);
      assert.equal(ledger.credit(STATION), 10_000);
      assert.equal(statusOf(aftTransferPoll(poll(0x00, type, `IDX-${name}-0`), s)), AFT_STATUS.full);
      assert.equal(ledger.credit(STATION), type === 0x00 ? 12_500 : 7_500);
    });
  }
});
