// One table's heartbeat against the whole floor (issue 49; docs/backoffice.md, "The floor"): the
// upstream stores a table's health snapshot and the floor copies its phase and faults into the
// table's row, which goes to every open floor page at every push (every 5 s at least). Before, the
// snapshot's `table.phase`, `table.faults`, `table.hold` and `sync.state` were unbounded: a table
// whose key was enough (a compromised cabinet) sent 400,000 faults and a 2 MB phase, was answered
// 200, and `GET /floor` became 5.9 MB. A hostile heartbeat is now a 400 and stores nothing; an
// honest table's always passes, checked with the host's own heartbeat (a live host, its snapshot
// builder, host/start/health.ts) carrying every fault a table can hold at once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { TILTS } from '../../host/tilts/tilt-kinds.js';
import type { CurrentTilt } from '../../host/tilts/tilt-manager.js';
import { MAX_REMOTE_STATIONS, MAX_STATIONS, REMOTE_STATION_BASE } from '../../protocol/index.js';
import { credentialsFile } from '../../ledger/index.js';
import { enrolTerminal, listTerminals } from '../../upstream/index.js';
import { Terminal } from '../../upstream/schemas.js';
import { backofficeKit, enrolledTable, kitOfSuite, signIn } from './backoffice-kit.js';

const HONEST = {
  tableId: 'BJ-01',
  game: 'blackjack',
  currency: { code: 'MOP', exponent: 2 },
  table: { phase: 'betting', hold: null, faults: ['shoe-lid-open'] },
};

describe("back office: one table's heartbeat cannot bloat the floor", () => {
  const suite = kitOfSuite('viewer');

  const floor = async () => {
    const r = await suite.kit.app.inject({ method: 'GET', url: '/backoffice/api/floor', headers: { cookie: suite.who.cookie } });
    assert.equal(r.statusCode, 200);
    return { bytes: r.body.length, rows: r.json() as { terminalId: string; state: string; faults: string[] }[] };
  };
  const stored = async (terminal: string) =>
    (await suite.kit.db.query<{ health: unknown }>('SELECT last_health AS health FROM terminals WHERE terminal_id = $1', [terminal])).rows[0]?.health;

  const hostile: [string, unknown][] = [
    ['400,000 faults', { ...HONEST, table: { phase: 'betting', faults: Array.from({ length: 400_000 }, (_, i) => `f${i}`) } }],
    ['a phase of 2 MB', { ...HONEST, table: { phase: 'x'.repeat(2_000_000), faults: [] } }],
    ['a fault of 10,000 characters', { ...HONEST, table: { phase: 'betting', faults: ['y'.repeat(10_000)] } }],
    ['200 kinds of fault, each once', { ...HONEST, table: { phase: 'betting', faults: Array.from({ length: 200 }, (_, i) => `kind-${i}`) } }],
    ['a hold of 100,000 characters', { ...HONEST, table: { phase: 'hold', hold: 'h'.repeat(100_000), faults: [] } }],
    ['a hold that is an object', { ...HONEST, table: { phase: 'hold', hold: { why: 'z'.repeat(100_000) }, faults: [] } }],
    ['a sync state of 1 MB', { ...HONEST, sync: { lagEntries: 0, lagSeconds: 0, state: 's'.repeat(1_000_000) } }],
  ];
  for (const [what, health] of hostile) {
    it(`${what}: 400, nothing stored, the floor as it was`, async () => {
      const terminal = `T-${what.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}`;
      const table = await enrolledTable(suite.kit, terminal);
      assert.equal((await table.heartbeat(HONEST)).statusCode, 200);
      const before = await floor();
      const r = await table.heartbeat(health);
      assert.equal(r.statusCode, 400, `answered ${r.statusCode}`);
      assert.match(r.json().message, /health/);
      assert.deepEqual(await stored(terminal), HONEST);
      const after = await floor();
      assert.ok(after.bytes <= before.bytes + 64, `the floor grew from ${before.bytes} to ${after.bytes} bytes`);
      assert.deepEqual(
        after.rows.find((x) => x.terminalId === terminal),
        before.rows.find((x) => x.terminalId === terminal),
      );
    });
  }

  it('a table at every bound is taken, and its row names each kind of fault once', async () => {
    const table = await enrolledTable(suite.kit, 'T-at-the-bounds');
    const kinds = Array.from({ length: 64 }, (_, i) => `${'k'.repeat(60)}${String(i).padStart(4, '0')}`);
    const faults = Array.from({ length: 28_115 }, (_, i) => kinds[i % kinds.length] ?? '');
    const r = await table.heartbeat({ ...HONEST, table: { phase: 'p'.repeat(32), hold: 'h'.repeat(64), faults } });
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    const row = (await floor()).rows.find((x) => x.terminalId === 'T-at-the-bounds');
    assert.deepEqual(row?.faults, kinds);
  });
});

describe("an honest table's heartbeat passes, from the host's own builder", () => {
  it('as the live host sends it, and with every fault a table can hold at once', async () => {
    const kit = await backofficeKit();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'honest-heartbeat-'));
    try {
      const url = await kit.app.listen({ port: 0, host: '127.0.0.1' });
      writeFileSync(credentialsFile(dir), JSON.stringify({ ...(await enrolTerminal(kit.db, 'T-HONEST', false)), upstream: url }), { mode: 0o600 });
      const running = await startHost({
        dataDir: dir,
        rendererDir: path.join(dir, 'none'),
        config: simulatedTableConfig('blackjack'),
        terminalId: 'T-HONEST',
        upstream: url,
        logger: pino({ level: 'silent' }),
        simulatedDealer: false,
      });
      try {
        const sync = running.sync ?? assert.fail('the host has no sync client');
        assert.equal(await sync.sendHeartbeat(), true, sync.status().heartbeat?.error ?? '');
        // Every kind at the table, and every station kind at each station a table may have (its
        // seats and its remote stations): the most faults its list (TiltManager.list) can hold.
        const stations = [
          ...Array.from({ length: MAX_STATIONS }, (_, i) => i + 1),
          ...Array.from({ length: MAX_REMOTE_STATIONS }, (_, i) => REMOTE_STATION_BASE + 1 + i),
        ];
        const every = Object.entries(TILTS).flatMap(([kind, spec]) =>
          spec.scope === 'table' ? [{ kind }] : stations.map((station) => ({ kind, station })),
        ) as unknown as CurrentTilt[];
        running.floor.tilts.list = () => every;
        assert.equal(await sync.sendHeartbeat(), true, sync.status().heartbeat?.error ?? '');
        const r = await kit.db.query<{ faults: number }>(
          "SELECT jsonb_array_length(last_health->'table'->'faults') AS faults FROM terminals WHERE terminal_id = 'T-HONEST'",
        );
        assert.equal(r.rows[0]?.faults, every.length);
      } finally {
        await running.close();
      }
    } finally {
      await kit.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a snapshot stored before the bounds, over them', () => {
  it('is left out of the floor and the terminals list rather than sent or failing them', async () => {
    const kit = await backofficeKit();
    try {
      await enrolledTable(kit, 'T-OLD');
      const faults = Array.from({ length: 40_000 }, (_, i) => `f${i}`);
      await kit.db.query("UPDATE terminals SET last_seen_at = $1, last_health = $2::jsonb WHERE terminal_id = 'T-OLD'", [
        new Date(kit.clock.now),
        JSON.stringify({ tableId: 'OLD', table: { phase: 'x'.repeat(100_000), faults } }),
      ]);
      const viewer = await signIn(kit.app, 'viewer');
      const r = await kit.app.inject({ method: 'GET', url: '/backoffice/api/floor', headers: { cookie: viewer.cookie } });
      assert.equal(r.statusCode, 200);
      assert.ok(r.body.length < 2000, `${r.body.length} bytes`);
      const terminals = Terminal.array().parse(await listTerminals(kit.db));
      assert.equal(terminals.find((t) => t.terminalId === 'T-OLD')?.health, null);
    } finally {
      await kit.close();
    }
  });
});
