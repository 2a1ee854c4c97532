import { z } from 'zod';
import { CORRECTIONS, GAME_KINDS, OPTION_CLASSES, UNCORRECTABLE } from '../engine/table/vocabulary.js';
import { DecisionAction, HoldReason, OwnWord, RoundPhase } from './round.js';
import { TILT_KINDS, TiltKind } from './tilts.js';
import { JackpotCombination } from './jackpot.js';

/** The table's words for dealing errors corrected, why a void was the last resort, and rule option classes (the engine's lists). */
export { CORRECTIONS, OPTION_CLASSES, UNCORRECTABLE, RULE_REFUSALS } from '../engine/table/vocabulary.js';
export type { Correction, OptionClass, Uncorrectable, RuleRefusalReason } from '../engine/table/vocabulary.js';
import { MAX_REMOTE_STATIONS, MinorUnits, StationNumber } from './units.js';

// Service mode (issue 9): the commands of the `/service` view and what a signed-in session sees.
// Before sign-in the view carries only the cabinet label (table id, software version) and the
// sign-in prompt; every page below is sent only to a signed-in session.

export const ServiceRole = z.enum(['technician', 'supervisor', 'auditor']);
export type ServiceRole = z.infer<typeof ServiceRole>;

export const SERVICE_PAGES = ['status', 'devices', 'meters', 'recall', 'events', 'config', 'holds', 'cashout', 'sync', 'stations', 'jackpot'] as const;
export const ServicePageName = z.enum(SERVICE_PAGES);
export type ServicePageName = z.infer<typeof ServicePageName>;

/** A staff number as printed on the badge; the account's name is shown once signed in. */
export const StaffNumber = z.string().regex(/^\d{3,8}$/);
/** PINs are digits only, so the service screen's keypad can enter them. */
export const Pin = z.string().regex(/^\d{4,12}$/);

const Station = StationNumber;
const Short = z.string().max(128);
const Text = z.string().max(400);
const Iso = z.string().max(40);

/** Actions of service mode; those in TWO_PERSON_ACTIONS wait for a second person's PIN. */
export const ServiceAction = z.discriminatedUnion('kind', [
  // The round on screen when the action was asked for: the host refuses it for any other round.
  // The last resort: `uncorrectable` says why no correction the text orders could put the round right.
  z.strictObject({
    kind: z.literal('void-round'),
    roundId: z.string().min(1).max(128),
    reason: z.string().min(1).max(200),
    uncorrectable: z.enum(UNCORRECTABLE).optional(),
  }),
  /** A supervisor stops the round for a dealing error seen at the table: the table holds until it is corrected or voided. */
  z.strictObject({ kind: z.literal('dealing-error'), roundId: z.string().min(1).max(128) }),
  /** Two people correct the dealing error the table holds for, as the game's text orders (the article is the engine's). */
  z.strictObject({ kind: z.literal('correct'), roundId: z.string().min(1).max(128), correction: z.enum(CORRECTIONS) }),
  z.strictObject({ kind: z.literal('enter-card'), roundId: z.string().min(1).max(128), card: z.string().regex(/^[A2-9TJQK][SHDC]$/) }),
  z.strictObject({
    kind: z.literal('meter-clear'),
    scope: z.string().regex(/^(table|station:\d{1,3})$/),
    authorisation: z.string().min(1).max(64),
    reason: z.string().min(1).max(200),
  }),
  z.strictObject({
    kind: z.literal('config-change'),
    key: z.string().min(1).max(64),
    /** The new value as JSON (the screen's editor builds it; the host validates it before anyone confirms). */
    value: z.string().min(1).max(1000),
    /** The regulator's reference, e.g. `DICJ-2026/123`. */
    authorisation: z.string().min(1).max(64),
  }),
  z.strictObject({ kind: z.literal('handpay-confirm'), station: Station, requestTxId: z.string().min(1).max(128) }),
  z.strictObject({ kind: z.literal('new-shoe') }),
  z.strictObject({ kind: z.literal('table-open'), open: z.boolean() }),
  z.strictObject({ kind: z.literal('test-note'), station: Station }),
  z.strictObject({ kind: z.literal('test-card') }),
  z.strictObject({ kind: z.literal('device-enable'), device: z.string().min(1).max(32), enabled: z.boolean() }),
  z.strictObject({ kind: z.literal('device-reconnect'), device: z.string().min(1).max(32) }),
  z.strictObject({ kind: z.literal('sync-retry') }),
  /** Clears a fault a person may clear (the tilt manager checks the role and that its condition went). */
  z.strictObject({ kind: z.literal('clear-tilt'), tilt: z.string().min(1).max(48), station: Station.optional() }),
  z.strictObject({ kind: z.literal('program-hash') }),
  /** Gives a remote station a new credential (its enrolment file, downloadable once); any old one stops working. */
  z.strictObject({ kind: z.literal('station-enrol'), station: Station }),
  /** Revokes a remote station's credential: its connections close at once. */
  z.strictObject({ kind: z.literal('station-revoke'), station: Station }),
  /**
   * Two people counted a station's cashbox at the drop (`notes`: face value in major units and how
   * many): the host sets it against the notes credited there since its previous drop, journals the
   * reconciliation (`cashbox.drop`) and says the difference.
   */
  z.strictObject({
    kind: z.literal('cashbox-drop'),
    station: Station,
    notes: z.array(z.strictObject({ note: z.number().int().positive().max(1_000_000), count: z.number().int().min(0).max(100_000) })).max(16),
  }),
  /** Two people set a progressive jackpot level on the authority's reference (Portugal rules 40, 44). */
  z.strictObject({
    kind: z.literal('jackpot-reset'),
    level: z.string().regex(/^[a-z][a-z0-9-]{0,23}$/),
    to: MinorUnits.positive(),
    authorisation: z.string().min(1).max(64),
  }),
]);
export type ServiceAction = z.infer<typeof ServiceAction>;
export type ServiceActionKind = ServiceAction['kind'];

/** The actions a supervisor starts and a second, different person confirms with their PIN. */
export const TWO_PERSON_ACTIONS: ReadonlySet<ServiceActionKind> = new Set([
  'void-round',
  'enter-card',
  'correct',
  'meter-clear',
  'config-change',
  // Only above the configured amount; the host decides per request.
  'handpay-confirm',
  'station-enrol',
  'station-revoke',
  'jackpot-reset',
  'cashbox-drop',
]);

export const EventFilter = z.strictObject({
  types: z.array(z.string().min(1).max(32)).max(16).optional(),
  severity: z.enum(['info', 'warning', 'critical']).optional(),
  /** ISO 8601 times, inclusive. */
  from: Iso.optional(),
  to: Iso.optional(),
});
export type EventFilter = z.infer<typeof EventFilter>;

/** Service commands, added to `CommandBody` of `protocol/messages.ts`. */
export const SERVICE_COMMANDS = [
  z.strictObject({ name: z.literal('service-sign-in'), staff: StaffNumber, pin: Pin }),
  z.strictObject({ name: z.literal('service-sign-out') }),
  /** Opens a page; `offset` pages through long lists (event log, recall), newest first. */
  z.strictObject({
    name: z.literal('service-page'),
    page: ServicePageName,
    offset: z.number().int().min(0).max(10_000_000).optional(),
    station: Station.optional(),
    filter: EventFilter.optional(),
    /** Devices page: the device whose trace and frames are shown (`BA-3`, `shoe`). */
    device: z.string().min(1).max(32).optional(),
  }),
  z.strictObject({ name: z.literal('service-action'), action: ServiceAction }),
  /** The second person of a two-person action. */
  z.strictObject({ name: z.literal('service-confirm'), staff: StaffNumber, pin: Pin }),
  z.strictObject({ name: z.literal('service-cancel') }),
] as const;

// ── What a signed-in session sees ───────────────────────────────────────────

/** Why a device takes nothing: the technician's switch, or a current fault that stops it. */
export const InhibitedBy = z.union([z.literal('service-disable'), z.templateLiteral(['tilt:', TiltKind])]);
export type InhibitedBy = z.infer<typeof InhibitedBy>;

/** The fault an inhibition names, if it is one: a lookup in the closed list of kinds, never a parse. */
export function inhibitingTilt(reason: InhibitedBy): TiltKind | null {
  return TILT_KINDS.find((k) => reason === `tilt:${k}`) ?? null;
}

export const DeviceRow = z.strictObject({
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
export type DeviceRow = z.infer<typeof DeviceRow>;

export const TraceRow = z.strictObject({ ts: Iso, device: Short, event: Text });
/** A frame on a device's wire: who sent it, its bytes, what they mean, how many times in a row. */
export const FrameRow = z.strictObject({ ts: Iso, dir: z.enum(['tx', 'rx']), hex: Text, meaning: Text, count: z.number().int().positive() });
export const SyncRow = z.strictObject({
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
export const TiltRow = z.strictObject({
  kind: TiltKind,
  severity: z.enum(['info', 'warning', 'critical']),
  /** Who may clear it: automatically, an attendant, a supervisor. */
  clearedBy: z.enum(['auto', 'attendant', 'supervisor', 'resolution']),
  station: Station.optional(),
  /** Whether a person may clear it now (its condition has gone). */
  clearable: z.boolean().optional(),
});
export const ConfigChangeRow = z.strictObject({
  seq: z.number().int(),
  ts: Iso,
  key: Short,
  before: Text,
  after: Text,
  who: Short,
  witness: Short.optional(),
  authorisation: Short,
});
export const TableRow = z.strictObject({
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
export const RecallRound = z.strictObject({
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
});
export type RecallRound = z.infer<typeof RecallRound>;

export const EventRow = z.strictObject({
  seq: z.number().int(),
  ts: Iso,
  type: Short,
  severity: z.enum(['info', 'warning', 'critical']),
  /** The payload, shortened for the list; the full entry is in the export. */
  summary: Text,
});
export type EventRow = z.infer<typeof EventRow>;

/**
 * Items per page of the event log and of game recall. Three rounds of the largest size the ledger
 * accepts still make a snapshot under MAX_HOST_MESSAGE_BYTES (`service.test.ts` builds them).
 */
export const SERVICE_PAGE_SIZE = { events: 40, recall: 3 } as const;

export const ServicePage = z.discriminatedUnion('page', [
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
export type ServicePage = z.infer<typeof ServicePage>;

/** A two-person action waiting for its second person. */
export const PendingConfirm = z.strictObject({
  action: ServiceAction,
  requestedBy: Short,
  expiresAt: z.number().int(),
});

/** The outcome of the last command, shown on the page: a locale key under `service.` and its values. */
export const ServiceNotice = z.strictObject({
  ok: z.boolean(),
  key: Short,
  values: z.record(z.string().max(32), z.union([z.string().max(200), z.number()])).optional(),
});
export type ServiceNotice = z.infer<typeof ServiceNotice>;

/** The optional fields of `ServiceState` (protocol/views.ts): absent until sign-in, except `notice`. */
export const ServiceSessionFields = {
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
