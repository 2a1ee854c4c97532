import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openBillAcceptor } from '../../hardware/open.js';
import { openLedger } from '../../ledger/index.js';
import { BillAcceptors } from '../devices/bill-acceptors.js';
import { tableCreditRule } from '../devices/credit-rule/table-credit-rule.js';
import { credit, testTable, silent, type TestTable, submitted } from '../testing/table-kit.js';
import { ConfigFileError, loadTableConfigFile } from './load-config.js';
import { simulatedTableConfig, TableConfig } from './table-config.js';
import { spotLimits } from '../../engine/table/state.js';
import type { BetId } from '../../protocol/index.js';

const supervisors = { who: 'sup-1', witness: 'sup-2', authorisation: 'DICJ-2026-0042' };
const place = (t: TestTable, station: number, bet: BetId, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot: { bet }, amount }));

describe('table configuration as data', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it('a station SAS link: serial:PATH or tcp:HOST:PORT, address 1–127, no address twice on one link', () => {
    const base = simulatedTableConfig('war');
    const withSas = (sas: Record<number, unknown>) => ({ ...base, stations: base.stations.map((s) => (sas[s.station] ? { ...s, sas: sas[s.station] } : s)) });
    const ok = TableConfig.safeParse(
      withSas({ 1: { link: 'serial:/dev/ttyS4', address: 1 }, 2: { link: 'tcp:10.0.0.5:4001', address: 1 }, 3: { link: 'serial:/dev/ttyS4', address: 2 } }),
    );
    assert.ok(ok.success, ok.success ? '' : ok.error.message);
    assert.deepEqual(ok.data.stations[0]?.sas, { link: 'serial:/dev/ttyS4', address: 1 });
    for (const bad of [
      { link: 'com4', address: 1 },
      { link: 'tcp:host', address: 1 },
      { link: 'serial:/dev/ttyS4', address: 0 },
      { link: 'serial:/dev/ttyS4', address: 128 },
      { link: 'serial:/dev/ttyS4', address: 1, extra: true },
    ])
      assert.equal(TableConfig.safeParse(withSas({ 1: bad })).success, false, JSON.stringify(bad));
    const twice = TableConfig.safeParse(withSas({ 1: { link: 'serial:/dev/ttyS4', address: 3 }, 2: { link: 'serial:/dev/ttyS4', address: 3 } }));
    assert.equal(twice.success, false);
    assert.match(twice.error?.message ?? '', /SAS address 3 on serial:\/dev\/ttyS4 is another station's/);
  });

  it('a station SAS link on a real UART: uart:PATH with an absolute device path; one device under two names is one link', () => {
    const base = simulatedTableConfig('war');
    const withSas = (sas: Record<number, unknown>) => ({ ...base, stations: base.stations.map((s) => (sas[s.station] ? { ...s, sas: sas[s.station] } : s)) });
    const ok = TableConfig.safeParse(
      withSas({ 1: { link: 'uart:/dev/ttyS4', address: 1 }, 2: { link: 'uart:/dev/serial/by-id/usb-FTDI_FT232R-if00', address: 2 } }),
    );
    assert.ok(ok.success, ok.success ? '' : ok.error.message);
    assert.deepEqual(ok.data.stations[0]?.sas, { link: 'uart:/dev/ttyS4', address: 1 });
    for (const link of ['uart:', 'uart:ttyS4', 'uart:/dev/tty S4', 'uart:/dev/ttyS4;rm', 'uart:tcp:1.2.3.4:5', 'UART:/dev/ttyS4', 'uart/dev/ttyS4'])
      assert.equal(TableConfig.safeParse(withSas({ 1: { link, address: 1 } })).success, false, link);
    const twice = TableConfig.safeParse(withSas({ 1: { link: 'uart:/dev/ttyS4', address: 3 }, 2: { link: 'serial:/dev/ttyS4', address: 3 } }));
    assert.equal(twice.success, false);
    assert.match(twice.error?.message ?? '', /SAS address 3 on serial:\/dev\/ttyS4 is another station's/);
  });

  it('one SAS line spelled two ways is one line: the device path is normalised, so one address on it twice is refused', () => {
    const base = simulatedTableConfig('war');
    const withSas = (sas: Record<number, unknown>) => ({ ...base, stations: base.stations.map((s) => (sas[s.station] ? { ...s, sas: sas[s.station] } : s)) });
    const ok = TableConfig.safeParse(withSas({ 1: { link: 'serial:/dev/./ttyS0', address: 1 }, 2: { link: 'uart:/dev/serial/../ttyS1', address: 1 } }));
    assert.ok(ok.success, ok.success ? '' : ok.error.message);
    assert.equal(ok.data.stations[0]?.sas?.link, 'serial:/dev/ttyS0');
    assert.equal(ok.data.stations[1]?.sas?.link, 'uart:/dev/ttyS1');
    for (const [one, other] of [
      ['serial:/dev/ttyS0', 'serial:/dev/./ttyS0'],
      ['serial:/dev/ttyS0', 'uart://dev//ttyS0'],
      ['uart:/dev/ttyS0', 'serial:/dev/pts/../ttyS0'],
    ]) {
      const twice = TableConfig.safeParse(withSas({ 1: { link: one, address: 5 }, 2: { link: other, address: 5 } }));
      assert.equal(twice.success, false, `${one} and ${other}`);
      assert.match(twice.error?.message ?? '', /station 2: SAS address 5 on .*\/dev\/ttyS0 is another station's/);
    }
    assert.equal(TableConfig.safeParse(withSas({ 1: { link: 'tcp:10.0.0.5:4001', address: 1 } })).data?.stations[0]?.sas?.link, 'tcp:10.0.0.5:4001');
  });

  it('no two stations share an AFT asset number, seated or remote: the message names both', () => {
    const base = { ...simulatedTableConfig('war'), remoteStations: 2 };
    const withSas = (sas: Record<number, unknown>, remoteSas: unknown[] = []) => ({
      ...base,
      remoteSas,
      stations: base.stations.map((s) => (sas[s.station] ? { ...s, sas: sas[s.station] } : s)),
    });
    const aft = (assetNumber: number) => ({ assetNumber, limit: 100_000 });
    const ok = TableConfig.safeParse(
      withSas({ 1: { link: 'serial:/dev/ttyS0', address: 1, aft: aft(99) }, 2: { link: 'serial:/dev/ttyS1', address: 1, aft: aft(100) } }, [
        { station: 101, address: 1, aft: aft(101), relayedMoney: 'accept-unverified' },
      ]),
    );
    assert.ok(ok.success, ok.success ? '' : ok.error.message);
    // The review's configuration: one line (spelled two ways), one address, one asset: one 0x72 credited both.
    const seated = TableConfig.safeParse(
      withSas({ 1: { link: 'serial:/dev/ttyS0', address: 5, aft: aft(99) }, 2: { link: 'serial:/dev/ttyS1', address: 5, aft: aft(99) } }),
    );
    assert.equal(seated.success, false);
    assert.match(seated.error?.message ?? '', /AFT asset number 99 is station 1's and station 2's/);
    const remote = TableConfig.safeParse(
      withSas({ 1: { link: 'serial:/dev/ttyS0', address: 1, aft: aft(7) } }, [{ station: 102, address: 1, aft: aft(7), relayedMoney: 'accept-unverified' }]),
    );
    assert.equal(remote.success, false);
    assert.match(remote.error?.message ?? '', /AFT asset number 7 is station 1's and station 102's/);
  });

  it('remote stations: up to 2,000 (through edges past the 1,000 one host was measured to carry); more are refused', () => {
    const base = simulatedTableConfig('baccarat');
    const remote = (n: number) => ({ ...base, remoteStations: n, connections: { lan: { perAddress: 16, total: 2 * n + 10 } } });
    assert.ok(TableConfig.safeParse(remote(2000)).success);
    const over = TableConfig.safeParse(remote(2001));
    assert.equal(over.success, false);
    assert.match(over.error?.message ?? '', /remoteStations/);
  });

  it("a remote station's SAS line (remoteSas): one of the table's remote stations, listed once", () => {
    const base = { ...simulatedTableConfig('baccarat'), remoteStations: 2 };
    const ok = TableConfig.safeParse({
      ...base,
      remoteSas: [
        { station: 101, address: 1 },
        { station: 102, address: 1 },
      ],
    });
    assert.ok(ok.success, 'one address on two agents: two lines');
    for (const [remoteSas, why] of [
      [[{ station: 103, address: 1 }], /103 is not one of the table's remote stations/],
      [[{ station: 3, address: 1 }], /3 is not one of the table's remote stations/],
      [
        [
          { station: 101, address: 1 },
          { station: 101, address: 2 },
        ],
        /101 is listed twice/,
      ],
      [[{ station: 101, address: 1, link: 'serial:/dev/ttyS4' }], /link/],
    ] as const) {
      const r = TableConfig.safeParse({ ...base, remoteSas });
      assert.equal(r.success, false);
      assert.match(r.error?.message ?? '', why);
    }
  });

  it('loads a valid file with limits per bet type, notes, offline limit and an SSP station', () => {
    const base = simulatedTableConfig('war');
    const file = write(
      'ok.json',
      JSON.stringify({
        ...base,
        betLimits: { tie: { min: 1_000, max: 100_000 } },
        denominations: [100, 500],
        offlineLimit: { maxUnsyncedEntries: 1000, maxUnsyncedSeconds: 600 },
        stations: base.stations.map((s) => (s.station === 2 ? { ...s, billProtocol: 'ssp' } : s)),
      }),
    );
    const c = loadTableConfigFile(file);
    assert.deepEqual(spotLimits(c, { bet: 'tie' }), { min: 1_000, max: 100_000 });
    assert.deepEqual(spotLimits(c, { bet: 'main' }), c.limits);
    assert.equal(c.stations[1]?.billProtocol, 'ssp');
    assert.equal(c.stations[0]?.billProtocol, 'id003', 'the default protocol');
  });

  it('says which file and what is wrong for a missing file, bad JSON, or bad values', () => {
    assert.throws(
      () => loadTableConfigFile(path.join(dir, 'none.json')),
      (e: Error) => e instanceof ConfigFileError && /cannot read .*none\.json: ENOENT/.test(e.message),
    );
    assert.throws(() => loadTableConfigFile(write('bad.json', '{"tableId": ')), /bad\.json is not valid JSON/);
    const base = simulatedTableConfig('war');
    const bad = write('values.json', JSON.stringify({ ...base, seats: 9, denominations: [100, 300], betLimits: { tie: { min: 5000, max: 10 } } }));
    assert.throws(
      () => loadTableConfigFile(bad),
      (e: Error) =>
        /values\.json is not valid/.test(e.message) && /seats: /.test(e.message) && /MOP has no 300 note/.test(e.message) && /betLimits\.tie/.test(e.message),
    );
  });

  it("opens each station's bill acceptor with its own protocol (SSP stations drive the SSP driver)", async () => {
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 2).map((s, i) => ({ ...s, billProtocol: i === 1 ? 'ssp' : 'id003' })) });
    const seen: string[] = [];
    const ledger = openLedger(mkdtempSync(path.join(dir, 'ledger-')), 'SIM-WAR-01');
    const accept = new BillAcceptors({
      config,
      ledger,
      log: silent,
      credits: tableCreditRule({ config, ledger, log: silent, fault: () => undefined }),
      open: (spec, options) => {
        seen.push(options.protocol);
        return openBillAcceptor(spec, options);
      },
    });
    accept.start();
    await accept.close();
    assert.deepEqual(seen, ['id003', 'ssp']);
  });

  it("refuses a bet over its own maximum (never trimmed) and shows every spot's limits", () => {
    const t = testTable({ config: { betLimits: { tie: { min: 1_000, max: 20_000 } } } });
    try {
      credit(t.ledger, 1, 100_000);
      const s = t.hub.state('station/1');
      assert.ok(s.kind === 'station');
      assert.deepEqual(s.betting.spots, [
        { bet: 'main', min: 10_000, max: 1_000_000 },
        { bet: 'tie', min: 1_000, max: 20_000 },
      ]);
      assert.equal(place(t, 1, 'tie', 15_000).ok, true);
      const r = place(t, 1, 'tie', 10_000);
      assert.equal(!r.ok && r.error.refusal, 'over-max');
      assert.deepEqual(t.table.reads.station(1).betting.bets, [{ bet: 'tie', amount: 15_000 }], 'nothing trimmed');
    } finally {
      t.close();
    }
  });

  it("refuses a bet under its spot's minimum when it is placed, with the translated reason; nothing moves and the rest plays", () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 100_000);
      assert.equal(place(t, 1, 'main', 20_000).ok, true);
      const r = place(t, 1, 'tie', 5_000); // under the tie's minimum of 10 000
      assert.equal(!r.ok && r.error.refusal, 'under-min');
      assert.equal(!r.ok && r.error.messageKey, 'refusals.under-min');
      t.clock.runOut(t.table.reads.view().endsAt);
      const s = t.hub.state('station/1');
      assert.ok(s.kind === 'station');
      assert.deepEqual(s.betting.bets, [{ bet: 'main', amount: 20_000 }]);
      assert.deepEqual(s.betting.unplayed ?? [], [], 'nothing taken and left unplayed');
      assert.equal(t.ledger.credit(1), 80_000, 'only the main bet moved');
    } finally {
      t.close();
    }
  });

  it("refuses a limits change that breaks the game's text, naming the rule (Portugal rule 37)", () => {
    const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001', limits: { min: 10_000, max: 300_000 } } });
    try {
      assert.match(
        JSON.stringify(t.floor.configChanges.check('limits', { min: 10_000, max: 400_000 })),
        /more than 30 times its minimum .*portugal-2001 rule 37/,
      );
      assert.match(JSON.stringify(t.floor.configChanges.change('betLimits', { main: { min: 1_000, max: 31_000 } }, supervisors)), /rule 37/);
      assert.deepEqual(t.floor.configChanges.check('limits', { min: 20_000, max: 600_000 }), { ok: true, value: { min: 20_000, max: 600_000 } });
    } finally {
      t.close();
    }
  });

  it('baccarat Art. 1 5): a table configuration of six seats is refused, naming the article; seven opens', () => {
    const base = simulatedTableConfig('baccarat');
    const six = { ...base, seats: 6, stations: base.stations.filter((s) => s.seat <= 6) };
    const r = TableConfig.safeParse(six);
    assert.equal(r.success, false);
    assert.match(r.error?.message ?? '', /7 or more seats \(macau-baccarat art\.1 5\)\); it has 6/);
    assert.equal(TableConfig.safeParse(base).success, true);
  });

  it('a demo table of any profile keeps to its limits: Portugal opens with at most 30 minimums', () => {
    const pt = simulatedTableConfig('blackjack', 'portugal-2001');
    assert.deepEqual(pt.limits, { min: 10_000, max: 300_000 });
    assert.deepEqual(simulatedTableConfig('blackjack').limits, { min: 10_000, max: 1_000_000 });
  });

  it('changes limits with two people and an authorisation, journalled with before and after, between rounds', () => {
    const t = testTable();
    try {
      assert.match(JSON.stringify(t.floor.configChanges.change('limits', { min: 20_000, max: 500_000 }, { ...supervisors, witness: 'sup-1' })), /someone else/);
      assert.match(
        JSON.stringify(t.floor.configChanges.change('limits', { min: 20_000, max: 500_000 }, { ...supervisors, authorisation: ' ' })),
        /authorisation/,
      );
      assert.match(JSON.stringify(t.floor.configChanges.change('game', 'baccarat', supervisors)), /restart/);
      assert.match(JSON.stringify(t.floor.configChanges.change('limits', { min: 20_000, max: 5 }, supervisors)), /not valid/);
      assert.match(JSON.stringify(t.floor.configChanges.change('betLimits', { banker: { min: 1, max: 2 } }, supervisors)), /no banker bet/);
      assert.match(JSON.stringify(t.floor.configChanges.change('betLimits', { pairs: { min: 1, max: 2 } }, supervisors)), /Unrecognized key: \\"pairs\\"/);
      // The same checks without journalling: service mode asks before calling a second person.
      assert.match(JSON.stringify(t.floor.configChanges.check('limits', { min: 20_000, max: 5 })), /not valid/);
      assert.match(JSON.stringify(t.floor.configChanges.check('seats', 6)), /restart/);
      assert.deepEqual(t.floor.configChanges.check('limits', { min: 20_000, max: 500_000 }), { ok: true, value: { min: 20_000, max: 500_000 } });
      assert.equal([...t.ledger.entries(1)].filter((e) => e.type === 'config.change').length, 0, 'nothing refused or checked was journalled');

      credit(t.ledger, 1, 100_000);
      assert.equal(place(t, 1, 'main', 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt); // the round is in play
      const r = t.floor.configChanges.change('limits', { min: 20_000, max: 500_000 }, supervisors);
      assert.equal(r.ok && r.status, 'queued');
      assert.equal(t.config.limits.min, 10_000, 'not while the round is in play');
      t.table.shoe.onCard({ rank: '9', suit: 'S' } as never);
      t.table.shoe.onCard({ rank: '2', suit: 'D' } as never); // seat wins: the round settles
      assert.equal(t.table.reads.view().phase, 'results');
      assert.deepEqual(t.config.limits, { min: 20_000, max: 500_000 });
      assert.deepEqual(t.floor.configChanges.queued(), []);
      const entry = [...t.ledger.entries(1)].find((e) => e.type === 'config.change');
      assert.deepEqual((JSON.parse(entry?.body ?? '{}') as { payload: unknown }).payload, {
        who: 'sup-1',
        witness: 'sup-2',
        authorisation: 'DICJ-2026-0042',
        key: 'limits',
        before: { min: 10_000, max: 1_000_000 },
        after: { min: 20_000, max: 500_000 },
      });
      const table = t.hub.state('table');
      assert.deepEqual(table.kind === 'table' && table.limits, { min: 20_000, max: 500_000 }, 'the screens show the new limits');
    } finally {
      t.close();
    }
  });

  it('applies a change at once between rounds, tells the acceptors of new notes, and keeps it after a restart', () => {
    const first = testTable();
    const r = first.floor.configChanges.change('denominations', [500, 1000], supervisors);
    assert.equal(r.ok && r.status, 'applied');
    assert.deepEqual(first.accepted, [[500, 1000]]);
    assert.equal(first.floor.configChanges.change('timings', { bettingMs: 9_000, decisionMs: 9_000, resultsMs: 3_000 }, supervisors).ok, true);
    assert.equal(first.floor.configChanges.change('limits', { min: 20_000, max: 900_000 }, supervisors).ok, true);
    first.stop();
    const again = testTable({ dir: first.dir });
    try {
      assert.deepEqual(again.config.denominations, [500, 1000]);
      assert.equal(again.config.timings.bettingMs, 9_000);
      // The table itself plays by the journalled values, not the file's.
      assert.deepEqual(again.table.state.params.limits, { min: 20_000, max: 900_000 });
      assert.equal(again.table.state.params.timings.bettingMs, 9_000);
      credit(again.ledger, 1, 1_000_000);
      assert.match(JSON.stringify(again.table.commands.placeBet(1, { bet: 'main' }, 950_000)), /over the maximum/, 'the file allows 1,000,000');
    } finally {
      again.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('--config', () => {
  it('reads the table from a file, and names a bad file or a --game that disagrees as a usage error', async () => {
    const { hostOptionsFromArgs, UsageError } = await import('../launch-options.js');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cfg-args-'));
    try {
      const file = path.join(dir, 'war.json');
      writeFileSync(file, JSON.stringify({ ...simulatedTableConfig('war'), tableId: 'WAR-7' }));
      const o = hostOptionsFromArgs({ config: file, 'betting-seconds': '9' });
      assert.equal(o.config?.tableId, 'WAR-7');
      assert.equal(o.config?.timings.bettingMs, 9_000, 'a timer flag overrides the file');
      assert.throws(
        () => hostOptionsFromArgs({ config: file, game: 'baccarat' }),
        (e: Error) => e instanceof UsageError && /disagrees/.test(e.message),
      );
      assert.throws(
        () => hostOptionsFromArgs({ config: path.join(dir, 'missing.json') }),
        (e: Error) => e instanceof UsageError && /cannot read/.test(e.message),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('--sim-controls without --config (the demonstration table)', () => {
  it('puts a simulated printer at every station; the validation id is made from the table id only when no upstream can assign one', async () => {
    const { hostOptionsFromArgs } = await import('../launch-options.js');
    const alone = hostOptionsFromArgs({ 'sim-controls': true }).config;
    assert.ok(alone?.stations.every((s) => s.printer === 'sim'));
    assert.ok(alone?.tickets.machineId !== undefined && alone.tickets.machineId > 0);
    // With an upstream the id is the authority's (POST /v1/tickets/machine): an id made here would
    // be one the upstream never assigned to this table, and every ticket it printed refused as
    // another table's (ticket-foreign-issuer), so never redeemable (tests/browser/tito.spec.ts found it).
    const floor = hostOptionsFromArgs({ 'sim-controls': true, upstream: 'http://127.0.0.1:8787' }).config;
    assert.ok(floor?.stations.every((s) => s.printer === 'sim'));
    assert.equal(floor?.tickets.machineId, undefined);
  });
});

describe('the example configuration (docs/examples/table-config.json)', () => {
  it('loads, and its bet limits name bets of its game', async () => {
    const { tableGame } = await import('../../engine/games.js');
    const { unknownBetTypes } = await import('./table-config.js');
    const c = loadTableConfigFile(path.join(import.meta.dirname, '../../docs/examples/table-config.json'));
    assert.equal(c.stations.filter((s) => s.billProtocol === 'ssp').length, 2);
    assert.deepEqual(unknownBetTypes(c, tableGame(c.game, c.profile, c.profileOptions).rules.bets), []);
  });
});

describe('a table id its tickets can carry (a review of 4 December)', () => {
  // Before: the configuration took ids of up to 32 characters and the ticket's table line 20:
  // every cash-out of a table named with 21 to 32 failed the ticket's schema and became a handpay.
  const sim = simulatedTableConfig();
  const withPrinter = (tableId: string) => ({ ...sim, tableId, stations: sim.stations.map((s, i) => (i === 0 ? { ...s, printer: 'serial:/dev/ttyS1' } : s)) });
  it('refuses an id longer than the ticket prints at a table with a ticket printer, naming the limit', () => {
    const long = 'MACAU-LISBOA-BACCARAT-07-B';
    const r = TableConfig.safeParse(withPrinter(long));
    assert.equal(r.success, false);
    assert.ok(
      r.error?.issues.some((i) => i.path.join('.') === 'tableId' && /at most 20 characters/.test(i.message)),
      JSON.stringify(r.error?.issues),
    );
    assert.equal(TableConfig.safeParse(withPrinter('MACAU-BACCARAT-07')).success, true, 'one of 17 is printed');
    assert.equal(TableConfig.safeParse({ ...sim, tableId: long }).success, true, 'a table without printers prints no ticket');
  });
});

describe('edges in the configuration', () => {
  // The table's NATS server has one user for the host (full rights) and one per edge named, each
  // with the edge's password in <data>/edges/<name>.password, carried to that edge's machine. An
  // edge named `host` was given the host's own password in `host.password` (and a second user
  // `host` in the server's configuration); an edge named twice, two users of one name.
  it("edges: no edge named 'host' (the host's own NATS user), none named twice", () => {
    const sim = simulatedTableConfig('baccarat');
    const withEdges = (names: string[]) => TableConfig.safeParse({ ...sim, remoteStations: 10, edges: { names } });
    assert.equal(withEdges(['edge-1', 'edge-2']).success, true);
    for (const names of [['host'], ['edge-1', 'host'], ['edge-1', 'edge-1']]) {
      const r = withEdges(names);
      assert.equal(r.success, false, JSON.stringify(names));
      assert.match(r.error?.message ?? '', /edge/, JSON.stringify(names));
    }
  });
});
