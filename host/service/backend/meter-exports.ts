import { minorDigits } from '../../../locales/money.js';
import { meterGliName, type Currency } from '../../../protocol/index.js';
import { metersReport } from '../meters-report.js';
import type { MetersPart } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';
import { readMeters } from './meters.js';

/**
 * The meters exported: CSV and JSON as machine values (money in integer minor units, named in the
 * `unit` column, counts as counts; the GLI/Macau name beside the ledger's), and the printable report.
 */
export function meterExports(d: Pick<LiveBackendDeps, 'ledger' | 'config' | 'i18n'>, now: () => number): Pick<MetersPart, 'csv' | 'json' | 'html'> {
  const { tableId, currency } = d.config;
  return {
    csv() {
      const money = moneyUnit(currency);
      const lines = ['terminal,table,scope,meter,gli_name,unit,value'];
      for (const s of readMeters(d)) {
        for (const m of s.meters)
          lines.push(
            [
              d.ledger.terminalId,
              tableId,
              s.scope,
              m.name,
              csvCell(meterGliName(m.name, minorDigits(currency))),
              m.unit === 'money' ? money : 'count',
              m.value,
            ].join(','),
          );
      }
      return lines.join('\r\n') + '\r\n';
    },

    json() {
      return JSON.stringify(
        {
          terminal: d.ledger.terminalId,
          tableId,
          currency,
          units: { money: moneyUnit(currency), count: 'count' },
          at: new Date(now()).toISOString(),
          head: d.ledger.headOf(),
          scopes: readMeters(d).map((s) => ({
            scope: s.scope,
            meters: s.meters.map((m) => ({ meter: m.name, gliName: meterGliName(m.name, minorDigits(currency)), unit: m.unit, value: m.value })),
          })),
        },
        null,
        1,
      );
    },

    html(language) {
      return metersReport(
        {
          language,
          currency: d.config.currency,
          tableId,
          terminal: d.ledger.terminalId,
          at: new Date(now()).toISOString(),
          headSeq: d.ledger.headOf().seq,
          scopes: readMeters(d),
        },
        d.i18n,
      );
    },
  };
}

/** The unit of a money meter in the exports: minor units of the currency, named. */
function moneyUnit(currency: Currency): string {
  return `${currency} minor units (1/${10 ** minorDigits(currency)})`;
}

/** A CSV cell quoted when it holds a comma or a quote (RFC 4180). */
function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
