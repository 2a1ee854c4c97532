import { z } from 'zod';
import { CORRECTIONS, GAME_KINDS, UNCORRECTABLE } from '../engine/table/vocabulary.js';
import { DecisionAction, HoldReason, OwnWord, RoundPhase } from './round.js';
import { TiltKind } from './tilts.js';
import { Iso, Short, Station, Text } from './service-fields.js';
import { PRINTER_FAULTS, TICKET_LOG_STATES, TICKET_RETURN_REASONS, TICKET_VOID_REASONS } from './tickets.js';
import { MinorUnits } from './units.js';

// The rows the service pages list (protocol/service-view.ts): built by `serviceRowSchemas`, on the
// service view's first use only, as the pages are (a table or a station page never builds them).

/** A device's link as the Status and Devices pages word it (`service.deviceState.<state>`): a bill acceptor's, or the shoe's (`alarm`). */
export const DEVICE_STATES = ['connecting', 'ready', 'disconnected', 'fault', 'alarm'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/** The upstream sync's state as the Status and Sync pages word it (`service.syncState.<state>`; ledger/sync-client.ts). */
export const SYNC_STATES = ['stopped', 'idle', 'sending', 'backoff', 'blocked'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

/**
 * Why the upstream sync last failed, as the Status and Sync pages word it (`service.syncError.<reason>`;
 * ledger/sync-client.ts `syncErrorReason`); the error's own text stays in the host's log and the ledger's sync anchor.
 */
export const SYNC_ERRORS = ['unreachable', 'timeout', 'refused', 'badAnswer', 'ackMismatch', 'other'] as const;
export type SyncError = (typeof SYNC_ERRORS)[number];

/**
 * A device's event as the Devices page words it (`service.deviceEvent.<name>`): every event a bill
 * acceptor or the shoe reports (hardware/billacceptor/types.ts, hardware/shoe/types.ts), by its name.
 */
export const DEVICE_EVENTS = [
  'connected',
  'disconnected',
  'reconnected',
  'idle',
  'escrowed',
  'stacking',
  'credit',
  'stacked',
  'returned',
  'rejected',
  'jam',
  'ticketEscrowed',
  'ticketStacked',
  'ticketReturned',
  'ticketRefused',
  'stackerFull',
  'stackerRemoved',
  'stackerReplaced',
  'cheated',
  'failure',
  'faultCleared',
  'powerUp',
  'unvaluedCredit',
  'protocolViolation',
  'card',
  'unreadable',
  'burnMode',
  'cutCard',
  'shoeLoaded',
  'shoeEmpty',
  'lid',
  'lock',
  'status',
  'alarm',
  'warning',
] as const;
export type DeviceEvent = (typeof DEVICE_EVENTS)[number];

/** A device, its decoded events and its frames, and the upstream link: the Status and Devices pages' rows. */
function deviceRowSchemas() {
  /** Why a device takes nothing: the technician's switch, or a current fault that stops it. */
  const InhibitedBy = z.union([z.literal('service-disable'), z.templateLiteral(['tilt:', TiltKind])]);

  const DeviceRow = z.strictObject({
    device: Short,
    kind: z.enum(['bill-acceptor', 'shoe']),
    station: Station.optional(),
    spec: Short,
    /** Its link: a code the screen words (`service.deviceState.<state>`), never a sentence. */
    state: z.enum(DEVICE_STATES),
    /** The shoe's lid is open now (the screen says so beside its state). */
    lidOpen: z.boolean().optional(),
    firmware: Short.optional(),
    serial: Short.optional(),
    /** Its last event: a name the screen words (`service.deviceEvent.<name>`), never a sentence. */
    lastEvent: z.enum(DEVICE_EVENTS).nullable(),
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

  /**
   * A decoded device event: its name, which the screen words (`service.deviceEvent.<name>`), and its
   * facts as codes and numbers the device gave (`500 MOP`, `where=stacker`), never a sentence.
   */
  const TraceRow = z.strictObject({ ts: Iso, device: Short, event: z.enum(DEVICE_EVENTS), facts: Text });
  /** A frame on a device's wire: who sent it, its bytes, what they mean, how many times in a row. */
  const FrameRow = z.strictObject({ ts: Iso, dir: z.enum(['tx', 'rx']), hex: Text, meaning: Text, count: z.number().int().positive() });
  const SyncRow = z.strictObject({
    /** The sync client's state: a code the screen words (`service.syncState.<state>`). */
    state: z.enum(SYNC_STATES),
    upstream: Short,
    ackedSeq: z.number().int(),
    headSeq: z.number().int(),
    lagEntries: z.number().int(),
    lagSeconds: z.number().int(),
    /**
     * The last failure by its reason, which the screen words (`service.syncError.<reason>`), never
     * the error's text: an upstream's refusal with its HTTP status and its error code.
     */
    lastError: z
      .strictObject({
        reason: z.enum(SYNC_ERRORS),
        status: z.number().int().min(100).max(599).optional(),
        error: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .optional(),
      })
      .nullable(),
    lastErrorAt: Iso.nullable(),
    lastSuccessAt: Iso.nullable(),
  });
  return { InhibitedBy, DeviceRow, TraceRow, FrameRow, SyncRow };
}

/** A station's printer and a ticket out or in: the Tickets page's rows. */
function ticketRowSchemas() {
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
    /** A ticket out voided: why, as a code the screen words (the printer's reason, a person's settlement). */
    voided: z.enum(TICKET_VOID_REASONS).optional(),
  });
  return { PrinterRow, TicketRow };
}

/**
 * A fault's detail as a key of the catalogues' `tiltDetail` section and its parameters (the
 * journal's `tilt.raise` `say`, terms/said.ts `tiltSaid`): the screen says it in its language.
 * A detail the host did not word (a device's own text) is in the event log's summary only.
 */
function tiltDetailSchema() {
  return saidSchema('tiltDetail');
}

/** Words by key of one section of the catalogues (`tiltDetail`, `journalSaid`) and their parameters (terms/said.ts). */
function saidSchema(section: 'tiltDetail' | 'journalSaid') {
  const keys = { tiltDetail: /^tiltDetail\.[A-Za-z]{1,64}$/, journalSaid: /^journalSaid\.[A-Za-z]{1,64}$/ };
  return z.strictObject({
    key: z.string().regex(keys[section]),
    values: z
      .record(z.string().regex(/^[a-zA-Z]{1,32}$/), z.union([Text, z.number().finite()]))
      .refine((v) => Object.keys(v).length <= 16, 'at most sixteen parameters'),
  });
}

/** The table's round and hold, its faults, its configuration changes and its journal's entries. */
function tableRowSchemas() {
  const TiltRow = z.strictObject({
    kind: TiltKind,
    severity: z.enum(['info', 'warning', 'critical']),
    /** Who may clear it: automatically, an attendant, a supervisor. */
    clearedBy: z.enum(['auto', 'attendant', 'supervisor', 'resolution']),
    station: Station.optional(),
    /** Whether a person may clear it now (its condition has gone). */
    clearable: z.boolean().optional(),
    /** What the host says of it (where a note jammed, the disk's space, who closed the table), by key. */
    detail: tiltDetailSchema().optional(),
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
    /**
     * A seating the configuration gave with a round in play, waiting for that round to end: each
     * station it seats elsewhere (or newly), with its seat (docs/table-host.md, "Stations changing
     * seats with a round in play").
     */
    seatsNext: z
      .array(z.strictObject({ station: z.number().int().positive(), seat: z.number().int().positive() }))
      .max(64)
      .optional(),
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

  return { TiltRow, ConfigChangeRow, TableRow };
}

/** How many decisions, bets and lines of a recalled round the page leaves out past its caps (the evidence export has them): absent when none. */
const RecallOmitted = z.strictObject({
  decisions: z.number().int().min(0),
  bets: z.number().int().min(0),
  lines: z.number().int().min(0),
  /** The dealing errors corrected past the page's 16 (or of a kind this version cannot say): absent when none. */
  corrections: z.number().int().min(1).optional(),
});

/** A played round as game recall shows it, and a journal entry as the event log lists it. */
function recordRowSchemas() {
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
          /** A winning-streak stake wagered in an earlier round and decided in this one. */
          carried: z.literal(true).optional(),
        }),
      )
      .max(512),
    omitted: RecallOmitted.optional(),
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
    /**
     * A fault raised (`tilt.raise`) or cleared (`tilt.clear`): its kind, station and its detail by
     * key where the host worded it, which the screen shows in its language instead of the payload;
     * a clear says who cleared it (`by`; none: it cleared by itself).
     */
    fault: z
      .strictObject({
        kind: TiltKind,
        station: Station.optional(),
        detail: tiltDetailSchema().optional(),
        cleared: z.strictObject({ by: Short.optional() }).optional(),
      })
      .optional(),
    /** What the journal says of an act of its own by key (a meter clear's `say`), which the screen shows instead of the payload. */
    said: saidSchema('journalSaid').optional(),
  });
  return { RecallRound, EventRow };
}

/** Every row schema of the service pages, built now. */
export function serviceRowSchemas() {
  return { ...deviceRowSchemas(), ...ticketRowSchemas(), ...tableRowSchemas(), ...recordRowSchemas() };
}

export type ServiceRows = ReturnType<typeof serviceRowSchemas>;
