// The host's /metrics, behind its own token, after a few rounds of simulated play.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { TEST_TIMINGS } from '../../host/launch-options.js';
import { startHost, type RunningHost } from '../../host/start-host.js';

function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

const TOKEN = 'metrics-token-for-the-test-0123456789';

describe('host /metrics', () => {
  let running: RunningHost;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'host-metrics-'));
    running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      metricsToken: TOKEN,
      autoplay: true,
      seed: 3,
      timings: TEST_TIMINGS,
      simulatedDealer: { dealMs: 0 },
    });
    const deadline = Date.now() + 120_000;
    while ((running.ledger.meters('table').gamesPlayed ?? 0) < 3) {
      assert.ok(Date.now() < deadline, 'three rounds within two minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  after(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers only its own token: not a screen launch token, not nothing', async () => {
    assert.equal((await fetch(`${running.origin}/metrics`)).status, 401);
    const screen = running.screens.urls[0]?.token ?? '';
    assert.equal((await fetch(`${running.origin}/metrics`, { headers: { authorization: `Bearer ${screen}` } })).status, 401);
    assert.equal((await fetch(`${running.origin}/metrics?token=${screen}`)).status, 401);
  });

  it('exposes rounds, bets, wins, credits, faults, screens, card reads, ledger size', async () => {
    // The meters before the scrape: the metrics can only have grown since (play goes on).
    const m = running.ledger.meters('table');
    const res = await fetch(`${running.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    const text = await res.text();
    const rounds = sample(text, 'etg_rounds_total{game="blackjack"}') ?? 0;
    assert.ok(rounds >= (m.gamesPlayed ?? 0) && rounds >= 3 && rounds <= (running.ledger.meters('table').gamesPlayed ?? 0), `rounds ${rounds}`);
    assert.ok((sample(text, 'etg_bets_minor_total{game="blackjack"}') ?? 0) > 0);
    assert.ok((sample(text, 'etg_credits_in_minor_total{game="blackjack"}') ?? 0) >= (m.totalIn ?? 1));
    assert.ok(text.includes('etg_wins_minor_total{game="blackjack"}'));
    assert.equal(sample(text, 'etg_table_info{table="SIM-BJ-01",game="blackjack"}'), 1);
    // Autoplay's simulated players connect through the same screen sessions as touch screens.
    assert.ok((sample(text, 'etg_screen_connections{view="station"}') ?? 0) >= 1);
    assert.ok((sample(text, 'etg_card_read_seconds_count{outcome="card"}') ?? 0) >= 4, 'every card read timed');
    assert.ok((sample(text, 'etg_card_draw_wait_seconds_count') ?? 0) >= 1);
    assert.ok((sample(text, 'etg_ledger_entries') ?? 0) >= 10);
    assert.ok((sample(text, 'etg_ledger_bytes') ?? 0) > 4096);
    assert.equal(sample(text, 'etg_table_on_hold'), 0);
    assert.equal(sample(text, 'etg_sync_lag_entries'), null, 'no sync figures when the kiosk does not sync');
    assert.match(text, /# TYPE etg_faults_active gauge/);
    assert.match(text, /process_resident_memory_bytes/);
  });

  it('counts a fault raised, and shows it active by kind', async () => {
    const sim = running.devices.billAcceptors.simulator(1);
    assert.ok(sim);
    sim.faults.jam();
    const deadline = Date.now() + 30_000;
    let text = '';
    while (Date.now() < deadline) {
      text = await (await fetch(`${running.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      if (/^etg_faults_active\{kind="[^"]+"\} [1-9]/m.test(text)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const kind = /^etg_faults_active\{kind="([^"]+)"\} [1-9]/m.exec(text)?.[1];
    assert.ok(
      kind,
      text
        .split('\n')
        .filter((l) => l.includes('fault'))
        .join('\n'),
    );
    assert.ok((sample(text, `etg_tilts_raised_total{kind="${kind}"}`) ?? 0) >= 1);
  });
});
