// The station process of the AFT registration kill test (tests/sas/aft-register-kill.e2e.test.ts):
// the real host start with station 1 on the machine end of a socat pty pair, configured for AFT
// (./setup.ts). It SIGKILLs itself inside the journal's write of the `aft.register` entry that
// registers the station (0x73 code 01), right after that entry commits and before the answer is
// sent: the registration is journalled and the system never heard it. Says `{"kind":"ready"}`
// on stdout once started.
import { startAftStation } from './setup.js';

const [dataDir, machinePty] = process.argv.slice(2);
if (!dataDir || !machinePty) throw new Error('usage: register-child DATA_DIR MACHINE_PTY');

const running = await startAftStation(dataDir, machinePty);
const ledger = running.ledger;
const appendMany = ledger.appendMany.bind(ledger);
ledger.appendMany = (entries, then) => {
  const out = appendMany(entries, then);
  if (entries.some((e) => e.type === 'aft.register' && e.payload.status === 'registered')) process.kill(process.pid, 'SIGKILL');
  return out;
};

process.stdout.write(`${JSON.stringify({ kind: 'ready' })}\n`);
