import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeviceRow, ServiceState } from '../../../../protocol/index.js';
import { createI18n } from '../../i18n/i18n.js';
import { INITIAL_CHOICES, pageContent, type PageActions } from './page-content.js';

const none: PageActions = { act: () => undefined, open: () => undefined, download: () => undefined, replay: () => undefined, askNumber: () => undefined, choose: () => undefined };
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
