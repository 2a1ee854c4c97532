import { UNCORRECTABLE, type ServicePage } from '../../../../../protocol/index.js';
import { isCardCode } from '../../../../../cards/card.js';
import { scopeLabel } from './meter-labels.js';
import { cycle } from './rows.js';
import { tableRows } from './table-rows.js';
import type { PageKit } from './kit.js';

/** Holds and voids: the table and its hold, then the corrections the text orders, the void as the last resort, a card entered by hand, and the table switches. */
export function holdsPage(page: Extract<ServicePage, { page: 'holds' }>, k: PageKit): void {
  const { t, c, a, sup, btn } = k;
  tableRows(page.table, k);
  const roundId = page.table.roundId;
  const tb = page.table;
  // A dealing error seen at the table (a card exposed, one laid at another hand) stops the round first.
  btn('act-dealing-error', t('service.action.dealing-error'), () => a.act({ kind: 'dealing-error', roundId }), sup && tb.phase === 'dealing');
  for (const x of tb.corrections ?? []) {
    if (x.forbidden) continue;
    btn(
      `act-correct-${x.correction}`,
      t('service.action.correctOne', { correction: t(`service.correction.${x.correction}`) }),
      () => a.act({ kind: 'correct', roundId, correction: x.correction }),
      sup,
    );
  }
  // The last resort, saying why no correction could put the round right.
  btn(
    'void-reason',
    t('service.action.reason', { reason: t(`service.uncorrectable.${c.voidReason}`) }),
    () => a.choose({ voidReason: cycle(UNCORRECTABLE, c.voidReason) }),
    sup,
  );
  btn('act-void-round', t('service.action.void-round'), () => a.act({ kind: 'void-round', roundId, reason: c.voidReason, uncorrectable: c.voidReason }), sup);
  // A rank row and a suit row on a pad: two touches, then the second person confirms.
  btn(
    'act-enter-card',
    t('service.action.enter-card'),
    () =>
      a.ask({
        title: t('punctuation.joined', { first: t('service.action.enter-card'), second: t('service.field.round', { round: roundId }) }),
        label: t('service.action.cardToEnter'),
        kind: 'card',
        // The pad offers only ranks and suits: what it gives is a code, checked so the type says so.
        then: (card) => {
          if (isCardCode(card)) a.act({ kind: 'enter-card', roundId, card });
        },
      }),
    sup,
  );
  btn(
    'act-table-open',
    t(page.closed ? 'service.action.table-open' : 'service.action.table-close'),
    () => a.act({ kind: 'table-open', open: page.closed }),
    sup,
  );
  btn('act-new-shoe', t('service.action.new-shoe'), () => a.act({ kind: 'new-shoe' }), sup);
  btn(
    'clear-scope',
    t('service.action.scope', { scope: scopeLabel(c.clearScope, t) }),
    () => a.choose({ clearScope: cycle(['table', 'station:1', 'station:2', 'station:3', 'station:4', 'station:5', 'station:6', 'station:7'], c.clearScope) }),
    sup,
  );
  btn(
    'act-meter-clear',
    t('service.action.meter-clear'),
    () =>
      a.ask({
        title: t('service.action.meter-clear'),
        label: t('service.action.authorisation'),
        kind: 'reference',
        then: (n) => a.act({ kind: 'meter-clear', scope: c.clearScope, authorisation: n }),
      }),
    sup,
  );
}
