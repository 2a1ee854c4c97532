import { z } from 'zod';
import { lazily } from './lazy.js';
import { GAME_KINDS } from '../engine/table/vocabulary.js';
import { JackpotCombination } from './jackpot.js';
import { BetId, DecisionAction, LineBet, OwnWord, RoundView, Spot, StationBetting, StationDecision, StreakMarker } from './round.js';
import { TiltKind } from './tilts.js';
import { HANDPAY_WHY, MAX_STATION_TICKETS, StationTicket, TICKET_RETURN_REASONS } from './tickets.js';
import { isStationNumber, MAX_REMOTE_STATIONS, MAX_STATION, MAX_STATIONS, MinorUnits, StationNumber } from './units.js';
import { serviceSchemas } from './service-view.js';
import { StationTransfers } from './transfer-requests.js';
import { HistoryEntry, MAX_HISTORY, MAX_RECALL_ROUNDS, PayLine, StationRecallRound, RoadsView, ShoeCoups } from './screen-extras.js';

/**
 * A screen language: a BCP 47 tag naming one of the catalogues in `locales/catalogues/` (`zh-Hant`,
 * `zh-Hans`, `pt`, `en`). The protocol checks only the tag's form, so a language is added by adding
 * its catalogue, with no code change (docs/screens.md, "Languages"); which tags have a catalogue is
 * the locales' to say (`hasLanguage`), and the host refuses a tag without one.
 */
export const Language = z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/, 'a BCP 47 language tag');
export type Language = z.infer<typeof Language>;

export const Currency = z.enum(['HKD', 'MOP']);
export type Currency = z.infer<typeof Currency>;

export const GameKind = z.enum(GAME_KINDS);
export type GameKind = z.infer<typeof GameKind>;

export { MAX_STATIONS, MinorUnits };

/** The station a `station/N` text names, or null when it names none (the view schema's own check). */
function stationNamed(v: string): number | null {
  const digits = v.slice('station/'.length);
  const n = Number(digits);
  return String(n) === digits && isStationNumber(n) ? n : null;
}

/** Whether a text is a station's view name, as `ViewName` reads one (`station/N`, N a station in its plain decimal form). */
export function isStationViewName(v: string): v is `station/${number}` {
  return v.startsWith('station/') && stationNamed(v) !== null;
}

/** A view a screen can subscribe to: the table display, one player station (seated or remote), or service mode. */
export const ViewName = z.union([
  z.literal('table'),
  z.literal('service'),
  // templateLiteral gives the `station/${number}` type; the refinement holds the range, since
  // a template literal does not check the bounds of its number part.
  z.templateLiteral(['station/', z.number().int()]).refine((v) => stationNamed(v) !== null, {
    message: `station views are station/1 … station/${MAX_STATIONS} and station/101 … station/${MAX_STATION}`,
  }),
]);
export type ViewName = z.infer<typeof ViewName>;

export function stationView(station: number): ViewName {
  return ViewName.parse(`station/${station}`);
}

/** The station number of a `station/N` view, or null for the other views. */
export function stationOf(view: ViewName): number | null {
  return view.startsWith('station/') ? stationNamed(view) : null;
}

export const Limits = z
  .object({ min: MinorUnits.positive(), max: MinorUnits.positive() })
  .refine((l) => l.min <= l.max, { message: 'min must not exceed max' });
export type Limits = z.infer<typeof Limits>;

const SeatState = lazily('SeatState', () =>
  z.object({
    seat: z.number().int().min(1).max(MAX_STATIONS),
    /** The station that controls this seat, if any. */
    station: z.number().int().min(1).max(MAX_STATIONS).nullable(),
  }),
);

/**
 * A current fault as the screens show it (issue 7's tilt manager): the message key under `tilt.`,
 * how serious it is, and what it stops. A station sees the table's tilts and its own.
 */
export const TiltNotice = z.strictObject({
  kind: TiltKind,
  severity: z.enum(['info', 'warning', 'critical']),
  /** `jackpot`: the progressive's chip only (Portugal rules 38–50), the rest of the table plays on. */
  disables: z.enum(['nothing', 'jackpot', 'new-bets', 'station', 'table']),
  station: StationNumber.optional(),
});
export type TiltNotice = z.infer<typeof TiltNotice>;

/**
 * Why the station refused a transfer in from the casino system, as its player is told
 * (`desk.aftRefused.<reason>`): past the station credit limit, past the most one transfer may
 * bring (`aft.limit`), or the station unable to take credit now (a fault, a disable, a handpay
 * waiting). The system's own faults (another asset, an id seen before, a malformed request) are not said.
 */
export const AFT_IN_REFUSALS = ['credit-limit', 'transfer-limit', 'unable-now'] as const;
export type AftInRefusal = (typeof AFT_IN_REFUSALS)[number];
/** The most an AFT amount's 5 BCD digits say (minor units). */
export const AFT_AMOUNT_MAX = 9_999_999_999;

/** A station's cash-out: a pending handpay locks the station until an attendant pays it. */
export const CashoutState = lazily('CashoutState', () =>
  z.strictObject({
    pending: z
      .strictObject({
        amount: MinorUnits.positive(),
        requestTxId: z.string().min(1).max(128),
        /** Why no ticket: the station's cash-out fell back to a handpay (absent: the player asked for one, or a jackpot). */
        why: z.enum(HANDPAY_WHY).optional(),
      })
      .nullable(),
    /**
     * The station has a ticket printer: its cash-out is a ticket by default, and the player may ask
     * for a handpay instead (`cash-out` with `via: 'handpay'`; docs/tito.md). Absent: handpays only.
     */
    printsTickets: z.literal(true).optional(),
    /**
     * The station's last cash-out ticket (docs/tito.md): `printing` and `unresolved` lock the station
     * (the printer has not said, or cannot say, whether it printed); `printed` and `voided` (not
     * printed, the credit back) tell the player what happened.
     */
    ticket: z
      .strictObject({
        state: z.enum(['printing', 'printed', 'voided', 'unresolved']),
        amount: MinorUnits.positive(),
        validation: z.string().regex(/^\d{18}$/),
        /** When it came to this state (ms since the epoch): an outcome is said for a few seconds. */
        at: z.number().int().nonnegative(),
      })
      .nullable()
      .optional(),
    /** A cash-out waiting for the casino system's ticket number (SAS system validation, docs/sas.md): its amount, since when. */
    systemWait: z.strictObject({ amount: MinorUnits.positive(), at: z.number().int().nonnegative() }).nullable().optional(),
    /** The last ticket inserted at the station: being checked, credited, or returned with the reason the player is told. */
    ticketIn: z
      .discriminatedUnion('state', [
        z.strictObject({ state: z.literal('checking'), validation: z.string().regex(/^\d{1,40}$/), at: z.number().int().nonnegative() }),
        z.strictObject({
          state: z.literal('credited'),
          validation: z.string().regex(/^\d{18}$/),
          amount: MinorUnits.positive(),
          at: z.number().int().nonnegative(),
        }),
        z.strictObject({
          state: z.literal('returned'),
          validation: z.string().regex(/^\d{1,40}$/),
          reason: z.enum(TICKET_RETURN_REASONS),
          at: z.number().int().nonnegative(),
        }),
      ])
      .optional(),
    /** The last note the station's acceptor returned for a reason the player is told: its credit limit (docs/sas.md, "The station credit limit"). */
    noteIn: z.strictObject({ state: z.literal('returned'), reason: z.literal('credit-limit'), at: z.number().int().nonnegative() }).optional(),
    /**
     * The last transfer in the casino system sent by AFT (0x72 type 00) and the station refused, for
     * a reason its player can act on (docs/sas.md, "AFT: the cashless wallet"): its amount as asked
     * (5 BCD digits at most), and when. One, the newest: a system that floods refusals replaces it.
     */
    aftIn: z
      .strictObject({
        state: z.literal('refused'),
        reason: z.enum(AFT_IN_REFUSALS),
        amount: MinorUnits.positive().max(AFT_AMOUNT_MAX),
        at: z.number().int().nonnegative(),
      })
      .optional(),
  }),
);
export type CashoutState = z.infer<typeof CashoutState>;

/**
 * How the game is drawn, from its definition (engine/<game>/table-game.ts), so screens never branch
 * on the game's name: a dealer's hand or banker and player, roads or the last rounds' strip, and
 * the catalogue keys of actions the game words its own way (war's surrender returns half the bet).
 */
export const Presentation = z.strictObject({
  dealerHand: z.boolean(),
  panel: z.enum(['roads', 'history']),
  actionWords: z.partialRecord(DecisionAction, OwnWord).optional(),
  betWords: z.partialRecord(LineBet, OwnWord).optional(),
});
export type Presentation = z.infer<typeof Presentation>;

/**
 * The stadium on the table display: how many remote stations have bets, and on each spot how
 * many of them and their total. No station is named.
 */
export const StadiumView = lazily('StadiumView', () =>
  z.strictObject({
    players: z.number().int().min(0).max(MAX_REMOTE_STATIONS),
    spots: z.array(z.strictObject({ spot: Spot, players: z.number().int().min(1).max(MAX_REMOTE_STATIONS), total: MinorUnits.positive() })).max(32),
  }),
);
export type StadiumView = z.infer<typeof StadiumView>;

/**
 * The progressive jackpot (Portugal rules 38–50) as the screens show it: each level's pool (a
 * round's chips counted once collected, rule 41), the chip's amount (rule 47), the last award, and
 * whether the chip is refused now (its controller at fault).
 */
export const JackpotView = lazily('JackpotView', () =>
  z.strictObject({
    reference: z.string().min(1).max(128),
    stake: MinorUnits.positive(),
    levels: z
      .array(z.strictObject({ level: z.string().regex(/^[a-z][a-z0-9-]{0,23}$/), pool: MinorUnits.nonnegative() }))
      .min(1)
      .max(4),
    lastHit: z
      .strictObject({
        roundId: z.string().min(1).max(128),
        seat: z.number().int().min(1).max(MAX_STATIONS),
        combination: JackpotCombination,
        level: z.string().min(1).max(24),
        amount: MinorUnits.positive(),
      })
      .optional(),
    stopped: z.boolean(),
  }),
);
export type JackpotView = z.infer<typeof JackpotView>;

/** What the big screen facing the seats may show: no credits, no private data. */
export const TableState = lazily('TableState', () =>
  z.object({
    kind: z.literal('table'),
    tableId: z.string().min(1),
    game: GameKind,
    profile: z.string().min(1),
    currency: Currency,
    limits: Limits,
    language: Language,
    seats: z.array(SeatState).min(1).max(MAX_STATIONS),
    round: RoundView.nullable(),
    tilts: z.array(TiltNotice).max(64).optional(),
    /** The bets the profile offers, printed as spots on the felt (the stations' spot names). */
    bets: z.array(BetId).max(16).optional(),
    /** How the game is drawn: a dealer's hand or banker and player, roads or the last rounds, its own words for some actions. */
    presentation: Presentation.optional(),
    /** Baccarat: the current shoe's road maps and statistics. */
    roads: RoadsView.optional(),
    /** Blackjack and war: the last rounds, newest last. */
    history: z.array(HistoryEntry).max(MAX_HISTORY).optional(),
    /** The cut card is out: this is the last round of the shoe. */
    lastRound: z.boolean().optional(),
    /** Blackjack: each seat's winning-streak marker, for seats with streak bets open (Macau 2009 Art. 13 5)). */
    streaks: z
      .array(StreakMarker.extend({ seat: z.number().int().min(1).max(MAX_STATIONS) }))
      .max(MAX_STATIONS)
      .optional(),
    /** A table with remote stations: their number and totals per spot. */
    stadium: StadiumView.optional(),
    /** Portugal's progressive jackpot, where the table plays one. */
    jackpot: JackpotView.optional(),
    /** A demonstration table: every device simulated, no live play, no authorisation on record (issue 51). */
    demonstration: z.literal(true).optional(),
  }),
);
export type TableState = z.infer<typeof TableState>;

/**
 * One station's view: its seat (none for a remote station), its credit meter and its language,
 * nobody else's; with the public round and the table's roads or last rounds, which the host sends
 * apart, once for every station (`PublicPart`), and the screen puts together (`ViewComposer`).
 */
export const StationState = lazily('StationState', () =>
  z.object({
    kind: z.literal('station'),
    station: StationNumber,
    /** The seat this station controls; absent for a remote station. */
    seat: z.number().int().min(1).max(MAX_STATIONS).optional(),
    game: GameKind,
    currency: Currency,
    limits: Limits,
    language: Language,
    /** The credit meter less what is on the betting spots this round. */
    credit: MinorUnits.nonnegative(),
    betting: StationBetting,
    decision: StationDecision.nullable(),
    round: RoundView.nullable(),
    tilts: z.array(TiltNotice).max(64).optional(),
    cashout: CashoutState.optional(),
    /**
     * This station's last rounds from the ledger's recall, newest first (replay plays the first).
     * Sent apart (`recall`), only to a screen that asks for it (its recall or replay panel open):
     * present in the composed view once the screen holds the version `recalled` names.
     */
    recall: z.array(StationRecallRound).max(MAX_RECALL_ROUNDS).optional(),
    /** How many rounds the station's recall holds, its version and the oldest it leaves out: what the own part says of it (protocol 5, 16). */
    recalled: z
      .strictObject({
        rounds: z.number().int().min(0).max(MAX_RECALL_ROUNDS),
        version: z.number().int().min(0),
        /** Its oldest rounds left out so the recall fits its one message (protocol 16; host/screens/recall.ts `fitRecall`): absent when none. */
        omitted: z.number().int().min(1).max(MAX_RECALL_ROUNDS).optional(),
      })
      .optional(),
    /** The active rule profile's pay table, for the help pages. */
    payTable: z.array(PayLine).max(32).optional(),
    presentation: Presentation.optional(),
    /** The jackpot chip (Portugal rule 47) and whether it is taken now. */
    jackpot: z.strictObject({ stake: MinorUnits.positive(), stopped: z.boolean() }).optional(),
    /** A demonstration table: every device simulated, no live play, no authorisation on record (issue 51). */
    demonstration: z.literal(true).optional(),
    /** Baccarat: the current shoe's road maps (from the public panel part). */
    roads: RoadsView.optional(),
    /** Blackjack and war: the last rounds (from the public panel part). */
    history: z.array(HistoryEntry).max(MAX_HISTORY).optional(),
    /** A remote station of a table with peers: its credit's transfers this host sent or took (issue 54; docs/transfers.md). */
    transfers: StationTransfers.optional(),
    /** Its own last tickets out and in, newest first, for the player's recall (issue 47; docs/tito.md); absent before the first. */
    tickets: z.array(StationTicket).max(MAX_STATION_TICKETS).optional(),
  }),
);
export type StationState = z.infer<typeof StationState>;

/** A station's own part as the host sends it: everything but what every station shares, and its recall (asked for apart). */
export const StationOwnState = lazily('StationOwnState', () => StationState.unwrap().omit({ round: true, roads: true, history: true, recall: true }));
export type StationOwnState = z.infer<typeof StationOwnState>;

/** The parts of the table every station shows, each sent once per change to every station screen. */
export const PublicRound = RoundView.nullable();
/**
 * The panel as it travels (protocol 6): baccarat's shoe as its coups (`shoe`), which each screen
 * lays out as the roads (`roadsOfCoups`), or the other games' last rounds. A station's composed
 * view holds the roads, never the coups.
 */
export const PublicPanel = lazily('PublicPanel', () =>
  z.strictObject({ shoe: ShoeCoups.optional(), history: z.array(HistoryEntry).max(MAX_HISTORY).optional() }),
);
export type PublicPanel = z.infer<typeof PublicPanel>;

/**
 * Service mode before sign-in shows only what the cabinet label would: no meters, no logs. Built on
 * its first parse, with the session's schemas (protocol/service-view.ts): a table or a station page
 * never parses it (`hostMessageFor`, `snapshotStateOf`).
 */
export const ServiceState = lazily('ServiceState', () =>
  z.object({
    kind: z.literal('service'),
    tableId: z.string().min(1),
    softwareVersion: z.string(),
    language: Language,
    signedIn: z.boolean(),
    /** A demonstration table: every device simulated, no live play, no authorisation on record (issue 51). */
    demonstration: z.literal(true).optional(),
    // Service mode's session, page, pending two-person action and last outcome (protocol/service-view.ts).
    ...serviceSchemas().ServiceSessionFields,
  }),
);
export type ServiceState = z.infer<typeof ServiceState>;

export const ViewState = lazily('ViewState', () => z.discriminatedUnion('kind', [TableState, StationState, ServiceState]));
export type ViewState = z.infer<typeof ViewState>;

/** What a snapshot carries: a station's own part, or a whole view (table display, service mode). */
export const SnapshotState = lazily('SnapshotState', () => z.discriminatedUnion('kind', [TableState, StationOwnState, ServiceState]));
export type SnapshotState = z.infer<typeof SnapshotState>;

/**
 * The state a snapshot of this view carries, its own kind only: a table or a station page parses
 * no other kind, and never builds service mode's schemas (issue 31).
 */
export function snapshotStateOf(view: ViewName): z.ZodType<SnapshotState> {
  if (view === 'table') return TableState;
  if (view === 'service') return ServiceState;
  return StationOwnState;
}
