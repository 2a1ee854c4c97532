// Issue 47, item 5: GLI-11's ticket meters (tickets in and out, counts and amounts, cashable) on
// service mode's Meters page, in every catalogue. From a journal that holds a ticket printed, one
// voided and one redeemed, through the host's reading of the meters (`readMeters`, every meter of
// the catalogue listed, zero until counted) to the rows the page draws in each language.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readMeters } from '../../host/service/backend/meters.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { redeemed, ticketIssue, ticketPrinted, ticketVoided } from '../../ledger/ticket-fixtures.js';
import { createI18n } from '../../locales/i18n.js';
import { catalogues } from '../../locales/index.js';
import { formatMoney } from '../../locales/money.js';
import type { Language, ServiceState } from '../../protocol/index.js';
import { pageContent } from '../../renderer/src/screens/service/page-content.js';
import { INITIAL_CHOICES } from '../../renderer/src/screens/service/pages/choices.js';
import { validationNumber } from '../../terms/validation-number.js';
import { NO_ACTIONS } from '../../renderer/src/screens/service/pages/page-test-kit.js';

const none = NO_ACTIONS;

const TICKET_METERS = ['ticketsIn', 'ticketsInAmount', 'ticketsOut', 'ticketsOutAmount', 'ticketsVoided'] as const;

function floorDay(): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'SIM-BJ-01' });
  l.append(billCredit(1, 100_000, 'bill-1', 'MOP'));
  // Station 1: one ticket of 300.00 printed, one of 50.00 voided (the credit back).
  l.append(ticketIssue(validationNumber(7, 1), 1, 30_000));
  l.append(ticketPrinted(validationNumber(7, 1)));
  l.append(ticketIssue(validationNumber(7, 2), 2, 5_000));
  l.append(ticketVoided(validationNumber(7, 2)));
  // Station 2: another table's ticket of 120.00 taken in.
  for (const e of redeemed('3f1c9f0e-5a2b-4c1d-8e7f-0a1b2c3d4e5f', validationNumber(9, 40), 2, 12_000)) l.append(e);
  return l;
}

describe("GLI-11's ticket meters on service mode's Meters page", () => {
  it('the host lists every ticket meter at the table and each station, zero until counted, and counts what the journal did', () => {
    const ledger = floorDay();
    try {
      const scopes = readMeters({ ledger, config: simulatedTableConfig('blackjack') });
      const at = (scope: string) => new Map(scopes.find((s) => s.scope === scope)?.meters.map((m) => [m.name, m]));
      for (const scope of ['table', 'station:1', 'station:2', 'station:7'])
        for (const name of TICKET_METERS) assert.ok(at(scope).has(name), `${scope} lists ${name}`);
      const value = (scope: string, name: string) => at(scope).get(name)?.value;
      assert.deepEqual(
        TICKET_METERS.map((n) => [n, value('table', n), value('station:1', n), value('station:2', n), value('station:7', n)]),
        [
          ['ticketsIn', 1, 0, 1, 0],
          ['ticketsInAmount', 12_000, 0, 12_000, 0],
          ['ticketsOut', 1, 1, 0, 0],
          ['ticketsOutAmount', 30_000, 30_000, 0, 0],
          ['ticketsVoided', 1, 1, 0, 0],
        ],
      );
      assert.equal(at('table').get('ticketsOutAmount')?.unit, 'money');
      assert.equal(at('table').get('ticketsOut')?.unit, 'count');
    } finally {
      ledger.close();
    }
  });

  it('the page words each ticket meter in zh-Hant, zh-Hans, pt and en, amounts in money and counts as counts', () => {
    const ledger = floorDay();
    try {
      const scopes = readMeters({ ledger, config: simulatedTableConfig('blackjack') });
      const languages = Object.keys(catalogues).sort() as Language[];
      assert.deepEqual(languages, ['en', 'pt', 'zh-Hans', 'zh-Hant'], 'the four catalogues');
      const words = new Map<string, string[]>();
      for (const language of languages) {
        const i18n = createI18n(language);
        const t = i18n.t.bind(i18n);
        const money = (m: number) => formatMoney(m, 'MOP', language);
        const state = {
          kind: 'service',
          tableId: 'SIM-BJ-01',
          softwareVersion: '1',
          language,
          signedIn: true,
          session: { name: 'Cy', staff: '1003', role: 'auditor', currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) },
        } as ServiceState;
        const page = { page: 'meters' as const, currency: 'MOP', notes: [100, 500, 1000], offset: 0, more: false, scopes };
        const rows = (scope: string) => pageContent(state, page, t, { ...INITIAL_CHOICES, meterScope: scope }, none).rows;
        const row = (name: (typeof TICKET_METERS)[number], value: string) => '  ' + t('service.field.meterRow', { name: t(`service.meter.${name}`), value });
        const table = rows('table');
        assert.ok(table.includes(row('ticketsOut', '1')), `${language}: ${table.join('\n')}`);
        assert.ok(table.includes(row('ticketsOutAmount', money(30_000))), language);
        assert.ok(table.includes(row('ticketsIn', '1')), language);
        assert.ok(table.includes(row('ticketsInAmount', money(12_000))), language);
        assert.ok(table.includes(row('ticketsVoided', '1')), language);
        const two = rows('station:2');
        assert.ok(two.includes(row('ticketsInAmount', money(12_000))) && two.includes(row('ticketsOutAmount', money(0))), language);
        assert.ok(!/tickets(In|Out|Voided)|12000|30000/.test(table.join('\n')), `${language}: no raw names or minor units`);
        words.set(
          language,
          TICKET_METERS.map((n) => t(`service.meter.${n}`)),
        );
      }
      // Five names, told apart, in each language; and each language its own words, not another's.
      for (const [language, names] of words) assert.equal(new Set(names).size, TICKET_METERS.length, `${language}: ${names.join(' | ')}`);
      assert.notDeepEqual(words.get('zh-Hant'), words.get('zh-Hans'));
      assert.notDeepEqual(words.get('pt'), words.get('en'));
    } finally {
      ledger.close();
    }
  });
});
