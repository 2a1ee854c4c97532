import type { Logger } from 'pino';
import type { Ledger } from '../../ledger/ledger.js';
import { lastMachineTicket } from '../../ledger/ticket-queries.js';
import type { TableConfig } from '../config/table-config.js';
import type { TicketAuthority } from '../tickets/authority.js';

/**
 * The validation id a table numbers its tickets under when the upstream is the authority (or
 * there is none): the upstream's once it has said, else the local one. Validated by the casino's
 * system (`tickets.authority: sas`) the id is always the one its long poll 0x4C gave, and this
 * asks nothing (host/floor/ticket-out.ts).
 */
export class TicketMachineId {
  private floorId: number | null = null;
  private asking: Promise<number | null> | null = null;

  constructor(private readonly deps: { config: TableConfig; ledger: Ledger; log: Logger; authority?: TicketAuthority }) {
    // Asked at once, so that the first cash-out seldom waits: the answer is the table's for good.
    if (deps.authority && deps.config.tickets.authority !== 'sas') void this.ask();
  }

  /**
   * The id for a cash-out now: the upstream's answer when a question is out (at most its deadline)
   * or none is yet and the table has no id of its own (without one, a handpay); not heard
   * (offline), asked again behind this cash-out, which takes the local id meanwhile.
   */
  async forCashOut(): Promise<number | undefined> {
    if (this.floorId === null && (this.asking || this.local() === undefined)) await this.ask();
    else if (this.floorId === null) void this.ask();
    return this.floorId ?? this.local();
  }

  /** The id as far as the table knows now, asking nothing. */
  now(): number | null {
    return this.floorId ?? this.local() ?? null;
  }

  /**
   * The id this table numbers under while the upstream is not heard: the one its journal last
   * recorded, the upstream's answer (`ticket.machine-id`, host/tickets/floor-id.ts; a table told
   * another id than its configured one keeps it across a restart offline) or its last ticket's,
   * whichever is newer; else its configuration's. Never a file of the data folder, which another
   * table's id could be written into (tests/tickets/floor-id-swapped.test.ts).
   */
  private local(): number | undefined {
    return this.deps.authority?.knownMachineId?.() ?? lastMachineTicket(this.deps.ledger)?.terms.machineId ?? this.deps.config.tickets.machineId;
  }

  /**
   * The upstream's id for this table, proposing the local one (the upstream takes it when no other
   * table holds it). An id the configuration names, or the journal's tickets carry, that another
   * table holds on the floor would make numbers the upstream refuses as another issuer's, paid
   * nowhere; so once the upstream has said, its id is the one. Unreachable: null, and the local id
   * serves meanwhile (offline, the upstream takes the local id with the first ticket it registers).
   */
  private ask(): Promise<number | null> {
    const authority = this.deps.authority;
    if (this.floorId !== null || !authority) return Promise.resolve(this.floorId);
    this.asking ??= (async () => {
      const local = this.local();
      const r = await authority.machineId(local).catch((err: unknown) => ({ ok: false as const, detail: String(err) }));
      this.asking = null;
      if (!r.ok) return null;
      if (local !== undefined && local !== r.machineId)
        this.deps.log.warn(
          { local, floor: r.machineId },
          "cash-out: the validation id the configuration or the journal names is another table's on the floor; the upstream's is used",
        );
      this.floorId = r.machineId;
      return r.machineId;
    })();
    return this.asking;
  }
}
