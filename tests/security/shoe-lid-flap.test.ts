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

// The clear waits for the lid to stay closed; a host stopped in that wait restores the fault at its
// next start, and nothing said the lid was closed again until the dealer opened and closed it: new
// bets stayed stopped at a table whose lid was shut. The shoe's HELLO says its lid (its flags):
// the driver says so when it connects, and at every status after. Only a closed lid is taken from
// it; an open one raises nothing there.
it("a lid-open fault restored at a start clears once the shoe's HELLO has said the lid closed for a while", async () => {
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-01' });
  const log = pino({ level: 'silent' });
  const first = new TiltManager({ ledger, log });
  shoeTiltSource(first, () => false, 200)({ type: 'lid', sequence: 1, open: true });
  // The host stops; the next start restores what the journal holds.
  const tilts = new TiltManager({ ledger, log });
  tilts.restore();
  const lidOpen = () => tilts.list().some((t) => t.kind === 'shoe-lid-open');
  assert.ok(lidOpen(), 'restored at the start');
  const onEvent = shoeTiltSource(tilts, () => false, 200);
  try {
    onEvent({ type: 'connected', protocol: 'framed', lidOpen: false });
    await until(() => !lidOpen(), 'cleared once the HELLO said the lid closed', 2_000);
    // A status saying the lid open raises nothing (a new shoe loaded, its lid not yet shut, is no
    // fault); it stops a clear that waits.
    onEvent({ type: 'lid', sequence: 2, open: true });
    onEvent({ type: 'lid', sequence: 3, open: false });
    onEvent({ type: 'status', locked: false, lidOpen: true });
    await new Promise((r) => setTimeout(r, 400));
    assert.ok(lidOpen(), 'not cleared: the status said the lid open again');
    onEvent({ type: 'status', locked: false, lidOpen: false });
    await until(() => !lidOpen(), 'cleared once the status said it closed for a while', 2_000);
  } finally {
    ledger.close();
  }
});
