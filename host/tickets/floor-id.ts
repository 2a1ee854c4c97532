import type { Logger } from 'pino';
import type { Ledger } from '../../ledger/ledger.js';
import { journalledMachineId } from '../../ledger/machine-id-queries.js';
import type { TicketAuthority } from './authority.js';

/**
 * The upstream as the validation authority, its answer to "which id is this table's" journalled
 * (`ticket.machine-id`): a table told an id other than the one its configuration names (another
 * table holds that one) numbers under the upstream's after a restart too, even offline before it
 * has printed under it. Journalled before the answer is passed on, so a ticket numbered under it
 * finds it there; an answer the journal already records adds nothing. Until 8 December the answer
 * was kept in the data folder (`floor-validation.json`) and believed at a start: another table's
 * id written there numbered the table's offline tickets under that table's numbers
 * (tests/tickets/floor-id-swapped.test.ts). That file is no longer read or written.
 */
export function keepingFloorId(authority: TicketAuthority, ledger: Ledger, log: Logger): TicketAuthority {
  return {
    ...authority,
    async machineId(proposed?: number) {
      const r = await authority.machineId(proposed);
      if (!r.ok || r.machineId === journalledMachineId(ledger, 'upstream')) return r;
      try {
        ledger.append({ type: 'ticket.machine-id', payload: { machineId: r.machineId, authority: 'upstream' } });
      } catch (err) {
        // Not journalled (a full disk): not used. The journal's id serves meanwhile, as offline; the next question asks again.
        log.error({ err, machineId: r.machineId }, "the upstream's validation id could not be journalled: not used");
        return { ok: false, detail: 'the upstream’s validation id could not be journalled' };
      }
      return r;
    },
    knownMachineId: () => journalledMachineId(ledger, 'upstream'),
  };
}
