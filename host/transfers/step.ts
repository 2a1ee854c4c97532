import type { TableId, TransferId } from '../../terms/transfer-terms.js';
import type { TransferEffects } from './effects.js';
import { TransferMessage } from './messages.js';
import { onOffer, onRecall } from './receiver.js';
import {
  askAgain,
  onRefused,
  onTaken,
  recallTransfer,
  settleTransfer,
  startTransfer,
  type SettleRefusal,
  type SettleTransfer,
  type StartRefusal,
  type StartTransfer,
} from './sender.js';
import { apply, refusalDayOf, type TransferState } from './state.js';

/** Everything that moves a host's transfers: its own asks, its timer, and what a peer says over a link. */
export type TransferEvent =
  | ({ readonly kind: 'start' } & StartTransfer)
  | { readonly kind: 'recall'; readonly id: TransferId }
  /** Two people close an open transfer no answer will close (service mode). */
  | ({
      readonly kind: 'settle';
      /** Whether a station is under the casino system's AFT game lock now (a reversal onto it is refused). Absent: none is. */
      readonly locked?: (station: number) => boolean;
    } & SettleTransfer)
  | { readonly kind: 'tick' }
  /**
   * A message as it came off the link named `link` (unparsed: a peer's bytes are distrusted here);
   * `credit`: a station's credit now, as the journal's accounts say (an offer must fit in it).
   */
  | {
      readonly kind: 'receive';
      readonly link: TableId;
      readonly message: unknown;
      readonly credit: (station: number) => number;
      /** The most a station's credit here may hold (the table's `creditLimit`); absent, no limit but the largest safe integer. */
      readonly creditLimit?: number;
      /** What a station holds or has been promised, held to `creditLimit` (credit-limit.ts `creditHeld`); absent, its credit. */
      readonly held?: (station: number) => number;
      /** The link's refusals at the credit limit this minute are spent (transfer-host.ts). */
      readonly atLimitBudgetSpent?: boolean;
      /** The host's clock (ms): the day a refusal at the credit limit is counted in and stamped with. Absent: undated (one day of their own). */
      readonly now?: number;
      /** Whether a station is under the casino system's AFT game lock now (an offer to it, and a refusal of a move out of it, wait). Absent: none is. */
      readonly locked?: (station: number) => boolean;
    };

export interface TransferStep extends TransferEffects {
  /** The state once `journal` is appended: `apply` of each entry, so always the fold of the journal. */
  readonly state: TransferState;
  /** A start the host refused (nothing journalled, nothing sent). */
  readonly refused?: StartRefusal;
  /** A settlement the host refused (nothing journalled). */
  readonly settleRefused?: SettleRefusal;
}

/**
 * One step of a host's transfers: pure, (state, event) → (state, effects). The caller journals
 * `journal` in one transaction and only then sends `send`; the state it keeps is `state`, which is
 * what its journal folds to, so a kill anywhere loses nothing that was acknowledged.
 */
export function step(state: TransferState, event: TransferEvent): TransferStep {
  const effects = effectsOf(state, event);
  let next = state;
  for (const e of effects.journal) next = apply(next, e);
  return { ...effects, state: next };
}

function effectsOf(state: TransferState, event: TransferEvent): TransferEffects & { refused?: StartRefusal; settleRefused?: SettleRefusal } {
  switch (event.kind) {
    case 'start':
      return startTransfer(state, event);
    case 'recall':
      return recallTransfer(state, event.id);
    case 'settle':
      return settleTransfer(state, event, event.locked);
    case 'tick':
      return askAgain(state);
    case 'receive': {
      const parsed = TransferMessage.safeParse(event.message);
      if (!parsed.success) return { journal: [], send: [], alarms: [{ reason: 'malformed', link: event.link, detail: parsed.error.message.slice(0, 200) }] };
      const m = parsed.data;
      switch (m.kind) {
        case 'offer':
          return onOffer(
            state,
            event.link,
            m.transfer,
            event.credit,
            {
              limit: event.creditLimit ?? Number.MAX_SAFE_INTEGER,
              held: event.held ?? event.credit,
              ...(event.atLimitBudgetSpent ? { budgetSpent: true } : {}),
              ...(event.now !== undefined ? { day: refusalDayOf(event.now) } : {}),
            },
            event.locked,
          );
        case 'recall':
          return onRecall(state, event.link, m.id, event.now !== undefined ? refusalDayOf(event.now) : undefined);
        case 'taken':
          return onTaken(state, event.link, m.transfer);
        case 'refused':
          return onRefused(state, event.link, m.id, m.reason, event.locked);
      }
    }
  }
}
