// The floor's faults, drawn from the run's swarm at each chance the floor gives: a kill armed at a
// host's start, a printer's job gone wrong, a call to the authority lost or late. None once calm.
import type { WriteFault } from '../faulty-ledger.js';
import type { AuthorityFault } from './authority-model.js';
import type { FloorHooks } from './floor.js';
import type { PrinterJob } from './printer-model.js';
import { chance, fault, note, type TicketRun } from './ticket-run.js';

export function faultHooks(run: TicketRun): FloorHooks {
  const { rng, swarm } = run;
  return {
    armed: (): WriteFault[] => {
      if (run.calm || run.kills >= run.maxKills || !chance(rng, swarm.rates.kill)) return [];
      run.kills++;
      return [{ kind: 'kill', at: 1 + rng.below(30), committed: chance(rng, 0.5) }];
    },
    job: (): PrinterJob => {
      if (run.calm || swarm.printerKinds.length === 0 || !chance(rng, swarm.rates.printer)) return 'ok';
      const j = swarm.printerKinds[rng.below(swarm.printerKinds.length)] ?? 'ok';
      fault(run, `printer ${j}`);
      return j;
    },
    link: (_table, call): AuthorityFault => {
      if (run.calm || swarm.linkKinds.length === 0 || !chance(rng, swarm.rates.link)) return 'ok';
      const f = swarm.linkKinds[rng.below(swarm.linkKinds.length)] ?? 'ok';
      fault(run, `authority ${call} ${f}`);
      return f;
    },
    note: (s) => note(run, s),
    violated: (s) => {
      run.violations.push(`step ${run.step}: ${s}`);
      note(run, `VIOLATION ${s}`);
    },
  };
}
