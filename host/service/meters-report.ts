import { catalogues } from '../../locales/index.js';
import { METER_NAMES, meterBase, meterGliName, type Language } from '../../protocol/index.js';
import type { MeterScope } from './service-backend.js';

/** The Intl locale of each screen language (as the screens format money). */
const INTL_LOCALE: Record<Language, string> = { 'zh-Hant': 'zh-Hant-MO', pt: 'pt-MO', en: 'en-MO' };

type Tree = { [k: string]: string | Tree };

function lookup(language: Language, key: string, values: Record<string, string | number> = {}): string {
  let node: string | Tree | undefined = catalogues[language] as unknown as Tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  const text = typeof node === 'string' ? node : key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface MetersReportInput {
  language: Language;
  currency: 'HKD' | 'MOP';
  tableId: string;
  terminal: string;
  at: string;
  headSeq: number;
  scopes: MeterScope[];
}

/**
 * The meters as a page to print (the browser's own print command): one table per scope, each
 * meter by its name in the language and its GLI/Macau name, money formatted in the table's
 * currency, counts as counts. Static HTML with inline styles and no script, served with the
 * export token like the CSV and JSON.
 */
export function metersReport(r: MetersReportInput): string {
  const t = (key: string, values?: Record<string, string | number>) => lookup(r.language, key, values);
  const money = new Intl.NumberFormat(INTL_LOCALE[r.language], { style: 'currency', currency: r.currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // Minor units become major units only here, for display, as the screens do.
  const asMoney = (minor: number) => money.format(minor / 100);
  const count = new Intl.NumberFormat(INTL_LOCALE[r.language], { maximumFractionDigits: 0 });
  const label = (name: string) => {
    const { base, note } = meterBase(name);
    if (!METER_NAMES.includes(base)) return t('service.meter.unknown', { name });
    return t(`service.meter.${base}`, note !== undefined ? { note: asMoney(note) } : {});
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
                `<tr><td>${escape(label(m.name))}</td><td class="gli">${escape(meterGliName(m.name))}</td><td class="v">${escape(m.unit === 'money' ? asMoney(m.value) : count.format(m.value))}</td></tr>`,
            )
            .join('\n');
    return `<section><h2>${escape(scopeName(s.scope))}</h2>
<table><thead><tr><th>${escape(t('service.report.meter'))}</th><th>GLI</th><th class="v">${escape(t('service.report.value'))}</th></tr></thead>
<tbody>
${rows}
</tbody></table></section>`;
  });
  const lang = r.language === 'zh-Hant' ? 'zh-Hant-MO' : r.language === 'pt' ? 'pt-MO' : 'en';
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escape(t('service.report.title'))} ${escape(r.tableId)}</title>
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
