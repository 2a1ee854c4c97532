// A 0x72 transfer whose transaction index is not 00 (SAS 6.02 §8.3: "when initiating a transfer,
// the transaction index must be zero"; only the interrogation reads positions 01–FF). The public
// Aristocrat platform refuses it 82 (not a valid transfer function, "wrong transaction index");
// here it was taken as a transfer and the credit moved. Now it is 82 and nothing is journalled.
//
// 0x72's interrogation in the full form (SAS 6.02 §8.3, Table 8.3a). The system may interrogate
// with a whole request's layout, transfer code FF (or FE, status only) and a transaction index:
// the fields after the index are not read, and the answer is the record at that index, as for the
// short form (length 02). The public Aristocrat SAS client reads it so (LP72AftTransferFundsParser:
// for FE/FF "no more data for an interrogate"). Until 7 December the station NACKed every
// interrogation whose length was not 02 (`hardware/sas/aft.ts`): a system that interrogates in the
// full form after a lost answer could never read whether its transfer moved.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AFT_STATUS, aftTransferPoll } from '../../hardware/sas/aft.js';
import { billCredit } from '../../ledger/fixtures.js';
import { entryCount, Ledger } from '../../ledger/index.js';
import { read72, transfer72Bytes, type TransferAsk } from './host/aft.js';
import { appendCrc } from './host/codec.js';
import { fixedLocal } from '../../host/testing/aft-request.js';
import { StationAft } from '../../host/devices/sas-aft.js';

const STATION = 2;
const ASSET = 4_242;
const ADDRESS = 1;

describe("AFT: 0x72's transaction index", () => {
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
  describe('a transfer with a transaction index other than 00', () => {
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

  describe('an interrogation in the full form', () => {
    /** The answer as the host simulator reads it: address, command, then the payload. */
    const ask = (s: StationAft, bytes: number[]) => {
      const r = aftTransferPoll(Uint8Array.from(bytes), s);
      assert.equal(r.kind, 'payload', `answered, not ${r.kind}`);
      return read72([ADDRESS, 0x72, ...(r.kind === 'payload' ? r.payload : [])]);
    };
    const transfer = (id: string, cashable: number, more: Partial<TransferAsk> = {}): TransferAsk => ({ type: 0x00, cashable, asset: ASSET, id, ...more });
    const short = (index: number, code = 0xff): number[] => appendCrc([ADDRESS, 0x72, 0x02, code, index]);

    it('reads the record at its index as the short form does, and moves nothing whatever its other fields say', () => {
      const s = station();
      const t1 = ask(s, transfer72Bytes(ADDRESS, transfer('CMS-1', 2_500)));
      const t2 = ask(s, transfer72Bytes(ADDRESS, transfer('CMS-2', 1_000)));
      assert.deepEqual([t1.status, t2.status], [0x00, 0x00]);
      assert.equal(ledger.credit(STATION), 13_500);
      for (const code of [0xff, 0xfe])
        for (const index of [0x00, 0x01, 0x02, 0x81, 0x82, 0x05]) {
          // The full form carrying a new transaction id and an amount: an interrogation still.
          const full = ask(s, transfer72Bytes(ADDRESS, transfer(`CMS-NEW-${code}-${index}`, 9_999, { code, index })));
          assert.deepEqual(full, ask(s, short(index, code)), `code ${code.toString(16)} index ${index.toString(16)}: the short form's answer`);
        }
      assert.equal(ask(s, transfer72Bytes(ADDRESS, transfer('X', 1, { code: 0xff, index: 0x00 }))).id, 'CMS-2', 'index 00: the current transaction');
      assert.equal(ask(s, transfer72Bytes(ADDRESS, transfer('X', 1, { code: 0xff, index: 0x01 }))).id, 'CMS-1', 'index 01: the first');
      assert.equal(ask(s, transfer72Bytes(ADDRESS, transfer('X', 1, { code: 0xff, index: 0x05 }))).status, 0xff, 'an empty position: no information');
      assert.equal(entryCount(ledger, ['aft.in', 'aft.out']), 2, 'nothing more journalled');
      assert.equal(ledger.credit(STATION), 13_500, 'nothing more moved');
    });

    it('an interrogation too short to hold its index (length 01) is answered as no valid function, nothing read from its CRC', () => {
      const s = station();
      ask(s, transfer72Bytes(ADDRESS, transfer('CMS-1', 2_500)));
      // Length 01: the code alone, the next byte the CRC's.
      const one = appendCrc([ADDRESS, 0x72, 0x01, 0xff]);
      assert.equal(ask(s, one).status, 0x82);
      assert.equal(ask(s, one).position, 0x00);
      assert.equal(ledger.credit(STATION), 12_500);
    });
  });
});
