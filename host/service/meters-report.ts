import type { i18n } from 'i18next';
import { formatMoney, intlLocale, minorDigits } from '../../locales/money.js';
import { meterGliName, meterKind, type Currency, type Language } from '../../protocol/index.js';
import type { MeterScope } from './service-backend.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface MetersReportInput {
  language: Language;
  currency: Currency;
  tableId: string;
  terminal: string;
  at: string;
  headSeq: number;
  scopes: MeterScope[];
}

/**
 * The meters as a page to print (the browser's own print command): one table per scope, each
 * meter by its name in the language and its GLI/Macau name, money formatted in the table's
 * currency from its minor units (every amount with its fraction, so the column lines up), counts
 * as counts. Worded by the host's i18next instance, as the screens word theirs. Static HTML with
 * inline styles and no script, served with the export token like the CSV and JSON.
 */
export function metersReport(r: MetersReportInput, i18n: i18n): string {
  const t = i18n.getFixedT(r.language);
  const money = (minor: number) => formatMoney(minor, r.currency, r.language, { fraction: 'always' });
  const count = new Intl.NumberFormat(intlLocale(r.language), { maximumFractionDigits: 0 });
  const digits = minorDigits(r.currency);
  const label = (name: string) => {
    const meter = meterKind(name);
    if (!meter) return t('service.meter.unknown', { name });
    if (meter.level !== undefined) return t(`service.meter.${meter.base}`, { level: meter.level });
    return meter.note !== undefined ? t(`service.meter.${meter.base}`, { note: money(meter.note) }) : t(`service.meter.${meter.base}`);
  };
  const scopeName = (scope: string) =>
    scope === 'table' ? t('service.field.atTable') : t('service.field.atStation', { station: scope.split(':')[1] ?? scope });
  const sections = r.scopes.map((s) => {
    const rows =
      s.meters.length === 0
        ? `<tr><td colspan="3">${escape(t('service.report.none'))}</td></tr>`
        : s.meters
            .map(
              (m) =>
                `<tr><td>${escape(label(m.name))}</td><td class="gli">${escape(meterGliName(m.name, digits))}</td><td class="v">${escape(m.unit === 'money' ? money(m.value) : count.format(m.value))}</td></tr>`,
            )
            .join('\n');
    return `<section><h2>${escape(scopeName(s.scope))}</h2>
<table><thead><tr><th>${escape(t('service.report.meter'))}</th><th>GLI</th><th class="v">${escape(t('service.report.value'))}</th></tr></thead>
<tbody>
${rows}
</tbody></table></section>`;
  });
  const title = t('service.report.pageTitle', { table: r.tableId });
  return `<!doctype html>
<html lang="${intlLocale(r.language)}"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>
body { font-family: "Noto Sans CJK HK", "Noto Sans", sans-serif; margin: 16mm; color: #000; background: #fff; }
h1 { font-size: 18pt; margin: 0 0 4mm; } h2 { font-size: 13pt; margin: 6mm 0 2mm; }
p { margin: 0 0 2mm; font-size: 10pt; }
table { border-collapse: collapse; width: 100%; font-size: 10pt; }
th, td { border: 1px solid #888; padding: 1mm 2mm; text-align: left; } .v { text-align: right; font-variant-numeric: tabular-nums; }
.gli { color: #444; } section { break-inside: avoid; }
@media print { body { margin: 10mm; } }
</style></head>
<body>
<h1>${escape(t('service.report.title'))}</h1>
<p>${escape(t('service.report.generated', { table: r.tableId, terminal: r.terminal, at: r.at, seq: r.headSeq }))}</p>
<p>${escape(t('service.report.print'))}</p>
${sections.join('\n')}
</body></html>
`;
}
