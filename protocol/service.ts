import { z } from 'zod';
import { lazily } from './lazy.js';
import { CORRECTIONS, UNCORRECTABLE } from '../engine/table/vocabulary.js';

/** The table's words for dealing errors corrected, why a void was the last resort, and rule option classes (the engine's lists). */
export { CORRECTIONS, OPTION_CLASSES, UNCORRECTABLE, RULE_REFUSALS } from '../engine/table/vocabulary.js';
export type { Correction, OptionClass, Uncorrectable, RuleRefusalReason } from '../engine/table/vocabulary.js';
import { CardCodeSchema } from './round.js';
import { Iso, Station } from './service-fields.js';
import { isStationNumber, MinorUnits } from './units.js';

// Service mode (issue 9): the commands of the `/service` view (what a signed-in session sees: service-view.ts).
// Before sign-in the view carries only the cabinet label (table id, software version) and the
// sign-in prompt; every page below is sent only to a signed-in session.

export const ServiceRole = z.enum(['technician', 'supervisor', 'auditor']);
export type ServiceRole = z.infer<typeof ServiceRole>;

export const SERVICE_PAGES = [
  'status',
  'devices',
  'meters',
  'recall',
  'events',
  'config',
  'holds',
  'cashout',
  'tickets',
  'sync',
  'stations',
  'peers',
  'jackpot',
] as const;
export const ServicePageName = z.enum(SERVICE_PAGES);
export type ServicePageName = z.infer<typeof ServicePageName>;

/** A staff number as printed on the badge; the account's name is shown once signed in. */
export const StaffNumber = z.string().regex(/^\d{3,8}$/);
/** PINs are digits only, so the service screen's keypad can enter them. */
export const Pin = z.string().regex(/^\d{4,12}$/);

/** The round in play and the table's course: a void, a dealing error and its correction, a card entered, a new shoe, the table opened or closed. */
function roundActions() {
  return {
    // The round on screen when the action was asked for: the host refuses it for any other round.
    // The last resort: `uncorrectable` says why no correction the text orders could put the round right.
    voidRound: z.strictObject({
      kind: z.literal('void-round'),
      roundId: z.string().min(1).max(128),
      reason: z.string().min(1).max(200),
      uncorrectable: z.enum(UNCORRECTABLE).optional(),
    }),
    /** A supervisor stops the round for a dealing error seen at the table: the table holds until it is corrected or voided. */
    dealingError: z.strictObject({ kind: z.literal('dealing-error'), roundId: z.string().min(1).max(128) }),
    /** Two people correct the dealing error the table holds for, as the game's text orders (the article is the engine's). */
    correct: z.strictObject({ kind: z.literal('correct'), roundId: z.string().min(1).max(128), correction: z.enum(CORRECTIONS) }),
    enterCard: z.strictObject({ kind: z.literal('enter-card'), roundId: z.string().min(1).max(128), card: CardCodeSchema }),
    newShoe: z.strictObject({ kind: z.literal('new-shoe') }),
    tableOpen: z.strictObject({ kind: z.literal('table-open'), open: z.boolean() }),
  };
}

/** Money and the rules: meters cleared, a configuration change, a handpay, a held ticket, a cashbox drop, a jackpot level reset. */
function moneyActions() {
  return {
    meterClear: z.strictObject({
      kind: z.literal('meter-clear'),
      scope: z
        .string()
        .regex(/^(table|station:[1-9]\d{0,3})$/)
        .refine((s) => s === 'table' || isStationNumber(Number(s.slice('station:'.length))), 'a station this table may have'),
      authorisation: z.string().min(1).max(64),
      /** A person's own words; the service screen sends none, and the host words the clear by key (`journalSaid.meterClear`). */
      reason: z.string().min(1).max(200).optional(),
    }),
    configChange: z.strictObject({
      kind: z.literal('config-change'),
      key: z.string().min(1).max(64),
      /** The new value as JSON (the screen's editor builds it; the host validates it before anyone confirms). */
      value: z.string().min(1).max(1000),
      /** The regulator's reference, e.g. `DICJ-2026/123`. */
      authorisation: z.string().min(1).max(64),
      /** The day (YYYY-MM-DD) a rule set's authorisation takes effect (rule options only); absent: the day the change is journalled. */
      effective: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .optional(),
    }),
    handpayConfirm: z.strictObject({ kind: z.literal('handpay-confirm'), station: Station, requestTxId: z.string().min(1).max(128) }),
    /**
     * A person settles the ticket a station holds after a jam (the printer could not say whether it
     * printed): `void`, the credit back on the station's meter, or `printed`, handed to the player.
     * `ticket`: the validation number's last four digits, as the page shows it (the host checks it).
     */
    ticketSettle: z.strictObject({
      kind: z.literal('ticket-settle'),
      station: Station,
      ticket: z.string().regex(/^\d{4}$/),
      outcome: z.enum(['void', 'printed']),
    }),
    /**
     * A person settles a ticket in that the acceptor left without an end after its approval (a
     * protocol broken after STACK, a jam): `stacked`, found in the cashbox, the station credited;
     * `returned`, not there. `seq` names the attempt (its request's journal entry), `ticket` the
     * number's last four digits as the page shows them (the host checks both).
     */
    ticketInSettle: z.strictObject({
      kind: z.literal('ticket-in-settle'),
      station: Station,
      seq: z.number().int().positive(),
      ticket: z.string().regex(/^\d{4}$/),
      outcome: z.enum(['stacked', 'returned']),
    }),
    /**
     * A person settles a note the host answered "stack" to and no acceptor will end: `stacked`,
     * found in the cashbox, the station credited; `returned`, not there. `seq` names its escrow entry
     * (the host checks it is held for a person, at `station`).
     */
    noteSettle: z.strictObject({
      kind: z.literal('note-settle'),
      station: Station,
      seq: z.number().int().positive(),
      outcome: z.enum(['stacked', 'returned']),
    }),
    /**
     * Two people counted a station's cashbox at the drop (`notes`: face value in major units and how
     * many): the host sets it against the notes credited there since its previous drop, journals the
     * reconciliation (`cashbox.drop`) and says the difference.
     */
    cashboxDrop: z.strictObject({
      kind: z.literal('cashbox-drop'),
      station: Station,
      notes: z.array(z.strictObject({ note: z.number().int().positive().max(1_000_000), count: z.number().int().min(0).max(100_000) })).max(16),
    }),
    /** Two people set a progressive jackpot level on the authority's reference (Portugal rules 40, 44). */
    jackpotReset: z.strictObject({
      kind: z.literal('jackpot-reset'),
      level: z.string().regex(/^[a-z][a-z0-9-]{0,23}$/),
      to: MinorUnits.positive(),
      authorisation: z.string().min(1).max(64),
    }),
  };
}

/** Devices, the upstream link, faults and the program's hash. */
function deviceActions() {
  return {
    testNote: z.strictObject({ kind: z.literal('test-note'), station: Station }),
    testCard: z.strictObject({ kind: z.literal('test-card') }),
    deviceEnable: z.strictObject({ kind: z.literal('device-enable'), device: z.string().min(1).max(32), enabled: z.boolean() }),
    deviceReconnect: z.strictObject({ kind: z.literal('device-reconnect'), device: z.string().min(1).max(32) }),
    syncRetry: z.strictObject({ kind: z.literal('sync-retry') }),
    /** Clears a fault a person may clear (the tilt manager checks the role and that its condition went). */
    clearTilt: z.strictObject({ kind: z.literal('clear-tilt'), tilt: z.string().min(1).max(48), station: Station.optional() }),
    programHash: z.strictObject({ kind: z.literal('program-hash') }),
  };
}

/** Who may use the table: service accounts, remote stations and peer tables. */
function accessActions() {
  return {
    /** Gives a remote station a new credential (its enrolment file, downloadable once); any old one stops working. */
    stationEnrol: z.strictObject({ kind: z.literal('station-enrol'), station: Station }),
    /** A supervisor lifts another account's lock (issue 50): journalled as `service.account`, action `unlock`. */
    accountUnlock: z.strictObject({ kind: z.literal('account-unlock'), staff: StaffNumber }),
    /**
     * Two people enrol a peer table (issue 50 item 4): `enrolment` is the file its host handed this
     * one (its address, certificate, the secret it knows this table by), `stations` the remote
     * stations homed there. Journalled as `peer.credential` with a digest; dialled from the next start.
     */
    peerAdd: z.strictObject({
      kind: z.literal('peer-add'),
      enrolment: z.string().min(2).max(24_000),
      stations: z.array(Station).max(250),
    }),
    /**
     * Two people make this table's enrolment file for the peer table `table` (what its `peer-add`
     * takes): a new credential it dials this table with, journalled `peer.credential` `issue`; the
     * file is downloaded once, by the session that asked, within 5 minutes.
     */
    peerIssue: z.strictObject({ kind: z.literal('peer-issue'), table: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/) }),
    /** Two people revoke the credential the peer table `table` dials this table with (`peer.credential` `withdraw`): its link in closes at once. */
    peerWithdraw: z.strictObject({ kind: z.literal('peer-withdraw'), table: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/) }),
    /** Two people remove a peer table from both peer files: its link closes at once, no credit moves to or from it. */
    peerRevoke: z.strictObject({ kind: z.literal('peer-revoke'), table: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/) }),
    /**
     * Two people close this table's open transfer `serial` as `completed` (the receiver has the
     * credit) or `reversed` (the station's credit back here), on the reference they typed: only one
     * held disputed or whose receiver cannot answer (docs/transfers.md). The closing is journalled
     * with both names.
     */
    transferSettle: z.strictObject({
      kind: z.literal('transfer-settle'),
      serial: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
      as: z.enum(['completed', 'reversed']),
      reference: z.string().min(1).max(64),
    }),
    /** Revokes a remote station's credential: its connections close at once. */
    stationRevoke: z.strictObject({ kind: z.literal('station-revoke'), station: Station }),
  };
}

/**
 * Actions of service mode; those in TWO_PERSON_ACTIONS wait for a second person's PIN. Built on
 * its first parse (the host's, of a command): a screen never parses one (issue 31, a page's heap).
 */
export const ServiceAction = z.lazy(() => {
  const r = roundActions();
  const m = moneyActions();
  const d = deviceActions();
  const a = accessActions();
  return z.discriminatedUnion('kind', [
    r.voidRound,
    r.dealingError,
    r.correct,
    r.enterCard,
    m.meterClear,
    m.configChange,
    m.handpayConfirm,
    m.ticketSettle,
    m.ticketInSettle,
    m.noteSettle,
    r.newShoe,
    r.tableOpen,
    d.testNote,
    d.testCard,
    d.deviceEnable,
    d.deviceReconnect,
    d.syncRetry,
    d.clearTilt,
    d.programHash,
    a.stationEnrol,
    a.accountUnlock,
    a.peerAdd,
    a.peerIssue,
    a.peerWithdraw,
    a.peerRevoke,
    a.transferSettle,
    a.stationRevoke,
    m.cashboxDrop,
    m.jackpotReset,
  ]);
});
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
  // As a handpay: only above the two-person amount.
  'ticket-settle',
  'ticket-in-settle',
  'note-settle',
  'station-enrol',
  'station-revoke',
  'peer-add',
  'peer-revoke',
  'peer-issue',
  'peer-withdraw',
  'transfer-settle',
  'jackpot-reset',
  'cashbox-drop',
]);

export const EventFilter = lazily('EventFilter', () =>
  z.strictObject({
    types: z.array(z.string().min(1).max(32)).max(16).optional(),
    severity: z.enum(['info', 'warning', 'critical']).optional(),
    /** ISO 8601 times, inclusive. */
    from: Iso.optional(),
    to: Iso.optional(),
  }),
);
export type EventFilter = z.infer<typeof EventFilter>;

/** Service commands, added to `CommandBody` of `protocol/messages.ts` (built with it, on its first use). */
export const serviceCommands = () =>
  [
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
