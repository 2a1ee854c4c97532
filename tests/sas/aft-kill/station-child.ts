// The station process of the AFT kill campaign (./campaign.ts): the real host start (startHost)
// with station 1 on the machine end of a socat pty pair, configured for AFT. Armed with a kill
// (argv: `{"at":"before-commit"|"after-commit","id":…}`, the system's transaction id), it SIGKILLs itself inside the journal's
// write of that transfer's entry, before or after its commit: the point where a power cut or an
// OOM kill would leave a transfer half done. The other kill points (after the answer, after the
// exception) are the campaign's own SIGKILL from outside. It says `{"kind":"ready"}` on stdout
// once started, and runs until it is killed (the campaign's restart is in its own process).
import { aftTxId } from '../../../ledger/aft-terms.js';
import { KillArm, STATION, startAftStation } from './setup.js';

const [dataDir, machinePty, armText] = process.argv.slice(2);
if (!dataDir || !machinePty) throw new Error('usage: station-child DATA_DIR MACHINE_PTY [ARM_JSON]');
const arm = armText ? KillArm.parse(JSON.parse(armText)) : null;

const running = await startAftStation(dataDir, machinePty);

if (arm) {
  const ledger = running.ledger;
  const appendMany = ledger.appendMany.bind(ledger);
  const armed = (entries: Parameters<typeof appendMany>[0]): boolean => entries.some((e) => e.txId === aftTxId(STATION, arm.id));
  ledger.appendMany = (entries, then) => {
    const hit = armed(entries);
    if (hit && arm.at === 'before-commit') process.kill(process.pid, 'SIGKILL');
    const out = appendMany(entries, then);
    if (hit && arm.at === 'after-commit') process.kill(process.pid, 'SIGKILL');
    return out;
  };
}

process.stdout.write(`${JSON.stringify({ kind: 'ready' })}\n`);
