import type { TFunction } from 'i18next';
import type { Currency, Language, StationTransfer } from '../../../protocol/index.js';
import type { Rect } from '../felt/felt-layout.js';
import { formatMoney, intlLocale } from '../../../locales/money.js';
import { Panel } from '../station/panel.js';

/** Rows shown: the newest (the hosts send at most 20 each). */
const ROWS = 16;

/**
 * The station's credit across tables (issue 54): every transfer the tables it follows sent or
 * took for it, newest first, each with when, from and to which table, how much and where it
 * stands, in the player's language. Each row is what a host said (move-amounts.ts `mergeTransfers`).
 */
export class TransfersPanel extends Panel {
  private readonly body: ReturnType<Panel['block']>;

  constructor(area: Rect, onClose: () => void) {
    super(area, 'transfers-close', onClose);
    this.body = this.block(area.x + 30, area.y + 90, area.width - 60, 28);
  }

  show(transfers: readonly StationTransfer[], currency: Currency, language: Language, t: TFunction): void {
    this.heading.text = t('several.transfersTitle');
    this.closeButton.setLabel(t('recall.close'));
    const time = new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'short', timeStyle: 'medium', timeZone: 'Asia/Macau' });
    const rows = transfers.slice(0, ROWS).map((x) =>
      t('several.transferRow', {
        at: x.at ? time.format(new Date(x.at)) : '—',
        from: x.from,
        to: x.to,
        amount: formatMoney(x.amount, currency, language),
        state: x.why === 'credit-limit' ? t('several.reversedAtCreditLimit') : t(`several.phase.${x.phase}`),
      }),
    );
    this.body.text = rows.length ? rows.join('\n') : t('several.noTransfers');
  }
}
