// The sim controls' routes for the simulated dealer held after some cards (`POST /sim/hold-dealer`,
// `/sim/release-dealer`; the dealer's own behaviour: host/devices/sim-dealer.test.ts). Tests that act
// while a coup is being dealt (a supervisor reporting a dealing error after the first card,
// tests/browser/corrections.spec.ts) hold it there rather than race a card every few hundred
// milliseconds, which a loaded machine loses.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../host/logger.js';
import { startHost, type RunningHost } from '../../host/start-host.js';

async function post(running: RunningHost, name: string, body: object = {}): Promise<{ status: number; text: string }> {
  const r = await fetch(`${running.origin}/sim/${name}`, {
    method: 'POST',
    headers: { 'x-sim-token': running.simToken ?? '', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, text: await r.text() };
}

describe('the simulated dealer held after some cards (sim controls)', () => {
  let running: RunningHost;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sim-dealer-hold-'));
    running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'no-renderer'),
      logger: createLogger(path.join(dir, 'logs'), { console: null }),
      simControls: true,
      simulatedDealer: { dealMs: 20 },
      timings: { bettingMs: 200, decisionMs: 200, resultsMs: 50 },
    });
  });
  after(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a whole number of cards and a release; refuses any other count, and a wrong token', async () => {
    assert.equal((await post(running, 'hold-dealer', { cards: 1 })).status, 200);
    assert.equal((await post(running, 'release-dealer')).status, 200);
    for (const cards of [-1, 1.5, '2', 10_000]) assert.equal((await post(running, 'hold-dealer', { cards })).status, 400, String(cards));
    const r = await fetch(`${running.origin}/sim/release-dealer`, { method: 'POST', headers: { 'x-sim-token': 'not-it' } });
    assert.equal(r.status, 401);
  });
});
