import { isMessageKey } from '../../../../../locales/i18n.js';
import type { ServicePage } from '../../../../../protocol/index.js';
import type { PageKit } from './kit.js';

type TableData = Extract<ServicePage, { page: 'status' }>['table'];

/** The table's phase, round and hold: the cards read since the hold and the corrections its text offers. */
export function tableRows(tb: TableData, k: PageKit): void {
  const { t, rows, wrap } = k;
  // The rule profile by its regulation's name (`backoffice.profile.<id>`); one the catalogues do not name, as its code.
  const profileKey = `backoffice.profile.${tb.profile}`;
  const profile = isMessageKey(profileKey) ? t(profileKey) : tb.profile;
  rows.push(t('service.field.tableRow', { id: k.state.tableId, game: t(`game.${tb.game}`), profile }));
  rows.push(
    t('punctuation.joined', {
      first: t('service.field.phase', { phase: t(`service.phase.${tb.phase}`) }),
      second: t('service.field.round', { round: tb.roundId }),
    }),
  );
  // A changed file's seating waits for the round in play: the technician sees it will apply, and when.
  if (tb.seatsNext) {
    wrap(t('service.field.seatsNext'));
    for (const s of tb.seatsNext) rows.push('  ' + t('service.field.seatMove', { station: s.station, seat: s.seat }));
  }
  rows.push(tb.hold ? t(`hold.${tb.hold}`) : t('service.field.noHold'));
  if (tb.hold && tb.holdReads) {
    // Every card that left the shoe since the hold began must be accounted for by its resolution.
    if (tb.holdReads.shoeSequence !== null) rows.push('  ' + t('service.field.holdSequence', { seq: tb.holdReads.shoeSequence }));
    for (const r of tb.holdReads.reads) {
      rows.push('  ' + t('service.field.holdRead', { card: r.card ?? t('service.field.unreadableCard'), seq: r.shoeSequence ?? '—' }));
    }
    if (tb.holdReads.reads.length > 0) wrap('  ' + t('service.field.holdReadsVoid'));
  }
  if (tb.hold && tb.holdCard) rows.push('  ' + t('service.field.holdCard', { card: tb.holdCard }));
  // The corrections the game's text orders for this hold, each with its article; or the article that keeps the card.
  for (const x of tb.corrections ?? []) {
    const name = t(`service.correction.${x.correction}`);
    wrap('  ' + t(x.forbidden ? 'service.field.correctionForbidden' : 'service.field.correctionOffered', { correction: name, article: x.article }));
  }
  if (tb.hold && (tb.corrections ?? []).every((x) => x.forbidden)) wrap('  ' + t('service.field.noCorrection'));
  if (tb.held?.length) rows.push('  ' + t('service.field.heldCards', { cards: tb.held.join(' ') }));
  rows.push(t('service.field.newBets', { state: t(tb.newBets ? 'service.field.open' : 'service.field.closed') }));
}
