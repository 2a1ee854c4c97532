import type { Logger } from 'pino';
import type { TicketAuthority } from './authority.js';
import { AssignedValidationId } from './assigned-validation-id.js';

/** The validation id the upstream gave this table, in the data folder (docs/tito.md, "Configured ids and assigned ids never meet"). */
export const FLOOR_VALIDATION_FILE = 'floor-validation.json';

/**
 * The upstream as the validation authority, its answer to "which id is this table's" kept in the
 * data folder: a table told an id other than the one its configuration names (another table holds
 * that one) numbers under the upstream's after a restart too, even offline before it has printed
 * under it. Kept in memory only, such a table restarted offline numbered its next tickets under
 * its configured id again: another issuer's to the upstream, refused everywhere (a review of 7
 * December). Kept before the answer is passed on: a ticket numbered under it finds it there.
 */
export function keepingFloorId(authority: TicketAuthority, dataDir: string, log: Logger): TicketAuthority {
  const store = new AssignedValidationId(dataDir, log, {
    file: FLOOR_VALIDATION_FILE,
    consequence: "the upstream's validation id not known until it is asked again: offline, the configured id serves meanwhile",
  });
  return {
    ...authority,
    async machineId(proposed?: number) {
      const r = await authority.machineId(proposed);
      if (r.ok && r.machineId !== store.get()) {
        try {
          store.set(r.machineId);
        } catch (err) {
          // Not kept (a full disk): held for this run, as before; the next start asks again.
          log.error({ err, machineId: r.machineId, file: FLOOR_VALIDATION_FILE }, "the upstream's validation id could not be kept in the data folder");
        }
      }
      return r;
    },
    knownMachineId: () => store.get(),
  };
}
