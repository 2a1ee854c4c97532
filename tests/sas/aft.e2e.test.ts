// AFT (issue 48 item 5; docs/sas.md, "AFT") through the real host start: station 1 on a socat pty
// pair with `stations[].sas.aft`, driven by the host simulator (tests/sas/host/aft.ts, from the
// document). The casino's system moves credit in and out by 0x72 with its transaction ids and
// reads the station by 0x74; it lies and loses answers: the same transaction id again, a lost
// answer asked again (the implied NACK) and interrogated, a damaged CRC, another asset number, a
// registration key, restricted credit, amounts above the limit or the credit; the host stopped
// and started on the same data folder. Every transfer is journalled before its answer and applied
// once; the SAS meters A0/B8 equal the ledger's.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, type TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { entryCount } from '../../ledger/index.js';
import { SasHost, type HostIo } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import * as A from './host/aft.js';
import * as P from './host/polls.js';

const STATION = 1;
const ADDRESS = 12;
const ASSET = 48_000_001;
const LIMIT = 200_000;
const AFT_COMPLETE = 0x69; // Table A-1
const TO_MACHINE = 0x00;
const TO_HOST = 0x80;

describe('AFT through the host start: transfers in and out, each once', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-aft-'));
  const dataDir = path.join(dir, 'data');
  let running: RunningHost | null = null;
  let pair: Awaited<ReturnType<typeof ptyPair>>;
  let io: HostIo;
  let h: SasHost;
  const config: TableConfig = (() => {
    const c = simulatedTableConfig('war');
    c.stations = c.stations.map((s) =>
      s.station === STATION
        ? { ...s, sas: { link: `serial:${path.join(dir, 'sas-machine')}`, address: ADDRESS, aft: { assetNumber: ASSET, limit: LIMIT } } }
        : s,
    );
    return c;
  })();
  const start = async (): Promise<RunningHost> =>
    (running = await startHost({
      dataDir,
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      config,
      simulatedDealer: false,
      sasTiming: { silenceMs: 60_000, ackTimeoutMs: 120_000 },
    }));
  const r = (): RunningHost => {
    assert.ok(running);
    return running;
  };
  const credit = (): number => r().ledger.credit(STATION);
  const meters = () => r().ledger.meters(`station:${STATION}`);
  /** After a start the machine opens its port a moment later: one poll with a long window (journal-exceptions.e2e.test.ts says why). */
  const firstPoll = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) {
      await h.pollOther();
      if ((await h.exchange([0x80 | ADDRESS], 1, 3_000)) !== null) return;
    }
    assert.fail('the machine never answered');
  };
  const drainUntil = async (code: number): Promise<void> => {
    for (let i = 0; i < 40; i++) {
      const got = await h.generalPoll();
      if (got === code) return;
      if (got === 0) await sleep(20);
    }
    assert.fail(`exception ${code.toString(16)} never came`);
  };
  const ask = (id: string, cashable: number, more: Partial<A.TransferAsk> = {}): A.TransferAsk => ({ type: TO_MACHINE, cashable, asset: ASSET, id, ...more });

  before(async () => {
    pair = await ptyPair(dir);
    await start();
    io = await openPtyHost(pair.host);
    h = new SasHost(io, ADDRESS);
    await firstPoll();
  });
  after(async () => {
    await io?.close();
    await running?.close();
    pair?.socat.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('0x74 reports the asset, the credit, the limit, not locked', async () => {
    const s = await A.status74(h);
    assert.deepEqual(
      { length: s.length, asset: s.asset, lock: s.lock, cashable: s.cashable, limit: s.limit, restricted: s.restricted, nonRestricted: s.nonRestricted },
      { length: 35, asset: ASSET, lock: 0xff, cashable: 0, limit: LIMIT, restricted: 0, nonRestricted: 0 },
    );
    assert.equal((s.available ?? 0) & 0x01, 0x01, 'transfers to the machine OK');
    assert.equal((s.available ?? 0) & 0x02, 0, 'nothing to transfer from it');
    assert.equal((await A.status74(h, 0x00)).lock, 0xff, 'a lock request with a zero timeout does not lock (tests/sas/aft-lock.e2e.test.ts locks)');
  });

  it('in: 0x72 type 00 credits the station once, journalled; 0x69; the same transaction id again moves nothing (81)', async () => {
    const t = await A.transfer72(h, ask('CMS-IN-0001', 50_000));
    assert.deepEqual([t.status, t.cashable, t.id, t.cumulative], [0x00, 50_000, 'CMS-IN-0001', 50_000]);
    assert.equal(credit(), 50_000);
    assert.equal(entryCount(r().ledger, ['aft.in']), 1);
    await drainUntil(AFT_COMPLETE);
    const again = await A.transfer72(h, ask('CMS-IN-0001', 50_000));
    assert.equal(again.status, 0x81);
    assert.equal(credit(), 50_000, 'not applied twice');
    assert.equal(entryCount(r().ledger, ['aft.in']), 1);
  });

  it('a lost answer: the same poll again is the same answer (no second credit); the interrogation reads the transfer', async () => {
    const bytes = A.transfer72Bytes(ADDRESS, ask('CMS-IN-0002', 1_000));
    await h.pollOther();
    const first = await h.exchange(bytes, 'variable');
    const repeat = await h.exchange(bytes, 'variable');
    assert.ok(first);
    assert.deepEqual(repeat, first, 'the implied NACK: the same bytes');
    assert.equal(credit(), 51_000);
    const now = await A.interrogate72(h, 0x00);
    assert.deepEqual([now.status, now.id, now.cashable, now.position], [0x00, 'CMS-IN-0002', 1_000, 0]);
    // The interrogation in the full form (Table 8.3a), its other fields a new transfer's: the same record, nothing moved.
    assert.deepEqual(await A.interrogate72Full(h, 0x00, ask('CMS-IN-NOT-A-TRANSFER', 7_000)), now);
    assert.equal(credit(), 51_000);
    const older = await A.interrogate72(h, 0x82);
    assert.deepEqual([older.id, older.position], ['CMS-IN-0001', 1]);
    assert.equal((await A.interrogate72(h, 0x02)).id, 'CMS-IN-0002', 'absolute position 2');
  });

  it('what the system may not do moves nothing: a damaged CRC, another asset, a registration key, restricted credit, above the limit, a lock required, a bonus', async () => {
    const bytes = A.transfer72Bytes(ADDRESS, ask('CMS-IN-0003', 1_000));
    bytes[bytes.length - 2] = (bytes[bytes.length - 2] ?? 0) ^ 0xff;
    await h.pollOther();
    assert.equal(await h.exchange(bytes, 'variable', 200), null, 'not answered');
    const statuses = [
      (await A.transfer72(h, ask('CMS-IN-0004', 1_000, { asset: ASSET + 1 }))).status,
      (await A.transfer72(h, ask('CMS-IN-0005', 1_000, { key: new Array<number>(20).fill(7) }))).status,
      (await A.transfer72(h, ask('CMS-IN-0006', 1_000, { restricted: 500 }))).status,
      (await A.transfer72(h, ask('CMS-IN-0007', LIMIT + 1))).status,
      (await A.transfer72(h, ask('CMS-IN-0008', 1_000, { flags: 0x40 }))).status,
      (await A.transfer72(h, ask('CMS-IN-0009', 1_000, { type: 0x10 }))).status,
    ];
    assert.deepEqual(statuses, [0x93, 0x88, 0x83, 0x84, 0x94, 0x82]);
    assert.equal((await A.interrogate72(h, 0x00)).status, 0x82, 'the current transaction is the last refused');
    assert.equal(credit(), 51_000);
    assert.equal(entryCount(r().ledger, ['aft.in', 'aft.out']), 2);
    const partial = await A.transfer72(h, ask('CMS-IN-0010', LIMIT + 5, { code: 0x01 }));
    assert.deepEqual([partial.status, partial.cashable], [0x01, LIMIT], 'partial allowed: the limit moves');
    assert.equal(credit(), 51_000 + LIMIT);
  });

  it('out: type 80 takes the credit to the player’s account; full only above the credit is refused; partial takes what there is', async () => {
    const full = credit();
    assert.equal((await A.transfer72(h, ask('CMS-OUT-0001', full + 1, { type: TO_HOST }))).status, 0x83);
    const out = await A.transfer72(h, ask('CMS-OUT-0002', 1_000, { type: TO_HOST }));
    assert.deepEqual([out.status, out.type, out.cumulative], [0x00, TO_HOST, 1_000]);
    const rest = await A.transfer72(h, ask('CMS-OUT-0003', full, { type: TO_HOST, code: 0x01 }));
    assert.deepEqual([rest.status, rest.cashable], [0x01, full - 1_000]);
    assert.equal(credit(), 0);
    assert.equal((await A.transfer72(h, ask('CMS-OUT-0004', 1, { type: TO_HOST }))).status, 0x87, 'nothing to give: unable now');
    const m = meters();
    const sas = await P.selected2F(h, [0xa0, 0xa1, 0xb8, 0xb9]);
    assert.deepEqual(Object.fromEntries(sas), { 160: m.aftInAmount, 161: m.aftIn, 184: m.aftOutAmount, 185: m.aftOut });
    assert.deepEqual([m.aftInAmount, m.aftIn, m.aftOutAmount, m.aftOut], [51_000 + LIMIT, 3, 51_000 + LIMIT, 2]);
  });

  it('a restart: the journal answers the interrogation, the same id is still not unique, nothing is applied twice', async () => {
    await r().close();
    running = null;
    await start();
    await firstPoll();
    const now = await A.interrogate72(h, 0x00);
    assert.deepEqual([now.id, now.status], ['CMS-OUT-0003', 0x01]);
    assert.equal((await A.transfer72(h, ask('CMS-IN-0001', 50_000))).status, 0x81);
    assert.equal(credit(), 0);
    // Bits 0–2 ask for host cash-out control, enabled, hard: a station without host cash-out takes the
    // transfer and not the setting. The answer's bits 0–2 are the machine's host cash-out state in
    // force (0x72's answer: "cashout to host forced by gaming machine", "currently disabled",
    // "currently soft"; 0x74 says the same, host cash-out status 00), bits 3–7 the request's; so
    // does its interrogation after a restart, read by the host's own codec. Before: the request's
    // 0x0B came back, telling the system cash-out to host was enabled and in its hands.
    const t = await A.transfer72(h, ask('CMS-IN-0011', 2_000, { flags: 0x0b | 0x40 }));
    assert.equal(t.status, 0x94, 'bit 6 is still honoured: not locked');
    const u = await A.transfer72(h, ask('CMS-IN-0011', 2_000, { flags: 0x0b }));
    assert.equal(u.status, 0x00);
    assert.equal(u.flags, 0x08);
    assert.equal(credit(), 2_000);
    assert.equal(entryCount(r().ledger, ['aft.in']), 4);
    await r().close();
    running = null;
    await start();
    await firstPoll();
    const after = await A.interrogate72(h, 0x00);
    assert.deepEqual([after.id, after.flags], ['CMS-IN-0011', 0x08]);
  });
});
