import { z } from 'zod';
import { CORRECTIONS, GAME_KINDS, OPTION_CLASSES, UNCORRECTABLE } from '../engine/table/vocabulary.js';
import { DecisionAction, HoldReason, OwnWord, RoundPhase } from './round.js';
import { TILT_KINDS, TiltKind } from './tilts.js';
import { JackpotCombination } from './jackpot.js';
import { EventFilter, ServiceAction, ServiceRole, StaffNumber } from './service.js';
import { Iso, Short, Station, Text } from './service-fields.js';
import { PRINTER_FAULTS, TICKET_LOG_STATES, TICKET_RETURN_REASONS } from './tickets.js';
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
export const SERVICE_PAGE_SIZE = { events: 40, recall: 3, tickets: 35 } as const;

/** The session view's schemas, each built once, on the first call. */
function build() {
  /** Why a device takes nothing: the technician's switch, or a current fault that stops it. */
  const InhibitedBy = z.union([z.literal('service-disable'), z.templateLiteral(['tilt:', TiltKind])]);

  const DeviceRow = z.strictObject({
    device: Short,
    kind: z.enum(['bill-acceptor', 'shoe']),
    station: Station.optional(),
    spec: Short,
    state: Short,
    firmware: Short.optional(),
    serial: Short.optional(),
    lastEvent: Short.nullable(),
    /** The protocol it speaks (`id003`, `ssp`, `framed`, `ascii`). */
    protocol: Short.optional(),
    /** The technician's switch (enable/disable in service mode). */
    enabled: z.boolean(),
    /** False where service mode offers no enable/disable (the shoe: see docs/service-mode.md). */
    switchable: z.boolean().optional(),
    /**
     * Why the device takes nothing now, when it is inhibited: `service-disable` (the technician) and
     * `tilt:<kind>` for each current fault that stops it. Enabled by the technician and listed here
     * means a fault still holds it.
     */
    inhibitedBy: z.array(InhibitedBy).max(16).optional(),
  });

  const TraceRow = z.strictObject({ ts: Iso, device: Short, event: Text });
  /** A frame on a device's wire: who sent it, its bytes, what they mean, how many times in a row. */
  const FrameRow = z.strictObject({ ts: Iso, dir: z.enum(['tx', 'rx']), hex: Text, meaning: Text, count: z.number().int().positive() });
  const SyncRow = z.strictObject({
    state: Short,
    upstream: Short,
    ackedSeq: z.number().int(),
    headSeq: z.number().int(),
    lagEntries: z.number().int(),
    lagSeconds: z.number().int(),
    lastError: Text.nullable(),
    lastErrorAt: Iso.nullable(),
    lastSuccessAt: Iso.nullable(),
  });
  /** A station's ticket printer: its link, its paper, what stops it, and when it last answered. */
  const PrinterRow = z.strictObject({
    station: Station,
    device: Short,
    spec: Short,
    state: z.enum(['connecting', 'ready', 'disconnected', 'fault']),
    firmware: Short.optional(),
    /** Null until its first full status reply. */
    paper: z.enum(['ok', 'low', 'out']).nullable(),
    faults: z.array(z.enum(PRINTER_FAULTS)).max(PRINTER_FAULTS.length),
    chassisOpen: z.boolean(),
    /** A ticket waits in the chute for the player to take it. */
    paperInChute: z.boolean(),
    busy: z.boolean(),
    /** When its link or its status last changed (the driver polls it; the same reply again changes nothing). */
    changedAt: Iso.nullable(),
  });
  /** A ticket out, or an attempt to redeem one here; `last4`: the validation number's last four digits only. */
  const TicketRow = z.strictObject({
    direction: z.enum(['out', 'in']),
    seq: z.number().int(),
    ts: Iso,
    since: Iso,
    station: Station,
    last4: z.string().regex(/^\d{4}$/),
    amount: MinorUnits.nullable(),
    state: z.enum(TICKET_LOG_STATES),
    /** A ticket in that went back: why, in the player's words too. */
    returned: z.enum(TICKET_RETURN_REASONS).optional(),
    /** A ticket out voided: the printer's reason as the driver gave it. */
    voided: Short.optional(),
  });
  const TiltRow = z.strictObject({
    kind: TiltKind,
    severity: z.enum(['info', 'warning', 'critical']),
    /** Who may clear it: automatically, an attendant, a supervisor. */
    clearedBy: z.enum(['auto', 'attendant', 'supervisor', 'resolution']),
    station: Station.optional(),
    /** Whether a person may clear it now (its condition has gone). */
    clearable: z.boolean().optional(),
  });
  const ConfigChangeRow = z.strictObject({
    seq: z.number().int(),
    ts: Iso,
    key: Short,
    before: Text,
    after: Text,
    who: Short,
    witness: Short.optional(),
    authorisation: Short,
  });
  const TableRow = z.strictObject({
    game: z.enum(GAME_KINDS),
    profile: Short,
    phase: RoundPhase,
    roundId: Short,
    hold: HoldReason.nullable(),
    /**
     * The hold's shoe sequence number and every read that left the shoe during it (a shoe without a
     * gate): what the resolution must account for (docs/table-host.md, Holds).
     */
    holdReads: z
      .strictObject({
        shoeSequence: z.number().int().nonnegative().nullable(),
        reads: z.array(z.strictObject({ card: z.string().max(3).optional(), shoeSequence: z.number().int().nonnegative().optional() })).max(64),
      })
      .optional(),
    newBets: z.boolean(),
    /** Closed by a supervisor in service mode (new bets may also stop for other faults). */
    closed: z.boolean().optional(),
    /** The card that caused the hold, when one was read. */
    holdCard: z.string().max(3).optional(),
    /**
     * The corrections the game's text has for the hold in force, each with its article; `forbidden`:
     * the text keeps the card (its article says so). None: the hold is resolved by a void.
     */
    corrections: z
      .array(z.strictObject({ correction: z.enum(CORRECTIONS), article: Short, forbidden: z.boolean().optional() }))
      .max(8)
      .optional(),
    /** Misdrawn cards kept for the next card a player asks for (Portugal rule 18). */
    held: z.array(z.string().max(3)).max(8).optional(),
  });

  const RoundCard = z.strictObject({ card: z.string().max(3), to: z.string().max(32) });
  const RecallRound = z.strictObject({
    roundId: Short,
    status: z.enum(['settled', 'void']),
    seq: z.number().int(),
    ts: Iso,
    game: Short,
    profile: Short,
    cards: z.array(RoundCard).max(416),
    decisions: z.array(z.strictObject({ seat: z.number().int(), hand: z.number().int().optional(), action: Short, auto: z.boolean().optional() })).max(512),
    /** The catalogue keys of the actions its game words its own way (war's surrender), when it is this table's game. */
    actionWords: z.partialRecord(DecisionAction, OwnWord).optional(),
    // As many as the ledger allows in one round: 7 stations × 32 bets, 512 settlement lines.
    bets: z.array(z.strictObject({ station: z.number().int(), seat: z.number().int(), bet: Short, amount: MinorUnits })).max(224),
    lines: z
      .array(
        z.strictObject({
          station: z.number().int(),
          seat: z.number().int(),
          bet: Short,
          hand: z.number().int().optional(),
          stake: MinorUnits,
          net: MinorUnits,
          rule: Short,
          choices: z.array(Short).max(12).optional(),
          authorisation: Short.optional(),
        }),
      )
      .max(512),
    reason: Text.optional(),
    authorisedBy: z.array(Short).max(4).optional(),
    /** A void: why no correction was possible, and the article that cancels such a round. */
    uncorrectable: z.enum(UNCORRECTABLE).optional(),
    voidRule: Short.optional(),
    /** Dealing errors corrected in the round, each with its article and the two people. */
    corrections: z
      .array(z.strictObject({ correction: z.enum(CORRECTIONS), article: Short, card: z.string().max(3).optional(), confirmedBy: z.array(Short).max(4) }))
      .max(16)
      .optional(),
    /** The rule set and its authorisation on record when the round was played (issue 51); absent in a journal older than the record. */
    rules: z
      .strictObject({
        reference: Short.optional(),
        effective: Short.optional(),
        digest: z.string().regex(/^[0-9a-f]{64}$/),
        article: Short,
        demonstration: z.boolean(),
      })
      .optional(),
  });

  const EventRow = z.strictObject({
    seq: z.number().int(),
    ts: Iso,
    type: Short,
    severity: z.enum(['info', 'warning', 'critical']),
    /** The payload, shortened for the list; the full entry is in the export. */
    summary: Text,
  });

  const ServicePage = z.discriminatedUnion('page', [
    z.strictObject({
      page: z.literal('status'),
      table: TableRow,
      tilts: z.array(TiltRow).max(64).nullable(),
      devices: z.array(DeviceRow).max(16),
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
    }),
    z.strictObject({
      page: z.literal('devices'),
      /** The device whose trace is shown; null: every device's events, no frames. */
      device: Short.nullable(),
      devices: z.array(DeviceRow).max(16),
      /** Decoded device events, newest first (the chosen device's only, when one is chosen). */
      trace: z.array(TraceRow).max(60),
      /** The chosen device's frames, newest first. */
      frames: z.array(FrameRow).max(80),
    }),
    z.strictObject({
      page: z.literal('meters'),
      currency: Short,
      /** The currency's face values (major units): what a drop count asks for. */
      notes: z.array(z.number().int().positive()).max(16),
      /** `table` and `station:N`; each meter's value is minor units of `currency` (`unit: money`) or a count. */
      scopes: z
        .array(
          z.strictObject({ scope: Short, meters: z.array(z.strictObject({ name: Short, unit: z.enum(['money', 'count']), value: z.number().int() })).max(80) }),
        )
        .max(8),
    }),
    z.strictObject({
      page: z.literal('recall'),
      station: Station.nullable(),
      offset: z.number().int(),
      more: z.boolean(),
      rounds: z.array(RecallRound).max(SERVICE_PAGE_SIZE.recall),
    }),
    z.strictObject({
      page: z.literal('events'),
      offset: z.number().int(),
      more: z.boolean(),
      filter: EventFilter,
      entries: z.array(EventRow).max(SERVICE_PAGE_SIZE.events),
    }),
    z.strictObject({
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
    }),
    z.strictObject({ page: z.literal('holds'), table: TableRow, closed: z.boolean() }),
    z.strictObject({
      page: z.literal('cashout'),
      /** Null when the handpay queue is not connected on this build. */
      pending: z
        .array(z.strictObject({ station: Station, amount: MinorUnits, requestTxId: Short, twoPerson: z.boolean() }))
        .max(16)
        .nullable(),
      cancelled: z.array(EventRow).max(20),
      twoPersonAbove: MinorUnits,
    }),
    z.strictObject({ page: z.literal('sync'), sync: SyncRow.nullable() }),
    /**
     * Cash-out tickets (issue 47, docs/tito.md): each station's printer, and the last 35 tickets out
     * and in (GLI-11's voucher recall), newest first. A ticket's number is a bearer's: only its last
     * four digits leave the host, as a casino's reports print it.
     */
    z.strictObject({
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
       * Open ticket faults (`ticket-late-verdict`): a printer's late verdict that differs from a
       * person's settlement, each to be worked and cleared (the same `clear-tilt` as the Status page).
       */
      faults: z
        .array(
          z.strictObject({
            station: Station,
            since: Iso,
            /** The ticket (last four digits, amount), what a person settled and who, what the printer said afterwards (its reason as the driver gave it). */
            last4: z.string().regex(/^\d{4}$/),
            amount: MinorUnits,
            settled: z.enum(['printed', 'void']),
            by: Short,
            printer: z.enum(['printed', 'not-printed']),
            reason: Short.optional(),
          }),
        )
        .max(MAX_STATIONS),
      out: z.array(TicketRow).max(SERVICE_PAGE_SIZE.tickets),
      in: z.array(TicketRow).max(SERVICE_PAGE_SIZE.tickets),
    }),

    z.strictObject({
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
    }),
    /**
     * The peer tables a station's credit may move to and from (issue 50 item 4, docs/transfers.md):
     * each as this host's files hold it and whether its links are up; `problem`: refused, its files
     * are not the journal's (the peer-integrity fault): in the files but not enrolled, enrolled but
     * missing, changed, or the files unreadable. Added and removed by two people.
     */
    z.strictObject({
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
    }),
    /**
     * Portugal's progressive jackpot (rules 38–50): each level's pool, the movements of the pools
     * (newest first), the last 25 awards with their rounds (GLI-12's recall depth); null pools: the
     * table plays no progressive.
     */
    z.strictObject({
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
    }),
  ]);

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
  return {
    InhibitedBy,
    DeviceRow,
    TraceRow,
    FrameRow,
    SyncRow,
    TiltRow,
    PrinterRow,
    TicketRow,
    ConfigChangeRow,
    TableRow,
    RecallRound,
    EventRow,
    ServicePage,
    PendingConfirm,
    ServiceNotice,
    ServiceSessionFields,
  };
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
