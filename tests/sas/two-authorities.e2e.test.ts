// Issue 48's done-when: "the same ticket redeemed through SAS at one station and through the
// upstream at another pays once". Two real table hosts (startHost) sync to one real upstream
// (Fastify over PGlite): table A is validated by the casino's system over SAS (`tickets.authority:
// "sas"`; station 1 on a socat pty pair, the system played by the host simulator's CasinoSystem,
// written from the document), table B by the upstream. Each ticket is presented at A (the casino
// system's redemption, 0x67/0x70/0x71) and at B (the upstream's), A first, B first, and at both at
// the same moment, for a ticket printed at A (known to the casino system by 0x4D only: the upstream
// does not register a number made under an id it did not assign, docs/sas.md) and for one printed
// at B (known to the upstream only). Each pays exactly once, at a table of its own authority, the
// other presentation returned; the ledgers, the upstream's register and the system's agree.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, type TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { newestEntriesOfType, type Ledger } from '../../ledger/index.js';
import { alarms } from '../../upstream/index.js';
import { startFloorUpstream, type FloorUpstream } from '../transfers/floor-upstream.js';
import { CasinoSystem } from './host/casino.js';
import { SasHost, type HostIo } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import * as T from './host/tickets.js';

const ADDRESS = 1;
/** The casino system's validation id (0x4C): far from the upstream's, which counts from 1. */
const SYSTEM_ID = 0x0b_ee_f0;

async function until(test: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!(await test())) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The table's attempts at `validation` that ended: credited (stacked) or given back (returned, with why). */
function ends(ledger: Ledger, validation: string): { stacked: number[]; returned: string[] } {
  const of = (type: 'ticket.redeem.stacked' | 'ticket.redeem.returned') =>
    newestEntriesOfType(ledger, type, 200)
      .map((e) => JSON.parse(e.body) as { payload: { validation: string; amount?: number; reason?: string } })
      .filter((b) => b.payload.validation === validation)
      .map((b) => b.payload);
  return { stacked: of('ticket.redeem.stacked').map((p) => p.amount ?? -1), returned: of('ticket.redeem.returned').map((p) => p.reason ?? '?') };
}

describe('one ticket presented through SAS at table A and through the upstream at table B pays exactly once', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-two-authorities-'));
  let floor: FloorUpstream;
  let a: RunningHost;
  let b: RunningHost;
  let pair: Awaited<ReturnType<typeof ptyPair>>;
  let io: HostIo;
  let system: CasinoSystem;

  before(async () => {
    floor = await startFloorUpstream();
    pair = await ptyPair(mkdtempSync(path.join(dir, 'pty-')));
    const start = async (name: string, authority: 'sas' | 'upstream'): Promise<RunningHost> => {
      const dataDir = path.join(dir, name);
      mkdirSync(dataDir, { recursive: true });
      await floor.enrol(name, dataDir);
      const config: TableConfig = simulatedTableConfig('war');
      config.stations = config.stations.map((s) =>
        s.station !== 1 ? s : { ...s, printer: 'sim', ...(authority === 'sas' ? { sas: { link: `serial:${pair.machine}`, address: ADDRESS } } : {}) },
      );
      config.tickets = { ...config.tickets, authority };
      return startHost({
        dataDir,
        rendererDir: path.join(dir, 'none'),
        logger: pino({ level: 'silent' }),
        config,
        terminalId: name,
        upstream: floor.up.url,
        port: 0,
        simulatedDealer: false,
        sasTiming: { silenceMs: 60_000, ackTimeoutMs: 120_000 },
      });
    };
    a = await start('T-A', 'sas');
    b = await start('T-B', 'upstream');
    io = await openPtyHost(pair.host);
    const h = new SasHost(io, ADDRESS);
    await h.pollOther();
    assert.deepEqual(await T.validationId4C(h, SYSTEM_ID, 0), { machineId: SYSTEM_ID, sequence: 0 });
    system = new CasinoSystem(h);
    system.start();
  });
  after(async () => {
    await system?.stop();
    await io?.close();
    await a?.close();
    await b?.close();
    pair?.socat.kill();
    await floor?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let notes = 0;
  /** A note at station 1 of `host`, cashed out to a ticket: its number, once its authority knows it. */
  const ticketAt = async (host: RunningHost): Promise<{ validation: string; amount: number }> => {
    const before = host.ledger.credit(1);
    host.devices.billAcceptors.simulator(1)?.insertNote(++notes % 2 ? 100 : 50);
    await until(() => host.ledger.credit(1) > before, 'the note credited');
    await until(() => host.floor.tickets.whyNot(1, host.ledger.credit(1)) === null, 'the printer ready');
    const amount = host.ledger.credit(1);
    const out = await host.floor.tickets.cashOut(1);
    assert.equal(out.kind, 'printed');
    if (out.kind !== 'printed') throw new Error('no ticket');
    const v = out.validation;
    host.devices.printers.simulator(1)?.takeTicket();
    if (host === a) await until(() => system.tickets.has(v), 'the casino system read the ticket (0x3D, 0x4D)');
    else await until(async () => (await upstreamState(v)) === 'printed', 'the upstream registered the ticket printed');
    return { validation: v, amount };
  };
  const upstreamState = async (v: string): Promise<string | null> =>
    (await floor.up.db.query<{ state: string }>('SELECT state FROM tickets WHERE validation = $1', [v])).rows[0]?.state ?? null;
  const ended = (host: RunningHost, v: string): number => {
    const e = ends(host.ledger, v);
    return e.stacked.length + e.returned.length;
  };
  const present = (host: RunningHost, v: string): void => host.devices.billAcceptors.simulator(1)?.insertTicket?.(v);
  const presentAndWait = async (host: RunningHost, v: string): Promise<void> => {
    const n = ended(host, v);
    present(host, v);
    await until(() => ended(host, v) === n + 1, `the attempt at ${host === a ? 'A' : 'B'} ended`);
  };

  type Order = 'A first' | 'B first' | 'together';
  const run = async (order: Order, v: string): Promise<void> => {
    if (order === 'A first') {
      await presentAndWait(a, v);
      await presentAndWait(b, v);
    } else if (order === 'B first') {
      await presentAndWait(b, v);
      await presentAndWait(a, v);
    } else {
      present(a, v);
      present(b, v);
      await until(() => ended(a, v) === 1 && ended(b, v) === 1, 'both attempts ended');
    }
  };

  for (const order of ['A first', 'B first', 'together'] as const) {
    it(`a ticket printed at A (the casino system's), ${order}: paid once, through SAS at A; B's upstream does not know it`, async () => {
      const creditB = b.ledger.credit(1);
      const t = await ticketAt(a);
      await run(order, t.validation);
      const atA = ends(a.ledger, t.validation);
      const atB = ends(b.ledger, t.validation);
      assert.deepEqual(atA.stacked, [t.amount], 'credited once at A, for its amount');
      assert.deepEqual(atB, { stacked: [], returned: ['unknown'] }, 'B’s upstream never issued it');
      assert.equal(a.ledger.credit(1), t.amount, 'A: credited by the ticket, once (its note cashed out to it)');
      assert.equal(b.ledger.credit(1), creditB);
      // The system hears the outcome by 0x68 and 0x71 FF after the credit.
      await until(() => system.tickets.get(t.validation)?.state === 'redeemed', 'the casino system holds it redeemed');
      assert.equal(await upstreamState(t.validation), null);
    });

    it(`a ticket printed at B (the upstream's), ${order}: paid once, through the upstream at B; the casino system does not know it`, async () => {
      const creditA = a.ledger.credit(1);
      const t = await ticketAt(b);
      await run(order, t.validation);
      const atA = ends(a.ledger, t.validation);
      const atB = ends(b.ledger, t.validation);
      assert.deepEqual(atB.stacked, [t.amount], 'credited once at B, for its amount');
      assert.deepEqual(atA, { stacked: [], returned: ['unknown'] }, 'the casino system answered 0x71 "not in system"');
      assert.equal(a.ledger.credit(1), creditA);
      assert.equal(b.ledger.credit(1), t.amount, 'B: credited by the ticket, once (its note cashed out to it)');
      // B's word to the upstream (confirm) follows its credit; its synced journal says it again.
      await until(async () => (await upstreamState(t.validation)) === 'redeemed', 'the upstream holds it redeemed');
      assert.equal(system.tickets.has(t.validation), false);
    });
  }

  it('A’s journal reached the upstream, and the upstream registered none of A’s tickets (another issuer’s numbers)', async () => {
    await until(() => (a.sync?.status().lagEntries ?? 1) === 0, 'A synced');
    const mine = [...system.tickets.keys()];
    assert.equal(mine.length, 3);
    const held = await floor.up.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM tickets WHERE validation = ANY($1)', [mine]);
    assert.equal(held.rows[0]?.n, 0);
  });

  it('the upstream raised no ticket alarm for A: its tickets are the casino system’s, issued and paid as they should be', async () => {
    await until(() => (a.sync?.status().lagEntries ?? 1) === 0, 'A synced');
    const kinds = (await alarms(floor.up.db, 'T-A')).map((x) => x.kind).filter((k) => k.startsWith('ticket-'));
    assert.deepEqual(kinds, []);
  });
});
