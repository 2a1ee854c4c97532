import { jackpotHits, jackpotMovements, jackpotPools } from '../../../ledger/index.js';
import { JackpotCombination } from '../../../protocol/index.js';
import { authorityReference } from '../../../terms/authority-reference.js';
import { resetJackpotLevel } from '../../floor/jackpot-reset.js';
import { refusedBy } from '../refusal-words.js';
import type { JackpotPart } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps } from './deps.js';
import { actDetailSaid, serviceActionEntry } from './service-journal.js';

/** Portugal's progressive (rules 38–50): its pools, movements and awards; a level reset by two people. */
export function jackpot(d: Pick<LiveBackendDeps, 'ledger' | 'table' | 'config'>, changes: Changes): JackpotPart {
  return {
    page() {
      const view = d.table.reads.progressive();
      const journalled = new Map(jackpotPools(d.ledger).map((p) => [p.level, p.pool]));
      return {
        reference: view?.reference ?? null,
        stake: view?.stake ?? null,
        pools: view ? view.levels.map((l) => ({ level: l.level, pool: journalled.get(l.level) ?? 0, held: l.held })) : null,
        stopped: (d.table.state.faults.jackpotStopped ?? null) !== null,
        history: jackpotMovements(d.ledger, 40).map((m) => ({ ...m })),
        hits: jackpotHits(d.ledger, 25).flatMap((h) => {
          const combination = JackpotCombination.safeParse(h.combination);
          return combination.success
            ? [{ seq: h.seq, ts: h.ts, roundId: h.roundId, station: h.station, seat: h.seat, combination: combination.data, level: h.level, amount: h.amount }]
            : [];
        }),
      };
    },

    reset(level, to, typed, authorisedBy) {
      // The record names the reference as the reset journals it (resetJackpotLevel makes the same form).
      const authorisation = authorityReference(typed);
      // Who reset it, in the reset's own transaction: refused, neither is journalled and the person is told so.
      const record = serviceActionEntry(
        authorisedBy,
        'jackpot-reset',
        actDetailSaid('actJackpotReset', { level, to, currency: d.config.currency, authorisation }),
      );
      const r = resetJackpotLevel(d, { level, to, supervisor: authorisedBy[0], witness: authorisedBy[1], authorisation }, [record]);
      // The reason is the log's: the key's English, or the table's own where no key says why.
      if (!r.ok) return { ...refusedBy(r.say), detail: r.reason };
      changes.changed();
      return { ok: true, key: 'service.done.jackpotReset', values: { level } };
    },
  };
}
