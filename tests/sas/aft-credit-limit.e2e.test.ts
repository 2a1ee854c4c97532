// AFT at the station credit limit through the real host start (docs/sas.md, "The station credit
// limit"): station 1 on a socat pty pair with `creditLimit` 3,000.00 and an AFT limit of 2,000.00,
// the casino's system played by the host simulator. It asks one unit over the room, full only
// (84, nothing journalled), the most 5 BCD digits say with partial allowed (the room moves, 01),
// and again at the limit (84); 0x74 reports the room as the transfer limit, 0 and no transfer in
// at the limit. The configuration's limit reaches the SAS link as the host wires it, and each 84
// reaches station 1's screen (`cashout.aftIn`, with the amount asked) and no other's.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { entryCount } from '../../ledger/index.js';
import type { StationState } from '../../protocol/index.js';
import { SasHost, type HostIo } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import * as A from './host/aft.js';

const STATION = 1;
const ADDRESS = 13;
const ASSET = 48_000_002;
const AFT_LIMIT = 200_000;
const CREDIT_LIMIT = 300_000;

describe('AFT at the station credit limit through the host start', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-aft-limit-'));
  let running: RunningHost | null = null;
  let pair: Awaited<ReturnType<typeof ptyPair>>;
  let io: HostIo;
  let h: SasHost;
  const base = simulatedTableConfig('war');
  const config = TableConfig.parse({
    ...base,
    creditLimit: CREDIT_LIMIT,
    stations: base.stations.map((s) =>
      s.station === STATION
        ? { ...s, sas: { link: `serial:${path.join(dir, 'sas-machine')}`, address: ADDRESS, aft: { assetNumber: ASSET, limit: AFT_LIMIT } } }
        : s,
    ),
  });
  const credit = (): number => running?.ledger.credit(STATION) ?? -1;
  const aftIns = (): number => (running ? entryCount(running.ledger, ['aft.in']) : -1);
  /** What a station's screen is told of a transfer in refused (`cashout.aftIn`), or undefined. */
  const said = (station: number) => {
    const a = (running?.screens.hub.state(`station/${station}`) as StationState | undefined)?.cashout?.aftIn;
    return a && { reason: a.reason, amount: a.amount };
  };
  const ask = (id: string, cashable: number, more: Partial<A.TransferAsk> = {}): A.TransferAsk => ({ type: 0x00, cashable, asset: ASSET, id, ...more });

  before(async () => {
    pair = await ptyPair(dir);
    running = await startHost({
      dataDir: path.join(dir, 'data'),
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      config,
      simulatedDealer: false,
      sasTiming: { silenceMs: 60_000, ackTimeoutMs: 120_000 },
    });
    io = await openPtyHost(pair.host);
    h = new SasHost(io, ADDRESS);
    for (let i = 0; i < 5; i++) {
      await h.pollOther();
      if ((await h.exchange([0x80 | ADDRESS], 1, 3_000)) !== null) return;
    }
    assert.fail('the machine never answered');
  });
  after(async () => {
    await io?.close();
    await running?.close();
    pair?.socat.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the transfer limit first, then the room the credit limit leaves; one unit over it is 84 and moves nothing', async () => {
    assert.equal((await A.status74(h)).limit, AFT_LIMIT);
    assert.equal((await A.transfer72(h, ask('CL-IN-1', AFT_LIMIT))).status, 0x00);
    const room = CREDIT_LIMIT - AFT_LIMIT;
    assert.equal((await A.status74(h)).limit, room);
    assert.equal((await A.transfer72(h, ask('CL-IN-2', room + 1))).status, 0x84);
    assert.deepEqual([credit(), aftIns()], [AFT_LIMIT, 1]);
    // The player at station 1 is told, with the amount; station 2's screen is told nothing.
    assert.deepEqual(said(STATION), { reason: 'credit-limit', amount: room + 1 });
    assert.equal(said(2), undefined);
  });

  it('the most 5 BCD digits say, partial allowed: the room moves (01); at the limit 84, and 0x74 offers nothing in', async () => {
    const t = await A.transfer72(h, ask('CL-IN-3', 9_999_999_999, { code: 0x01 }));
    assert.deepEqual([t.status, t.cashable], [0x01, CREDIT_LIMIT - AFT_LIMIT]);
    assert.equal(credit(), CREDIT_LIMIT);
    assert.equal(said(STATION), undefined, 'a transfer in that moved takes the refusal away');
    assert.equal((await A.transfer72(h, ask('CL-IN-4', 1, { code: 0x01 }))).status, 0x84);
    assert.deepEqual(said(STATION), { reason: 'credit-limit', amount: 1 });
    const s = await A.status74(h);
    assert.deepEqual([s.limit, (s.available ?? 0) & 0x01, s.cashable], [0, 0, CREDIT_LIMIT]);
    assert.deepEqual([credit(), aftIns()], [CREDIT_LIMIT, 2]);
    // A lock for a transfer in (condition bit 0) cannot be met at the limit: not taken, and the
    // station stays in play (a review of 2 December: it was locked for a transfer answered 84).
    assert.equal((await A.status74(h, 0x00, 0x01, 500)).lock, A.LOCK.none);
    assert.ok(!running?.floor.tilts.list().some((t) => t.kind === 'sas-aft-locked'), 'no sas-aft-locked fault');
  });
});
