import { z } from 'zod';
import { OPTION_CLASSES } from '../engine/table/vocabulary.js';
import { TILT_KINDS, type TiltKind } from './tilts.js';
import { JackpotCombination } from './jackpot.js';
import { EventFilter, ServiceAction, ServiceRole, StaffNumber } from './service.js';
import { Iso, Short, Station, Text } from './service-fields.js';
import { serviceRowSchemas, type ServiceRows } from './service-rows.js';
import { TICKET_NOT_PRINTED_REASONS } from './tickets.js';
import { MAX_REMOTE_STATIONS, MAX_STATIONS, MinorUnits } from './units.js';

/** Why a peer table is refused (host/peers/peer-journal.ts auditPeers), as the Peers page words it. */
export const PEER_PROBLEMS = ['not-enrolled', 'missing', 'changed', 'unreadable'] as const;
export type PeerProblem = (typeof PEER_PROBLEMS)[number];

// What a signed-in service session sees (issue 9): the pages, the pending two-person action and
// the last outcome, the optional fields of `ServiceState` (protocol/views.ts). Their schemas are
// built on first use: they are over a third of protocol/'s (issue 31: 0.33 MB of a screen's
// heap), and only the host and the service page ever use them, never a table or a station page.

/**
 * Items per page of the event log and of game recall. Three rounds of the largest size the ledger
 * accepts still make a snapshot under MAX_HOST_MESSAGE_BYTES (`service.test.ts` builds them).
 */
export const SERVICE_PAGE_SIZE = { events: 40, recall: 3, tickets: 35, meters: 8, cashout: 16 } as const;

/**
 * The devices and the faults a Status or Devices page carries. A stadium table's relayed remote
 * acceptors are devices of the host (and their faults its faults), up to 2,000: the host picks
 * which are shown (host/service/shown-rows.ts).
 */
export const DEVICES_SHOWN = 16;
export const TILTS_SHOWN = 64;

/** The table at a glance: its round, faults, devices, upstream link, program and locked accounts. */
function statusPage({ TableRow, TiltRow, DeviceRow, SyncRow }: ServiceRows) {
  return z.strictObject({
    page: z.literal('status'),
    table: TableRow,
    tilts: z.array(TiltRow).max(TILTS_SHOWN).nullable(),
    devices: z.array(DeviceRow).max(DEVICES_SHOWN),
    sync: SyncRow.nullable(),
    softwareVersion: Short,
    programHash: z.strictObject({
      atStart: Short,
      latest: Short.nullable(),
      latestAt: Iso.nullable(),
      /** Files that differ from the start (`+` added, `-` removed), the first 16. */
      changed: z.array(Short).max(16).optional(),
    }),
    /** Service accounts locked now (wrong PINs): a supervisor other than the account lifts the lock. */
    locked: z
      .array(z.strictObject({ staff: Short, name: Short, until: Iso }))
      .max(32)
      .optional(),
  });
}

/** The devices and one device's trace and frames. */
/** The notes held for a person a Devices page lists (more wait on the next settlement). */
export const NOTES_HELD_SHOWN = 8;

function devicesPage({ DeviceRow, TraceRow, FrameRow }: ServiceRows) {
  return z.strictObject({
    page: z.literal('devices'),
    /** The device whose trace is shown; null: every device's events, no frames. */
    device: Short.nullable(),
    devices: z.array(DeviceRow).max(DEVICES_SHOWN),
    /** Decoded device events, newest first (the chosen device's only, when one is chosen). */
    trace: z.array(TraceRow).max(60),
    /** The chosen device's frames, newest first. */
    frames: z.array(FrameRow).max(80),
    /**
     * Notes the host answered "stack" to that no acceptor will end (left in a protocol's dispute,
     * behind a newer note, or at a station gone), each waiting for a person to say whether it is in
     * the cashbox (`seq`: its escrow entry, which the action names). The oldest first; absent: none.
     */
    notesHeld: z
      .array(z.strictObject({ station: Station, seq: z.number().int().positive(), amount: MinorUnits, since: Iso, twoPerson: z.boolean() }))
      .max(NOTES_HELD_SHOWN)
      .optional(),
  });
}

/** The meters of the table and of each station. */
function metersPage() {
  return z.strictObject({
    page: z.literal('meters'),
    currency: Short,
    /** The currency's face values (major units): what a drop count asks for. */
    notes: z.array(z.number().int().positive()).max(16),
    /**
     * `table` and `station:N`, a page of them from `offset` (a stadium table's remote stations follow
     * its seats); each meter's value is minor units of `currency` (`unit: money`) or a count.
     */
    offset: z.number().int().min(0),
    more: z.boolean(),
    scopes: z
      .array(
        z.strictObject({ scope: Short, meters: z.array(z.strictObject({ name: Short, unit: z.enum(['money', 'count']), value: z.number().int() })).max(80) }),
      )
      .max(SERVICE_PAGE_SIZE.meters),
  });
}

/** Game recall: a page of played rounds, newest first. */
function recallPage({ RecallRound }: ServiceRows) {
  return z.strictObject({
    page: z.literal('recall'),
    station: Station.nullable(),
    offset: z.number().int(),
    more: z.boolean(),
    rounds: z.array(RecallRound).max(SERVICE_PAGE_SIZE.recall),
  });
}

/** The event log: a page of the journal's entries, filtered. */
function eventsPage({ EventRow }: ServiceRows) {
  return z.strictObject({
    page: z.literal('events'),
    offset: z.number().int(),
    more: z.boolean(),
    filter: EventFilter,
    entries: z.array(EventRow).max(SERVICE_PAGE_SIZE.events),
  });
}

/** The configuration: its items, the queued and at-restart changes, the latest changes. */
function configPage({ ConfigChangeRow }: ServiceRows) {
  return z.strictObject({
    page: z.literal('config'),
    items: z
      .array(
        z.strictObject({
          key: Short,
          value: Text,
          article: Short.optional(),
          editable: z.boolean(),
          /** A rule option: its class from its text (engine/table/rule-options.ts), its default, the values its type has (JSON), and whether the table set it. */
          optionClass: z.enum(OPTION_CLASSES).optional(),
          default: Text.optional(),
          values: z.array(Short).max(8).optional(),
          choice: z.boolean().optional(),
        }),
      )
      .max(128),
    /** Face values (major units) of the currency's notes: what the denominations editor offers. */
    notes: z.array(z.number().int().positive()).max(16),
    /** The bets of the table's game: the rows of the per-bet limits editor. */
    bets: z.array(Short).max(32),
    /** Changes journalled and waiting for the round in play to end (they take effect between rounds). */
    queued: z.array(z.strictObject({ seq: z.number().int(), key: Short, after: Text })).max(16),
    /** Changes journalled in this run that take effect at the next start (the rule options). */
    atRestart: z
      .array(z.strictObject({ seq: z.number().int(), key: Short, after: Text }))
      .max(16)
      .optional(),
    /** The latest journalled changes, newest first, with the values before and after. */
    changes: z.array(ConfigChangeRow).max(8),
  });
}

/** The handpay queue and the cancelled cash-outs. */
function cashoutPage({ EventRow }: ServiceRows) {
  return z.strictObject({
    page: z.literal('cashout'),
    /** The handpays waiting are a page from `offset`, oldest first; `more`: others wait after them. */
    offset: z.number().int().min(0),
    more: z.boolean(),
    /** Null when the handpay queue is not connected on this build. */
    pending: z
      .array(
        z.strictObject({
          station: Station,
          amount: MinorUnits,
          requestTxId: Short,
          twoPerson: z.boolean(),
          /** What the station's open winning-streak bets still hold: not part of this handpay. */
          streakHeld: MinorUnits.positive().optional(),
        }),
      )
      .max(SERVICE_PAGE_SIZE.cashout)
      .nullable(),
    cancelled: z.array(EventRow).max(20),
    twoPersonAbove: MinorUnits,
  });
}

/**
 * Cash-out tickets (issue 47, docs/tito.md): each station's printer, and the last 35 tickets out
 * and in (GLI-11's voucher recall), newest first. A ticket's number is a bearer's: only its last
 * four digits leave the host, as a casino's reports print it.
 */
function ticketsPage({ PrinterRow, TicketRow }: ServiceRows) {
  return z.strictObject({
    page: z.literal('tickets'),
    /** The table's ticket limit (above it a cash-out is a handpay) and validation id (null: not yet assigned). */
    limit: MinorUnits,
    machineId: z.number().int().min(1).max(0xff_ff_ff).nullable(),
    printers: z.array(PrinterRow).max(MAX_STATIONS),
    /** Tickets the printer could not judge, each waiting for a person to settle it (void, or printed and handed over). */
    held: z
      .array(z.strictObject({ station: Station, last4: z.string().regex(/^\d{4}$/), amount: MinorUnits, since: Iso, twoPerson: z.boolean() }))
      .max(MAX_STATIONS),
    /**
     * Tickets in the acceptor left without an end after their approval, each waiting for a person to
     * say whether it is in the cashbox (`seq`: the attempt's request entry, which the action names).
     * The oldest first; more than one may wait at a station.
     */
    heldIn: z
      .array(
        z.strictObject({
          station: Station,
          seq: z.number().int().positive(),
          last4: z.string().regex(/^\d{4}$/),
          amount: MinorUnits,
          since: Iso,
          twoPerson: z.boolean(),
        }),
      )
      .max(SERVICE_PAGE_SIZE.tickets),
    /**
     * Open ticket faults (`ticket-late-verdict`): a printer's late verdict that differs from a
     * person's settlement, each to be worked and cleared (the same `clear-tilt` as the Status page).
     */
    faults: z
      .array(
        z.strictObject({
          station: Station,
          since: Iso,
          /** The ticket (last four digits, amount), what a person settled and who, what the printer said afterwards (its reason, a code the screen words). */
          last4: z.string().regex(/^\d{4}$/),
          amount: MinorUnits,
          settled: z.enum(['printed', 'void']),
          by: Short,
          printer: z.enum(['printed', 'not-printed']),
          reason: z.enum(TICKET_NOT_PRINTED_REASONS).optional(),
        }),
      )
      .max(MAX_STATIONS),
    out: z.array(TicketRow).max(SERVICE_PAGE_SIZE.tickets),
    in: z.array(TicketRow).max(SERVICE_PAGE_SIZE.tickets),
  });
}

/** The remote stations: the LAN listener and each station's enrolment and links. */
function stationsPage() {
  return z.strictObject({
    page: z.literal('stations'),
    /** The table's LAN listener (`https://host:port`) and its certificate's fingerprint, which an enrolment pins; null without remote stations. */
    lan: Short.nullable(),
    fingerprint: Short.nullable(),
    /** Each remote station the table takes: whether it has a credential in force, its screen and acceptor connected. */
    stations: z
      .array(
        z.strictObject({
          station: Station,
          enrolled: z.boolean(),
          enrolledAt: Iso.optional(),
          screen: z.boolean(),
          acceptor: z.boolean(),
          /** Its enrolment file waits to be downloaded (once) by the session that enrolled it. */
          download: z.boolean().optional(),
        }),
      )
      .max(MAX_REMOTE_STATIONS),
  });
}

/**
 * The peer tables a station's credit may move to and from (issue 50 item 4, docs/transfers.md):
 * each as this host's files hold it and whether its links are up; `problem`: refused, its files
 * are not the journal's (the peer-integrity fault): in the files but not enrolled, enrolled but
 * missing, changed, or the files unreadable. Added and removed by two people.
 */
function peersPage() {
  return z.strictObject({
    page: z.literal('peers'),
    /** Whether this host carries transfers now (false: it had no peer tables at start; one added is linked from the next start). */
    transfers: z.boolean(),
    peers: z
      .array(
        z.strictObject({
          table: Short,
          /** Its LAN listener and certificate fingerprint, as its enrolment file gave them; null: this host does not dial it. */
          url: Short.nullable(),
          fingerprint: Short.nullable(),
          stations: z.array(Station).max(MAX_REMOTE_STATIONS),
          /** It holds a credential to dial this host. */
          dialsIn: z.boolean(),
          /** This host's link to it is up; its link into this host is up. */
          linkOut: z.boolean(),
          linkIn: z.boolean(),
          problem: z.enum(PEER_PROBLEMS).nullable(),
          /** This table's enrolment file for it waits for this session's one download. */
          download: z.literal(true).optional(),
        }),
      )
      .max(64),
    /**
     * The transfers this table debited that are still open, the oldest first (at most 32 shown):
     * `disputed`, the amount the receiver claimed it took (a "taken" on other terms); `answers`,
     * its receiver can still answer (a peer, a link up); `settleable`, two people may close it
     * (disputed, or its receiver cannot answer): docs/transfers.md.
     */
    open: z
      .array(
        z.strictObject({
          serial: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
          station: Station,
          to: Short,
          amount: MinorUnits,
          phase: z.enum(['offering', 'recalling']),
          disputed: MinorUnits.nullable(),
          answers: z.boolean(),
          settleable: z.boolean(),
        }),
      )
      .max(MAX_OPEN_SHOWN),
  });
}

/** The open transfers the Peers page lists. */
export const MAX_OPEN_SHOWN = 32;

/**
 * Portugal's progressive jackpot (rules 38–50): each level's pool, the movements of the pools
 * (newest first), the last 25 awards with their rounds (GLI-12's recall depth); null pools: the
 * table plays no progressive.
 */
function jackpotPage() {
  return z.strictObject({
    page: z.literal('jackpot'),
    currency: Short,
    reference: Short.nullable(),
    stake: MinorUnits.nullable(),
    pools: z
      .array(z.strictObject({ level: Short, pool: MinorUnits, held: MinorUnits }))
      .max(4)
      .nullable(),
    stopped: z.boolean(),
    history: z
      .array(
        z.strictObject({
          seq: z.number().int(),
          ts: Iso,
          roundId: Short.nullable(),
          level: Short,
          before: MinorUnits,
          contribution: MinorUnits,
          award: MinorUnits,
          /** The house's rounding up of shared awards (Portugal rule 50 b)), 0 when none. */
          rounding: MinorUnits,
          seed: MinorUnits,
          after: MinorUnits,
        }),
      )
      .max(40),
    hits: z
      .array(
        z.strictObject({
          seq: z.number().int(),
          ts: Iso,
          roundId: Short,
          station: Station,
          seat: z.number().int(),
          combination: JackpotCombination,
          level: Short,
          amount: MinorUnits,
        }),
      )
      .max(25),
  });
}

/** The pending two-person action, the last outcome and the session: with `ServicePage`, the optional fields of `ServiceState`. */
function sessionSchemas<Page extends z.ZodType>(ServicePage: Page) {
  /** A two-person action waiting for its second person. */
  const PendingConfirm = z.strictObject({
    action: ServiceAction,
    requestedBy: Short,
    expiresAt: z.number().int(),
  });

  /** The outcome of the last command, shown on the page: a locale key under `service.` and its values. */
  const ServiceNotice = z.strictObject({
    ok: z.boolean(),
    key: Short,
    values: z.record(z.string().max(32), z.union([z.string().max(200), z.number()])).optional(),
  });

  /** The optional fields of `ServiceState` (protocol/views.ts): absent until sign-in, except `notice`. */
  const ServiceSessionFields = {
    session: z
      .strictObject({
        name: Short,
        staff: StaffNumber,
        role: ServiceRole,
        /** The table's currency, for the amounts on the pages. */
        currency: z.enum(['HKD', 'MOP']),
        /** Host clock (ms): the session ends here unless something is done first. */
        idleEndsAt: z.number().int(),
        /** Grants the HTTP exports (meters CSV/JSON, evidence) to this sign-in only. */
        exportToken: z.string().min(16).max(64),
      })
      .optional(),
    page: ServicePage.optional(),
    confirm: PendingConfirm.nullable().optional(),
    notice: ServiceNotice.nullable().optional(),
    /** A PIN check or an action is running; its outcome comes as `notice`. */
    busy: z.boolean().optional(),
  };
  return { PendingConfirm, ServiceNotice, ServiceSessionFields };
}

/** The session view's schemas, each built once, on the first call. */
function build() {
  const rows = serviceRowSchemas();
  const ServicePage = z.discriminatedUnion('page', [
    statusPage(rows),
    devicesPage(rows),
    metersPage(),
    recallPage(rows),
    eventsPage(rows),
    configPage(rows),
    z.strictObject({ page: z.literal('holds'), table: rows.TableRow, closed: z.boolean() }),
    cashoutPage(rows),
    z.strictObject({ page: z.literal('sync'), sync: rows.SyncRow.nullable() }),
    ticketsPage(rows),
    stationsPage(),
    peersPage(),
    jackpotPage(),
  ]);
  return { ...rows, ServicePage, ...sessionSchemas(ServicePage) };
}

type Built = ReturnType<typeof build>;
let built: Built | null = null;

/** The session view's schemas, built now if not yet. */
export function serviceSchemas(): Built {
  return (built ??= build());
}

/** Whether the session view's schemas have been built in this process (tests: a table or station page never builds them). */
export function serviceSchemasBuilt(): boolean {
  return built !== null;
}

export type InhibitedBy = z.infer<Built['InhibitedBy']>;
export type DeviceRow = z.infer<Built['DeviceRow']>;
export type RecallRound = z.infer<Built['RecallRound']>;
export type EventRow = z.infer<Built['EventRow']>;
export type PrinterRow = z.infer<Built['PrinterRow']>;
export type TicketRow = z.infer<Built['TicketRow']>;
export type ServicePage = z.infer<Built['ServicePage']>;
export type ServiceNotice = z.infer<Built['ServiceNotice']>;

/** A service page (the host checks each page it builds against it): built on its first parse. */
export const ServicePage = z.lazy(() => serviceSchemas().ServicePage);

/** The fault an inhibition names, if it is one: a lookup in the closed list of kinds, never a parse. */
export function inhibitingTilt(reason: InhibitedBy): TiltKind | null {
  return TILT_KINDS.find((k) => reason === `tilt:${k}`) ?? null;
}
