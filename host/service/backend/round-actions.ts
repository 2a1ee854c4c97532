import { cardOf } from '../../../engine/cards/card.js';
import { serviceSaid } from '../../config/refusal-words.js';
import { refusedBy, tableRefused } from '../refusal-words.js';
import type { Outcome } from '../../../engine/table/game.js';
import type { BackendResult, HoldsPart } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';
import { actDetailSaid, serviceActionEntry } from './service-journal.js';

/**
 * What a supervisor does to the round in play (Holds and voids): report a dealing error, apply a
 * correction the game's text orders, enter a card by hand, void the round as the last resort.
 * Each names the round it was asked for: a round that has moved on is refused, not acted on. Each
 * step goes to the table with its `service.action` record, which the table journals in the step's
 * own transaction: the person is told "done" only once both are written, and a journal that
 * refuses them leaves the table as it was (`serviceRefusal.actNotJournalled`), so asking again is safe.
 */
export function roundActions(d: Pick<LiveBackendDeps, 'table' | 'config'>): Pick<HoldsPart, 'voidRound' | 'correct' | 'reportDealingError' | 'enterCard'> {
  const stale = (roundId: string): BackendResult | null => {
    const current = d.table.reads.view();
    return current.roundId !== roundId ? refusedBy(serviceSaid('roundStale', { round: roundId, current: current.roundId ?? '' }), 'stale-round') : null;
  };
  /** The table's refusal as the screen says it: by key (the table's facts, else `tableRefused` and its English in the log). */
  const refused = (r: Extract<Outcome, { ok: false }>, code: 'refused' | 'no-round'): BackendResult => tableRefused(r, d.config.currency, code);
  return {
    voidRound(roundId, reason, authorisedBy, uncorrectable) {
      const moved = stale(roundId);
      if (moved) return moved;
      const detail = uncorrectable
        ? actDetailSaid('actVoidRoundWhy', { round: roundId, uncorrectable, reason })
        : actDetailSaid('actVoidRound', { round: roundId, reason });
      const record = serviceActionEntry(authorisedBy, 'void-round', detail);
      const r = d.table.supervisor.voidRound(reason, authorisedBy, uncorrectable, [record]);
      if (!r.ok) return refused(r, 'no-round');
      return { ok: true, key: 'service.done.voidRound', values: { round: roundId } };
    },

    correct(roundId, correction, authorisedBy) {
      const moved = stale(roundId);
      if (moved) return moved;
      const rule = d.table.reads.holdState()?.corrections.find((c) => c.correction === correction && 'rule' in c);
      const article = rule && 'rule' in rule ? rule.rule : '';
      const record = serviceActionEntry(authorisedBy, 'correct', actDetailSaid('actCorrect', { round: roundId, correction, article }));
      const r = d.table.supervisor.correct(correction, authorisedBy[0], authorisedBy[1], [record]);
      if (!r.ok) return refused(r, 'refused');
      return { ok: true, key: 'service.done.correct', values: { correction, article } };
    },

    reportDealingError(roundId, who) {
      const moved = stale(roundId);
      if (moved) return moved;
      const r = d.table.supervisor.reportDealingError(who, [serviceActionEntry([who], 'dealing-error', actDetailSaid('actRound', { round: roundId }))]);
      if (!r.ok) return refused(r, 'refused');
      return { ok: true, key: 'service.done.dealingError', values: { round: roundId } };
    },

    enterCard(roundId, card, authorisedBy) {
      const moved = stale(roundId);
      if (moved) return moved;
      const r = d.table.supervisor.enterCard(cardOf(card), authorisedBy[0], authorisedBy[1], [
        serviceActionEntry(authorisedBy, 'enter-card', actDetailSaid('actEnterCard', { round: roundId, card })),
      ]);
      if (!r.ok) return refused(r, 'refused');
      return { ok: true, key: 'service.done.enterCard', values: { card } };
    },
  };
}
