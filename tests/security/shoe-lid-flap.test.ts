// A shoe lid sensor that bounces (or an ASCII stream that says the lid opened and closed, line after
// line): an open lid is raised at once, so a lid opened mid-round still stops new bets; its clear
// waits until the lid has stayed closed a while, so the bouncing is one fault, not a raise and a
// clear per bounce (a review: one second of 40 bounces journalled 40 raises and 40 clears).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import pino from 'pino';
import { TiltManager } from '../../host/tilts/tilt-manager.js';
import { shoeTiltSource } from '../../host/tilts/tilt-sources.js';
import { Ledger } from '../../ledger/ledger.js';
import { until } from './shoe-wire-kit.js';

it('a bouncing lid: raised at the first open, one raise and no clear while it bounces, cleared once it stays closed', async () => {
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-01' });
  const tilts = new TiltManager({ ledger, log: pino({ level: 'silent' }) });
  const count = (type: string): number => [...ledger.entries(1)].filter((e) => e.type === type).length;
  const onEvent = shoeTiltSource(tilts, () => false, 200);
  try {
    onEvent({ type: 'lid', sequence: 1, open: true });
    assert.ok(
      tilts.list().some((t) => t.kind === 'shoe-lid-open'),
      'raised at once',
    );
    for (let i = 0; i < 40; i++) {
      onEvent({ type: 'lid', sequence: 2 + 2 * i, open: false });
      onEvent({ type: 'lid', sequence: 3 + 2 * i, open: true });
    }
    onEvent({ type: 'lid', sequence: 90, open: false });
    assert.deepEqual([count('tilt.raise'), count('tilt.clear')], [1, 0]);
    await until(() => count('tilt.clear') === 1, 'the clear once the lid stayed closed');
    assert.ok(!tilts.list().some((t) => t.kind === 'shoe-lid-open'));
    // A new shoe loaded clears it at once, as before.
    onEvent({ type: 'lid', sequence: 91, open: true });
    onEvent({ type: 'shoeLoaded', sequence: 92, sessionId: 1, decks: 8, cards: 416, setId: '' });
    assert.deepEqual([count('tilt.raise'), count('tilt.clear')], [2, 2]);
  } finally {
    ledger.close();
  }
});
