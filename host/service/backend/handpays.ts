import { heldStakeOf } from '../../../ledger/index.js';
import { serviceSaid } from '../../config/refusal-words.js';
import { refusedBy } from '../refusal-words.js';
import type { CashoutPart } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps } from './deps.js';
import { actDetailSaid, serviceActionEntry } from './service-journal.js';

/** The handpays waiting at the stations, and an attendant's confirmation (with a witness above the two-person amount). */
export function handpays(d: Pick<LiveBackendDeps, 'floor' | 'ledger' | 'config'>, changes: Changes): Pick<CashoutPart, 'pending' | 'confirmHandpay'> {
  return {
    pending() {
      // Every pending one (the page shows the first 16; a confirm looks its request up here).
      return d.floor.handpays.pending().map((p) => {
        // The attendant is told of a winning-streak stake the station still holds: it is not in
        // this handpay, and a round dealt without the station's bet loses it (the player confirmed that).
        const held = heldStakeOf(d.ledger, p.station);
        return { station: p.station, amount: p.amount, requestTxId: p.requestTxId, ...(held > 0 ? { streakHeld: held } : {}) };
      });
    },

    confirmHandpay(station, requestTxId, authorisedBy) {
      const pending = d.floor.handpays.pending().find((p) => p.requestTxId === requestTxId);
      if (!pending || pending.station !== station) return refusedBy(serviceSaid('handpayNotAtStation', { request: requestTxId, station }));
      const [attendant = '', witness] = authorisedBy;
      // The payment and who confirmed it in one transaction: a refused record refuses the payment too,
      // so a person told it failed has paid nothing in the journal.
      const record = serviceActionEntry(
        authorisedBy,
        'handpay-confirm',
        actDetailSaid('actHandpay', { station, amount: pending.amount, currency: pending.currency ?? d.config.currency, request: requestTxId }),
      );
      const r = d.floor.handpays.confirm(requestTxId, attendant, witness, [record]);
      if (!r.ok) return refusedBy(r.say);
      changes.changed();
      return { ok: true, key: 'service.done.handpay', values: { station } };
    },
  };
}
