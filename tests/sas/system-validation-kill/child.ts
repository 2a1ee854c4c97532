// The station process of the system validation kill test (tests/sas/system-validation-kill.e2e.test.ts):
// the real host start with station 1 on the machine end of a socat pty pair (./setup.ts). A note
// is credited, the printer found ready, and the station's Cash-out pressed (its gate); the process
// SIGKILLs itself right after the kill point's entry commits. Says `{"kind":"ready"}` on stdout
// just before the cash-out. `restart`: the start after a kill, SIGKILLed by the restart rule's end.
import { setTimeout as sleep } from 'node:timers/promises';
import type { WiredFloorServices } from '../../../host/floor/floor-services.js';
import { Ledger } from '../../../ledger/ledger.js';
import { KILL_AFTER, STATION, startSystemValidationStation, type KillPoint } from './setup.js';

const [dataDir, machinePty, at] = process.argv.slice(2);
if (!dataDir || !machinePty || !at || !(at in KILL_AFTER || at === 'restart')) throw new Error('usage: child DATA_DIR MACHINE_PTY request|end|issue|restart');

if (at === 'restart') {
  // The start after a kill: SIGKILLed right after the restart rule's `restart` end commits (inside
  // the start, before anything else is journalled by it).
  const appendMany = Ledger.prototype.appendMany;
  Ledger.prototype.appendMany = function (this: Ledger, entries, then) {
    const out = appendMany.call(this, entries, then);
    if (entries.some((e) => e.type === 'ticket.validation.end' && (e.payload as { outcome?: string }).outcome === 'restart'))
      process.kill(process.pid, 'SIGKILL');
    return out;
  };
  await startSystemValidationStation(dataDir, machinePty);
  throw new Error('the start found no wait to end');
}
const type = KILL_AFTER[at as KillPoint];

const running = await startSystemValidationStation(dataDir, machinePty);
const ledger = running.ledger;
const appendMany = ledger.appendMany.bind(ledger);
ledger.appendMany = (entries, then) => {
  const out = appendMany(entries, then);
  if (entries.some((e) => e.type === type)) process.kill(process.pid, 'SIGKILL');
  return out;
};

running.devices.billAcceptors.simulator(STATION)?.insertNote(100);
for (let i = 0; i < 1_000 && (ledger.credit(STATION) === 0 || running.floor.tickets.whyNot(STATION, ledger.credit(STATION)) !== null); i++) await sleep(10);
process.stdout.write(`${JSON.stringify({ kind: 'ready', credit: ledger.credit(STATION) })}\n`);
const r = (running.floor as WiredFloorServices).gate.cashOut(STATION);
if (!r.ok) throw new Error(`the cash-out was refused: ${r.reason}`);
