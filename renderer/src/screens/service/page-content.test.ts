import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeviceRow, ServiceAction, ServiceState } from '../../../../protocol/index.js';
import { createI18n } from '../../i18n/i18n.js';
import { formatMoney } from '../../i18n/money.js';
import { INITIAL_CHOICES, pageContent, type AskRequest, type PageActions } from './page-content.js';

const none: PageActions = { act: () => undefined, open: () => undefined, download: () => undefined, replay: () => undefined, ask: () => undefined, choose: () => undefined };
const row = (over: Partial<DeviceRow>): DeviceRow => ({ device: 'BA-2', kind: 'bill-acceptor', station: 2, spec: 'sim', state: 'ready', lastEvent: 'idle', enabled: true, ...over });

describe('service Devices page', () => {
  it('tells a technician\'s disable from a fault that stops the acceptor, in each language', async () => {
    for (const language of ['en', 'pt', 'zh-Hant'] as const) {
      const i18n = await createI18n(language);
      const t = i18n.t.bind(i18n);
      const devices = [
        row({ device: 'BA-1', station: 1 }),
        row({ enabled: false, inhibitedBy: ['service-disable', 'tilt:bill-jam'] }),
        row({ device: 'BA-3', station: 3, inhibitedBy: ['tilt:bill-jam'] }),
      ];
      const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language, signedIn: true } as ServiceState;
      const { rows } = pageContent(state, { page: 'devices', devices, trace: [] }, t, INITIAL_CHOICES, none);
      const disabled = t('service.field.disabledByService');
      const stopped = t('service.field.inhibitedByFault', { faults: t('tilt.bill-jam') });
      assert.ok(!rows[0]?.includes(disabled) && !rows[0]?.includes(stopped), `${language}: ${rows[0]}`);
      assert.ok(rows[1]?.includes(disabled) && rows[1].includes(stopped), `${language}: ${rows[1]}`);
      assert.ok(!rows[2]?.includes(disabled) && rows[2]?.includes(stopped), `${language}: ${rows[2]}`);
    }
  });
});

describe('service Configuration page', () => {
  it('a supervisor edits the limits, types the regulator\'s reference, and the change is asked for with both', async () => {
    const i18n = await createI18n('en');
    const t = i18n.t.bind(i18n);
    const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language: 'en', signedIn: true, session: { name: 'Ana', staff: '1001', role: 'supervisor', currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) } } as ServiceState;
    const page = {
      page: 'config' as const,
      items: [
        { key: 'game', value: 'blackjack', editable: false },
        { key: 'limits', value: '{"min":10000,"max":1000000}', editable: true },
        { key: 'handpayTwoPersonAbove', value: '5000000', editable: true },
      ],
      notes: [10, 20, 50, 100, 500, 1000],
      bets: ['main'],
      queued: [{ seq: 40, key: 'limits', after: '{"min":20000,"max":1000000}' }],
      changes: [{ seq: 40, ts: '2026-01-01T10:00:00.000Z', key: 'limits', before: '{"min":10000,"max":1000000}', after: '{"min":20000,"max":1000000}', who: 'Ana (1001)', witness: 'Bo (1002)', authorisation: 'DICJ-2026/1' }],
    };
    let choices = INITIAL_CHOICES;
    const asked: AskRequest[] = [];
    const acted: ServiceAction[] = [];
    const actions: PageActions = { ...none, choose: (u) => void (choices = { ...choices, ...u }), ask: (r) => void asked.push(r), act: (x) => void acted.push(x) };
    const press = (id: string) => {
      const b = pageContent(state, page, t, choices, actions).buttons.find((x) => x.id === id);
      assert.ok(b, `no button ${id}`);
      b.press();
    };
    const { rows } = pageContent(state, page, t, choices, actions);
    assert.ok(rows.some((r) => r.includes(`Two-person handpay above = ${formatMoney(5_000_000, 'MOP', 'en')}`)), rows.join('\n'));
    assert.ok(rows.some((r) => r.startsWith('Journalled; takes effect')), 'the queued change is shown');
    assert.ok(rows.some((r) => r.includes('#40') && r.includes('→') && r.includes('Ana (1001) / Bo (1002)') && r.includes('DICJ-2026/1')), 'the journalled change with before and after');
    press('edit-limits');
    assert.equal(choices.edit?.key, 'limits');
    press('field-max');
    assert.equal(asked[0]?.kind, 'digits');
    asked[0]?.then('20000');
    assert.equal(choices.edit?.fields.max, 2_000_000);
    assert.ok(pageContent(state, page, t, choices, actions).rows.some((r) => r.includes(`New: min ${formatMoney(10_000, 'MOP', 'en')} – max ${formatMoney(2_000_000, 'MOP', 'en')}`)));
    press('config-authorise');
    assert.equal(asked[1]?.kind, 'reference');
    asked[1]?.then('DICJ-2026/123');
    assert.deepEqual(acted, [{ kind: 'config-change', key: 'limits', value: '{"min":10000,"max":2000000}', authorisation: 'DICJ-2026/123' }]);
    assert.equal(choices.edit, null, 'the editor closes once the change is asked for');
    // A technician sees the values and cannot edit.
    const tech = { ...state, session: { ...state.session!, role: 'technician' as const } };
    assert.ok(!pageContent(tech, page, t, INITIAL_CHOICES, actions).buttons.some((b) => b.id.startsWith('edit-')));
  });
});
