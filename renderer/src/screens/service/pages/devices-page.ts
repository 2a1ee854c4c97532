import type { ServicePage } from '../../../../../protocol/index.js';
import { deviceRows } from './device-rows.js';
import type { PageKit } from './kit.js';

/** The Devices page: one row per device and the chosen one in full, with its trace and frames, and the tests and switches a technician runs. */
export function devicesPage(page: Extract<ServicePage, { page: 'devices' }>, k: PageKit): void {
  const { t, c, a, canAct, rows, wrap, btn } = k;
  // The device the host traces is the one on screen; until the host has it, the screen's choice.
  const device = page.device ?? c.device;
  const chosen = page.devices.find((d) => d.device === device);
  // One short row per device and the chosen one in full: its trace stays on the first screen.
  deviceRows(page.devices, k, device);
  if (chosen?.switchable === false) wrap(t('service.field.notSwitchable', { device: chosen.device }));
  rows.push('', t('service.field.traceOf', { device }));
  if (page.trace.length === 0) rows.push('  ' + t('service.field.noEntries'));
  // Each event by its words, then its facts as the device gave them (codes and numbers).
  for (const e of page.trace) wrap(`  ${e.ts.slice(11, 23)} ${[t(`service.deviceEvent.${e.event}`), e.facts].filter((x) => x !== '').join(' ')}`);
  rows.push('', t('service.field.framesOf', { device }));
  if (page.frames.length === 0) rows.push('  ' + t('service.field.noEntries'));
  for (const f of page.frames) {
    wrap(
      '  ' +
        t('service.field.frameRow', {
          ts: f.ts.slice(11, 23),
          dir: t(`service.field.dir.${f.dir}`),
          hex: f.hex,
          meaning: f.meaning,
          times: f.count > 1 ? t('service.field.times', { n: f.count }) : '',
        }),
    );
  }
  for (const d of page.devices) {
    btn(
      `device-${d.device}`,
      d.device,
      () => {
        a.choose({ device: d.device });
        a.open('devices', { device: d.device });
      },
      true,
      d.device === device,
    );
  }
  const station = Number(/^BA-(\d+)$/.exec(device)?.[1] ?? 0);
  if (canAct) {
    if (station) btn('act-test-note', t('service.action.test-note'), () => a.act({ kind: 'test-note', station }));
    else btn('act-test-card', t('service.action.test-card'), () => a.act({ kind: 'test-card' }));
    if (chosen?.switchable !== false) {
      btn('act-device-disable', t('service.action.device-disable'), () => a.act({ kind: 'device-enable', device, enabled: false }));
      btn('act-device-enable', t('service.action.device-enable'), () => a.act({ kind: 'device-enable', device, enabled: true }));
    }
    btn('act-device-reconnect', t('service.action.device-reconnect'), () => a.act({ kind: 'device-reconnect', device }));
  }
}
