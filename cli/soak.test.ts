import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { soak } from './soak/run-cli.js';

describe('soak CLI', () => {
  it('a short war soak killed with SIGKILL every 3 rounds prints exactly its keys, conserved and verified', { timeout: 180_000 }, async () => {
    // A log cap of 2 KiB: the host rotates host.log several times in seven rounds.
    const r = await soak(['--game', 'war', '--rounds', '7', '--stations', '2', '--seed', '4', '--kill-every', '3', '--log-max-mb', '0.002', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1, 'one JSON line');
    const out = JSON.parse(lines[0] as string) as Record<string, unknown>;
    assert.deepEqual(Object.keys(out), [
      'rounds',
      'restarts',
      'voided',
      'creditsIn',
      'creditsOut',
      'creditsOnMeters',
      'wagered',
      'won',
      'conserved',
      'ledgerVerified',
      'roundsPerHour',
      'logCapBytes',
      'logPeakBytes',
      'logFiles',
      'shoeChanges',
      'holds',
      'tickets',
    ]);
    assert.equal(out.logCapBytes, Math.round(0.002 * 1024 * 1024));
    assert.ok(
      (out.logPeakBytes as number) > 0 && (out.logPeakBytes as number) <= (out.logCapBytes as number),
      `host.log peaked at ${String(out.logPeakBytes)}`,
    );
    assert.ok((out.logFiles as number) >= 2, `host.log rotated: ${String(out.logFiles)} files`);
    assert.equal(out.conserved, true);
    assert.equal(out.ledgerVerified, true);
    assert.ok((out.rounds as number) >= 7, `rounds ${String(out.rounds)}`);
    // At least once; how many depends on how many rounds close in the seeded delay before each kill.
    assert.ok((out.restarts as number) >= 1, `killed and restarted: ${String(out.restarts)}`);
    assert.ok((out.creditsIn as number) > 0 && (out.wagered as number) > 0);
    for (const k of ['voided', 'creditsIn', 'creditsOut', 'creditsOnMeters', 'wagered', 'won', 'roundsPerHour'])
      assert.ok(Number.isInteger(out[k]) && (out[k] as number) >= 0, `${k} is a count or an amount in minor units`);
  });

  it('refuses a bad option with its usage and exit 2', async () => {
    const r = await soak(['--game', 'poker', '--rounds', '3']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--game must be blackjack, baccarat or war/);
  });

  // Played with its --authorisation, killed, conserved and verified through many shoes in
  // tests/host/shoe-changes-baccarat-war.test.ts (the same etg soak arguments); the war soak above
  // runs etg soak through bin/etg.js. Only the refusal is this file's own.
  it('a no-commission baccarat table needs --authorisation: refused without it, exit 2 naming it', async () => {
    const refused = await soak(['--game', 'baccarat', '--rules', 'macau-no-commission', '--rounds', '3']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /authoris/);
  });
});
