// The upstream as casino IT sees it: /metrics after a kiosk synced and sent its heartbeat,
// querystrings checked by their schemas, and the OpenAPI document generated from them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ledger, SyncClient } from '../../ledger/index.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { enrolTerminal, openUpstreamDb, startUpstream, type RunningUpstream } from '../../upstream/index.js';

/** One sample's value from Prometheus text, by its exact series (name and labels). */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

const ADMIN = 'a'.repeat(32);
const METRICS = 'm'.repeat(32);
const asAdmin = { headers: { authorization: `Bearer ${ADMIN}` } };

describe('upstream operations', () => {
  let up: RunningUpstream;
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'OPS-1' });
  before(async () => {
    const db = await openUpstreamDb({});
    const cred = await enrolTerminal(db, 'OPS-1');
    up = await startUpstream({ db, tokens: { admin: ADMIN } });
    for (let s = 1; s <= 3; s++) ledger.append(billCredit(s, 10_000, `b${s}`));
    for (let i = 0; i < 4; i++) {
      const { bets, settle } = settledRound(`r${i}`, [1, 2, 3], 100, i);
      ledger.appendMany([...bets, settle]);
    }
    const client = new SyncClient(ledger, {
      url: up.url,
      credentials: cred,
      heartbeat: { snapshot: () => ({ game: 'baccarat', sync: { lagEntries: 2, lagSeconds: 7 }, table: { faults: ['bill-jam', 'bill-jam', 'door'] } }) },
    });
    while ((await client.syncOnce()) === 'sent');
    assert.equal(await client.sendHeartbeat(), true, client.status().heartbeat?.error ?? '');
  });
  after(async () => {
    await up.close();
    await up.db.close();
  });

  it('exposes rounds, bets, wins and credits per terminal, its last contact, lag and faults', async () => {
    const res = await fetch(`${up.url}/metrics`, asAdmin);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await res.text();
    const m = ledger.meters('table');
    // A heartbeat naming no currency: its meters are in none (migration 20: one series per currency).
    const t = 'terminal="OPS-1",game="baccarat",currency="none",exponent="none"';
    assert.equal(sample(text, `etg_rounds_total{${t}}`), m.gamesPlayed);
    assert.equal(sample(text, `etg_rounds_total{${t}}`), 4);
    assert.equal(sample(text, `etg_bets_minor_total{${t}}`), m.creditsWagered);
    assert.equal(sample(text, `etg_wins_minor_total{${t}}`), m.creditsWon);
    assert.equal(sample(text, `etg_credits_in_minor_total{${t}}`), 30_000);
    const seen = sample(text, 'etg_upstream_terminal_last_seen_timestamp_seconds{terminal="OPS-1"}');
    assert.ok(seen !== null && Math.abs(seen - Date.now() / 1000) < 60, `last seen ${seen}`);
    assert.equal(sample(text, 'etg_upstream_terminal_head_seq{terminal="OPS-1"}'), ledger.headOf().seq);
    assert.equal(sample(text, 'etg_upstream_terminal_sync_lag_entries{terminal="OPS-1"}'), 2);
    assert.equal(sample(text, 'etg_upstream_terminal_faults{terminal="OPS-1",kind="bill-jam"}'), 2);
    assert.equal(sample(text, 'etg_upstream_heartbeats_total'), 1);
    assert.ok((sample(text, 'etg_upstream_ingest_batches_total{result="200"}') ?? 0) >= 1);
  });

  it('lists the terminal with its last contact and the health it reported', async () => {
    const list = (await (await fetch(`${up.url}/v1/terminals`, asAdmin)).json()) as { terminalId: string; lastSeenAt: string; health: { game: string } }[];
    assert.equal(list[0]?.terminalId, 'OPS-1');
    assert.match(list[0]?.lastSeenAt ?? '', /^\d{4}-\d\d-\d\dT.*Z$/);
    assert.equal(list[0]?.health.game, 'baccarat');
  });

  it('checks querystrings and parameters by their schemas: a bad one is a 400 naming it', async () => {
    for (const q of ['rounds?limit=abc', 'rounds?limit=501', 'entries?from=-1', 'entries?limit=1.5', 'rounds?limit=2&evil=1']) {
      const r = await fetch(`${up.url}/v1/terminals/OPS-1/${q}`, asAdmin);
      assert.equal(r.status, 400, q);
      assert.match(((await r.json()) as { message: string }).message, /limit|from|evil|Unrecognized/, q);
    }
    assert.equal((await fetch(`${up.url}/v1/terminals/bad%20id/rounds`, asAdmin)).status, 400);
    const entries = (await (await fetch(`${up.url}/v1/terminals/OPS-1/entries?from=2&limit=2`, asAdmin)).json()) as { seq: number; ts: string }[];
    assert.deepEqual(
      entries.map((e) => e.seq),
      [2, 3],
    );
    assert.match(entries[0]?.ts ?? '', /Z$/);
  });

  it('refuses a heartbeat signed by nobody, and one for another terminal', async () => {
    const r = await fetch(`${up.url}/v1/heartbeat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ terminalId: 'OPS-1', at: new Date().toISOString(), health: {} }),
    });
    assert.equal(r.status, 401);
  });

  it('describes every route in an OpenAPI document generated from the schemas', async () => {
    const doc = (await (await fetch(`${up.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { description?: string; parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
    };
    assert.match(doc.openapi, /^3\./);
    for (const p of [
      '/healthz',
      '/metrics',
      '/v1/ingest',
      '/v1/heartbeat',
      '/v1/config-orders',
      '/v1/terminals',
      '/v1/terminals/{id}/entries',
      '/v1/terminals/{id}/rounds',
      '/v1/alarms',
      '/v1/admin/terminals',
      '/v1/admin/terminals/{id}/rotate-key',
    ])
      assert.ok(doc.paths[p], p);
    // A page the answer's budget cut short is said to be no end (upstream/queries.ts ANSWER_TEXT_BUDGET).
    const entries = doc.paths['/v1/terminals/{id}/entries']?.get;
    assert.match(entries?.description ?? '', /fewer than `limit`.*until an answer is empty/);
    const rounds = doc.paths['/v1/terminals/{id}/rounds']?.get;
    assert.deepEqual(rounds?.parameters?.map((x) => `${x.in}:${x.name}`).sort(), ['path:id', 'query:limit']);
    assert.ok(doc.paths['/v1/ingest']?.post?.responses['409'], 'the gap, divergence and replay answers are documented');
  });
});

describe('upstream /metrics behind its token', () => {
  it('answers the metrics token (and the admin token), never a caller without one, loopback included', async () => {
    const up = await startUpstream({ tokens: { admin: ADMIN, metrics: METRICS } });
    try {
      assert.equal((await fetch(`${up.url}/metrics`)).status, 403);
      assert.equal((await fetch(`${up.url}/metrics`, { headers: { authorization: `Bearer ${'x'.repeat(32)}` } })).status, 403);
      assert.equal((await fetch(`${up.url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } })).status, 200);
      assert.equal((await fetch(`${up.url}/metrics`, asAdmin)).status, 200);
      // The scraper's token reads the metrics and nothing else.
      assert.equal((await fetch(`${up.url}/v1/terminals`, { headers: { authorization: `Bearer ${METRICS}` } })).status, 403);
    } finally {
      await up.close();
    }
  });

  it('without a metrics token configured, answers the admin token and refuses a loopback caller without one (docs/operations.md)', async () => {
    const up = await startUpstream({ tokens: { admin: ADMIN } });
    try {
      assert.equal((await fetch(`${up.url}/metrics`)).status, 403);
      assert.equal((await fetch(`${up.url}/metrics`, asAdmin)).status, 200);
    } finally {
      await up.close();
    }
  });
});
