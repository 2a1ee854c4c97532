// The first run of hold-restart.test.ts, as a child process so that it can die by SIGKILL: a
// table host on a data dir puts the table on hold between rounds through its simulated shoe, says
// so on stdout, and waits to be killed.
//   node --import tsx tests/host/hold-between-rounds-child.ts <dataDir> extra-card|unreadable
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import pino from 'pino';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';

const HOLD_TIMINGS = { bettingMs: 300, decisionMs: 5_000, resultsMs: 100 };

async function until(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !test(); i++) await sleep(25);
  if (!test()) throw new Error(`timed out waiting for ${what}`);
}

const [dataDir, scenario] = process.argv.slice(2);
if (!dataDir || (scenario !== 'extra-card' && scenario !== 'unreadable')) throw new Error('usage: <dataDir> extra-card|unreadable');
// War has no shoe-level burns: any card between rounds is extra. A shoe whose gate the host locks
// refuses that draw, so the extra card comes from a shoe without a lock (a one-way ASCII stream).
// Blackjack burns at a new shoe: the burn the shoe cannot read is an unreadable card between rounds.
const running = await startHost({
  dataDir, rendererDir: path.join(dataDir, 'none'), logger: pino({ level: 'silent' }),
  config: scenario === 'extra-card' ? { ...simulatedTableConfig('war'), shoeProtocol: 'ascii' } : simulatedTableConfig('blackjack'),
  simulatedDealer: false, timings: HOLD_TIMINGS,
});
const sim = running.shoe.simulator();
if (!sim) throw new Error('no simulated shoe');
await until(() => running.shoe.loadsHandled >= 1, 'the first shoe');
if (scenario === 'extra-card') {
  await until(() => running.rounds.view().phase === 'betting' && running.rounds.cue() === null, 'a betting window');
  sim.drawCard();
} else {
  await until(() => running.rounds.cue()?.kind === 'card', 'a burn asked for');
  sim.drawUnreadable();
}
await until(() => running.rounds.view().hold !== null, 'the hold');
process.stdout.write(JSON.stringify({ hold: running.rounds.view().hold, phase: running.rounds.view().phase }) + '\n');
// Killed by the test from here on; never closed.
await new Promise(() => undefined);
