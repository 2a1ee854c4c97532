import type { CardCode } from '../cards/card.js';
import type { StreakMove } from './game.js';
import type { Decision, DealtCard, SettledLine, TimerKind } from './state.js';
import type { ProgressiveSettled } from './game.js';
import type { Correction, GameKind, LineBet, Uncorrectable } from './vocabulary.js';

// What a step asks of the world. The shell (host/table/runtime.ts) writes `journal` in one
// ledger transaction with the input before anything else happens, then runs the rest.

interface RoundCore {
  readonly roundId: string;
  readonly tableId: string;
  readonly game: GameKind;
  readonly profile: string;
  readonly cards: readonly DealtCard[];
  readonly decisions: readonly Decision[];
}

/** A ledger entry the table writes, in the ledger's own payload shapes (ledger/entries.ts). */
export type JournalRecord =
  | {
      readonly type: 'bet.place';
      readonly txId: string;
      readonly payload: {
        readonly station: number;
        readonly roundId: string;
        readonly tableId: string;
        readonly bets: readonly { readonly seat: number; readonly bet: LineBet; readonly amount: number }[];
        readonly currency?: string;
      };
    }
  | {
      readonly type: 'card.read';
      readonly payload: { readonly tableId: string; readonly roundId?: string; readonly sequence?: number; readonly card: CardCode; readonly to: string };
    }
  | {
      readonly type: 'round.decision';
      readonly payload: {
        readonly tableId: string;
        readonly roundId: string;
        readonly seat: number;
        readonly hand?: number;
        readonly station: number;
        readonly action: string;
        readonly auto?: boolean;
        readonly amount?: number;
        readonly notFollowing?: readonly string[];
      };
    }
  | {
      readonly type: 'round.settle';
      readonly txId: string;
      /** `held`: stakes of this round still open past it (winning streaks), kept by the ledger. */
      readonly payload: RoundCore & {
        readonly lines: readonly SettledLine[];
        readonly held?: readonly { readonly station: number; readonly seat: number; readonly bet: LineBet; readonly amount: number }[];
        /** The stations whose lines are only stakes held from earlier rounds: they bet nothing in this one, and the ledger counts them no game. */
        readonly notDealtIn?: readonly number[];
        /** How the round moved each seat's winning-streak marker (Macau 2009 Art. 13 5)), with the seat's station. */
        readonly streaks?: readonly (StreakMove & { readonly station: number })[];
      };
    }
  | {
      readonly type: 'round.void';
      readonly txId: string;
      readonly payload: RoundCore & {
        readonly reason: string;
        readonly authorisedBy: readonly string[];
        /** Why no correction the text orders could put the round right. */
        readonly uncorrectable?: Uncorrectable;
        /** The article under which a round that cannot be corrected is cancelled. */
        readonly rule?: string;
      };
    }
  | {
      readonly type: 'misread';
      readonly payload: {
        readonly tableId: string;
        readonly roundId?: string;
        readonly detail: string;
        readonly resolution: 'pending' | 'card-entered' | 'round-void' | 'corrected';
        /** A dealing error corrected, and the article that orders the correction. */
        readonly correction?: Correction;
        readonly article?: string;
        readonly card?: string;
        readonly confirmedBy?: readonly string[];
        readonly shoeSequence?: readonly number[];
        readonly duringHold?: true;
      };
    }
  | {
      readonly type: 'held.return';
      readonly txId: string;
      readonly payload: { readonly tableId: string; readonly station: number; readonly amount: number; readonly reason: string };
    }
  | { readonly type: 'shoe.change'; readonly payload: { readonly tableId: string; readonly event: 'loaded' | 'cut-card'; readonly sequence?: number } }
  | {
      readonly type: 'handpay.request';
      readonly txId: string;
      readonly payload: { readonly station: number; readonly amount: number; readonly reason: 'jackpot'; readonly detail?: string; readonly currency?: string };
    }
  | {
      readonly type: 'jackpot.reset';
      readonly txId: string;
      readonly payload: {
        readonly tableId: string;
        readonly level: string;
        readonly to: number;
        readonly unfunded: number;
        readonly who: string;
        readonly witness: string;
        readonly authorisation: string;
      };
    }
  | {
      readonly type: 'jackpot.settle';
      readonly txId: string;
      readonly payload: {
        readonly roundId: string;
        readonly tableId: string;
        readonly reference: string;
        readonly levels: ProgressiveSettled['levels'];
        readonly hits: readonly (ProgressiveSettled['hits'][number] & { readonly station: number })[];
      };
    };

export interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly msg: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

export type Effect =
  /** Start this countdown (replacing any other), or stop the one running (null). */
  | { readonly type: 'countdown'; readonly countdown: { readonly id: number; readonly kind: TimerKind; readonly endsAt: number } | null }
  /** Open or lock the shoe's gate: open exactly while the table expects a card. */
  | { readonly type: 'shoe-gate'; readonly open: boolean }
  | { readonly type: 'log'; readonly line: LogLine }
  /** Feed the table this input next, at once (the settlement of a round that needs nothing more). */
  | { readonly type: 'next'; readonly input: 'settle' };
