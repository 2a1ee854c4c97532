import { z } from 'zod';
import { lazily } from './lazy.js';
import { MinorUnits, StationNumber } from './units.js';

// What a station asks of the table hosts about its credit when it follows several tables (issue 34,
// "one credit, many ledgers"; docs/transfers.md "The station's requests"). The credit belongs to
// the station's HOME table's host (its bill acceptor is that host's): the station asks its home
// host to move some of it to another table before it bets there, and tells a table it leaves, which
// sends what is left there home. The hosts move the credit between them by a transfer.
//
// How a station is named across hosts: by its station number, which is the same at every table of
// the floor (remote stations 101–350). Each table enrols the station under that number with its
// own credential, so each host knows the station by its own authenticated link, never by a name
// another host gives. A transfer's terms carry that number (`Transfer.station`, terms/transfer-terms.ts).

/**
 * A table of the floor, as its peers and the stations name it: its enrolled table id (the same
 * letters as the ledger's `TableId`, which is part of account names and transaction ids).
 */
export const FloorTableId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);
export type FloorTableId = z.infer<typeof FloorTableId>;

/**
 * The player confirmed, on the station's screen, that credit leaves this table while it holds an
 * open winning-streak stake (Macau 2009 Art. 13 5)): the stake stays held here and a round dealt
 * without the station's bet loses it (docs/rules/blackjack.md). Only `true`, as on `cash-out`.
 */
const EndsStreak = z.literal(true);

/**
 * The commands of a station's screen about its credit (a `command` on its `station/N` view, as
 * every other; `protocol/messages.ts` `CommandBody`). Each is answered as every command is: `ok`
 * once the host has journalled what it did (the debit of the transfer), or `error` with a refusal
 * reason; how the transfer goes on is in the station's `transfers` part (`StationTransfers`).
 */
export const transferCommands = () =>
  [
    /**
     * To the station's HOME host: move `amount` (minor units) of my credit to the table `to`. The
     * host journals the debit (`transfer.out`) before it answers `ok`; the other table credits the
     * station when the transfer arrives. Refused at a table that is not the station's home
     * (`not-home-table`), for a table that is not this host's peer (`unknown-table`), over the credit
     * (`over-credit`), or with bets in play (`bets-in-play`); after those, `streak-held` while this
     * table holds an open winning-streak stake of the station's and `endsStreak` is absent.
     */
    z.strictObject({ name: z.literal('move-credit'), to: FloorTableId, amount: MinorUnits.positive(), endsStreak: EndsStreak.optional() }),
    /**
     * To a table that is NOT the station's home: I leave this table. The host sends the station's
     * whole credit here home by a transfer (nothing to send: nothing journalled; `ok` once the
     * debit is journalled). A transfer from home still on its way arrives as credit here, which
     * goes home at the next `leave-table`. Refused with bets in play (`bets-in-play`); at the
     * station's home table (`not-away-table`); after those, with credit to send, `streak-held` as
     * `move-credit`.
     */
    z.strictObject({ name: z.literal('leave-table'), endsStreak: EndsStreak.optional() }),
  ] as const;

export const TransferCommand = lazily('TransferCommand', () => z.discriminatedUnion('name', transferCommands()));
export type TransferCommand = z.infer<typeof TransferCommand>;

/** Where a transfer is, as a station is shown it. */
export const STATION_TRANSFER_PHASES = [
  /** Debited at `from`, not yet credited at `to` (or the answer is on its way). */
  'in-flight',
  /** `from` asked for it back (the station left, or `to` did not answer in time); still unanswered. */
  'recalling',
  /** Credited at `to`. */
  'completed',
  /** Never taken by `to`: the credit is back at `from`. */
  'reversed',
] as const;
export type StationTransferPhase = (typeof STATION_TRANSFER_PHASES)[number];

/** One transfer of the station's credit, as the host that shows it knows it. */
export const StationTransfer = lazily('StationTransfer', () =>
  z.strictObject({
    /** The transfer's id: its origin table and that table's serial (two fields, never one string). */
    id: z.strictObject({ origin: FloorTableId, serial: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
    from: FloorTableId,
    to: FloorTableId,
    /** Minor units. */
    amount: MinorUnits.positive(),
    phase: z.enum(STATION_TRANSFER_PHASES),
    /** When the showing host journalled it (its debit, or its credit of a transfer it took): ISO 8601, the ledger's own time. */
    at: z.string().max(40).optional(),
    /** Reversed because the receiving table's station credit limit would have been passed (docs/sas.md, "The station credit limit"). */
    why: z.literal('credit-limit').optional(),
  }),
);
export type StationTransfer = z.infer<typeof StationTransfer>;

/** At most this many transfers are shown (the newest), the open ones first. */
export const MAX_STATION_TRANSFERS = 20;

/**
 * A station's transfers as one host shows them: the station's home table, whether this host is
 * it, and its transfers this host sent or took, the open ones first then the newest.
 */
export const StationTransfers = lazily('StationTransfers', () =>
  z.strictObject({
    station: StationNumber,
    home: FloorTableId,
    /** This host's table id. */
    table: FloorTableId,
    transfers: z.array(StationTransfer).max(MAX_STATION_TRANSFERS),
  }),
);
export type StationTransfers = z.infer<typeof StationTransfers>;
