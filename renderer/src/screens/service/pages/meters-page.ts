import { SERVICE_PAGE_SIZE, type ServicePage } from '../../../../../protocol/index.js';
import { intlLocale, minorDigits } from '../../../../../locales/money.js';
import { meterLabel, scopeLabel } from './meter-labels.js';
import type { PageKit } from './kit.js';

/** The Meters page: each scope's meters in whole units, the exports, and the cashbox drop count. */
export function metersPage(page: Extract<ServicePage, { page: 'meters' }>, k: PageKit): void {
  const { t, c, a, language, currency, money, sup, rows, btn } = k;
  const count = new Intl.NumberFormat(intlLocale(language), { maximumFractionDigits: 0 });
  rows.push(t('service.field.meterUnits', { currency, perUnit: 10 ** minorDigits(currency) }), '');
  for (const s of page.scopes) {
    if (c.meterScope !== 'all' && c.meterScope !== s.scope) continue;
    rows.push(scopeLabel(s.scope, t));
    if (s.meters.length === 0) rows.push('  ' + t('service.report.none'));
    for (const m of s.meters)
      rows.push('  ' + t('service.field.meterRow', { name: meterLabel(m.name, t, money), value: m.unit === 'money' ? money(m.value) : count.format(m.value) }));
  }
  for (const scope of [...page.scopes.map((s) => s.scope), 'all']) {
    btn(
      `meters-${scope.replace(':', '-')}`,
      scope === 'all' ? t('service.action.meterScope', { scope: t('service.action.all') }) : scopeLabel(scope, t),
      () => a.choose({ meterScope: scope }),
      true,
      c.meterScope === scope,
    );
  }
  // A stadium table's remote stations' meters are on the pages after the table's and its seats'
  // (every scope is in the exports); a page turned shows all its scopes.
  k.pager(page, SERVICE_PAGE_SIZE.meters, (offset) => {
    a.choose({ meterScope: 'all' });
    a.open('meters', { offset });
  });
  btn('export-csv', t('service.action.export-csv'), () => a.download('/service/export/meters.csv'));
  btn('export-json', t('service.action.export-json'), () => a.download('/service/export/meters.json'));
  btn('export-print', t('service.action.export-print'), () => a.view(`/service/export/meters.html?lang=${encodeURIComponent(language)}`));
  // The drop count: the station's number, then how many notes of each face value were in its
  // cashbox; a second person confirms, and the host says the difference from its credits.
  const countNotes = (station: number, counted: { note: number; count: number }[]): void => {
    const note = page.notes[counted.length];
    if (note === undefined) return a.act({ kind: 'cashbox-drop', station, notes: counted });
    a.ask({
      title: t('punctuation.joined', { first: t('service.action.cashbox-drop'), second: t('service.action.station', { station }) }),
      label: t('service.action.dropCount', { note: money(note * 100) }),
      kind: 'digits',
      then: (n) => countNotes(station, [...counted, { note, count: Number(n) }]),
    });
  };
  btn(
    'act-cashbox-drop',
    t('service.action.cashbox-drop'),
    () =>
      a.ask({
        title: t('service.action.cashbox-drop'),
        label: t('service.action.dropStation'),
        kind: 'digits',
        then: (n) => countNotes(Number(n), []),
      }),
    sup,
  );
}
