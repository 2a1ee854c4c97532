import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { api } from './api.js';
import { h } from './dom.js';
import { failureWords } from './failure.js';
import type { Words } from './i18n.js';
import { currencyLabel } from './money.js';
import { BAND_Z, holdBand } from './hold-band.js';
import { chosenTables, currencyGroups, groupLabel, seriesLabel, seriesValue } from './plots-choice.js';
import type { Plots } from './report-model.js';

/**
 * The plots (issue 49 item 5), drawn by uPlot: win and drop per hour, hold per hour, and the sync
 * lag per hour, for all the tables of one currency together or one table (a pataca is never added
 * to a Hong Kong dollar: the choices are per currency). Each series has its own dash as well as its own
 * colour, and its name in the legend: colour is never the only way to tell them apart.
 */
export function plotsPage(w: Words): HTMLElement {
  const t = w.t;
  const date = h('input', { type: 'date', name: 'date' });
  const which = h('select', { name: 'table', 'aria-label': t('backoffice.report.col.table') });
  const charts = h('div', { class: 'charts', 'data-testid': 'plots' });
  let plots: Plots | null = null;
  let drawn: uPlot[] = [];
  const draw = () => {
    drawn.forEach((p) => p.destroy());
    drawn = [];
    charts.replaceChildren();
    if (!plots) return;
    // One table's series in one currency, or every table's of one currency (code and exponent): all in the same minor units.
    const chosen = chosenTables(plots.tables, which.value);
    const currency = chosen[0]?.currency ?? null;
    const xs = plots.hours.map((iso) => Date.parse(iso) / 1000);
    const scale = 10 ** (currency?.exponent ?? 0);
    const sum = (pick: (s: Plots['tables'][number]) => number[]) => xs.map((_, i) => chosen.reduce((a, s) => a + (pick(s)[i] ?? 0), 0) / scale);
    const win = sum((s) => s.win);
    const drop = sum((s) => s.drop);
    const wagered = sum((s) => s.wagered);
    const holdPct = wagered.map((wg, i) => (wg === 0 ? null : (100 * (win[i] ?? 0)) / wg));
    const lag = xs.map((_, i) => chosen.reduce<number | null>((a, s) => (s.lagMax[i] == null ? a : Math.max(a ?? 0, s.lagMax[i] ?? 0)), null));
    const width = Math.min(1200, Math.max(480, charts.clientWidth || 900));
    const chart = (title: string, series: uPlot.Series[], data: uPlot.AlignedData) => {
      const box = h('figure', { class: 'chart' });
      charts.append(box);
      drawn.push(new uPlot({ title, width, height: 260, tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Asia/Macau'), series: [{}, ...series] }, data, box));
    };
    chart(
      `${t('backoffice.plots.winDrop')} (${currencyLabel(currency)})`,
      [
        { label: t('backoffice.report.col.win'), stroke: '#1f5fa8', width: 2 },
        { label: t('backoffice.report.col.drop'), stroke: '#b5651d', width: 2, dash: [8, 4] },
      ],
      [xs, win, drop],
    );
    chart(t('backoffice.plots.hold'), [{ label: t('backoffice.report.col.hold'), stroke: '#2e7d32', width: 2, points: { show: true } }], [xs, holdPct]);
    const band = holdBand(
      chosen.map((s) => s.theoretical),
      xs.length,
    );
    chart(
      `${t('backoffice.plots.theoretical')} — ${t('backoffice.plots.bandNote', { z: BAND_Z })}`,
      [
        { label: t('backoffice.plots.holdInitial'), stroke: '#2e7d32', width: 2, points: { show: true } },
        { label: t('backoffice.plots.edge'), stroke: '#37474f', width: 2, dash: [10, 5] },
        { label: t('backoffice.plots.bandLow'), stroke: '#9e9e9e', width: 1, dash: [3, 3] },
        { label: t('backoffice.plots.bandHigh'), stroke: '#9e9e9e', width: 1, dash: [3, 3] },
      ],
      [xs, band.hold, band.edge, band.lower, band.upper],
    );
    chart(t('backoffice.plots.lag'), [{ label: t('backoffice.floor.lag'), stroke: '#6a1b9a', width: 2, dash: [2, 3], points: { show: true } }], [xs, lag]);
  };
  const failed = h('p', { class: 'error', role: 'alert', 'data-testid': 'plots-failed' });
  const load = async () => {
    failed.textContent = '';
    try {
      plots = await api.plots(date.value || undefined);
    } catch (e) {
      // Said, and the day shown before taken away: until a review of 7 December a day the upstream
      // refused or failed left the previous day's plots under the date asked, and said nothing.
      plots = null;
      which.replaceChildren();
      draw();
      failed.textContent = failureWords(w, e);
      return;
    }
    date.value = plots.date;
    const keep = which.value;
    const groups = currencyGroups(plots.tables);
    which.replaceChildren(
      ...groups.map((g) => h('option', { value: g.value }, `${t('backoffice.plots.allTables')} (${groupLabel(g, groups, w.language)})`)),
      ...plots.tables.map((s) => h('option', { value: seriesValue(s) }, `${s.terminalId} (${seriesLabel(s, groups, w.language)})`)),
    );
    which.value = keep;
    if (which.selectedIndex < 0) which.selectedIndex = 0;
    draw();
  };
  const form = h(
    'form',
    { class: 'report-controls' },
    h('label', {}, t('backoffice.report.date'), ' ', date),
    ' ',
    which,
    ' ',
    h('button', { type: 'submit' }, t('backoffice.report.show')),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void load();
  });
  which.addEventListener('change', draw);
  void load();
  return h('section', {}, h('h1', {}, t('backoffice.nav.plots')), form, failed, charts);
}
