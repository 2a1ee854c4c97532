// The first run of hold-restart.test.ts, as a child process so that it can die by SIGKILL: a
// table host on a data dir puts the table on hold through its simulated shoe — between rounds, or
// inside a round with two stations' bets in play — says so on stdout, and waits to be killed.
//   node --import tsx tests/host/hold-child.ts <dataDir> <scenario>
// scenario: extra-card | unreadable (between rounds) | in-round-unreadable | in-round-reads
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import pino from 'pino';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';

const HOLD_TIMINGS = { bettingMs: 300, decisionMs: 5_000, resultsMs: 100 };
const SCENARIOS = ['extra-card', 'unreadable', 'in-round-unreadable', 'in-round-reads'] as const;

async function until(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !test(); i++) await sleep(25);
  if (!test()) throw new Error(`timed out waiting for ${what}`);
}

const [dataDir, scenario] = process.argv.slice(2) as [string, (typeof SCENARIOS)[number]];
if (!dataDir || !SCENARIOS.includes(scenario)) throw new Error(`usage: <dataDir> ${SCENARIOS.join('|')}`);
// War has no shoe-level burns: any card between rounds is extra. A shoe whose gate the host locks
// refuses that draw, so the extra card (and a card read during a hold) comes from a shoe without a
// lock (a one-way ASCII stream). Blackjack burns at a new shoe: the burn the shoe cannot read is an
// unreadable card between rounds.
const config =
  scenario === 'unreadable'
    ? simulatedTableConfig('blackjack')
    : { ...simulatedTableConfig('war'), ...(scenario === 'in-round-unreadable' ? {} : { shoeProtocol: 'ascii' as const }) };
const running = await startHost({
  dataDir,
  rendererDir: path.join(dataDir, 'none'),
  logger: pino({ level: 'silent' }),
  config,
  simulatedDealer: false,
  timings: { ...HOLD_TIMINGS, ...(scenario.startsWith('in-round') ? { bettingMs: 600 } : {}) },
});
const sim = running.devices.shoe.simulator();
if (!sim) throw new Error('no simulated shoe');
await until(() => running.devices.shoe.loadsHandled >= 1, 'the first shoe');
const draw = async (pull: () => void) => {
  await until(() => running.table.reads.expectsCard() && running.devices.shoe.gateOpen(), 'a card cue with the gate open');
  const before = running.devices.shoe.cardsHandled;
  pull();
  await until(() => running.devices.shoe.cardsHandled > before, 'the card handled');
};
if (scenario === 'extra-card') {
  await until(() => running.table.reads.view().phase === 'betting' && running.table.reads.cue() === null, 'a betting window');
  sim.drawCard();
} else if (scenario === 'unreadable') {
  await until(() => running.table.reads.cue()?.kind === 'card', 'a burn asked for');
  sim.faults.drawUnreadable();
} else {
  // Two stations bet; seat 1's card is read, seat 2's cannot be.
  let note = 0;
  for (const station of [1, 2])
    running.ledger.append({
      type: 'bill.credit',
      payload: { station, device: `BA-${station}`, denomination: 50_000, currency: 'MOP' },
      txId: `child-note-${++note}`,
    });
  await until(() => running.table.reads.station(1).betting.open, 'a betting window');
  if (!running.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok || !running.table.commands.placeBet(2, { bet: 'main' }, 20_000).ok)
    throw new Error('bets refused');
  await draw(() => sim.drawCard({ card: '9S' }));
  await draw(() => sim.faults.drawUnreadable());
  if (scenario === 'in-round-reads') {
    // The dealer goes on: the croupier's card leaves the shoe during the hold.
    sim.drawCard({ card: '5C' });
    await until(() => (running.table.reads.holdState()?.readsDuringHold.length ?? 0) === 1, 'the read during the hold journalled');
  }
}
await until(() => running.table.reads.view().hold !== null, 'the hold');
process.stdout.write(JSON.stringify({ hold: running.table.reads.view().hold, phase: running.table.reads.view().phase }) + '\n');
// Killed by the test from here on; never closed.
await new Promise(() => undefined);
