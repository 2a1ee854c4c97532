import type { ServicePage } from '../../../../../protocol/index.js';
import { deviceRows } from './device-rows.js';
import type { PageKit } from './kit.js';
import { macauTime } from './time.js';

/** The Devices page: one row per device and the chosen one in full, with its trace and frames, and the tests and switches a technician runs. */
export function devicesPage(page: Extract<ServicePage, { page: 'devices' }>, k: PageKit): void {
  const { t, c, a, canAct, rows, wrap, btn } = k;
  // The device the host traces is the one on screen; until the host has it, the screen's choice.
  const device = page.device ?? c.device;
  const chosen = page.devices.find((d) => d.device === device);
  // Notes a person must settle first: each counts against its station's credit limit until then.
  notesHeldRows(page.notesHeld ?? [], k);
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

/**
 * Notes the host answered "stack" to that no acceptor will end, each with its two settlements (a
 * technician alone, or a supervisor and a second person above the two-person amount): in the
 * cashbox, the station credited, or not there, returned. Each action names the note's escrow entry.
 */
function notesHeldRows(held: NonNullable<Extract<ServicePage, { page: 'devices' }>['notesHeld']>, k: PageKit): void {
  const { t, a, money, canAct, rows, wrap, btn } = k;
  if (held.length === 0) return;
  rows.push(t('service.notesHeld.title'));
  wrap('  ' + t('service.notesHeld.how'));
  held.forEach((n, i) => {
    const row = t('service.notesHeld.row', {
      station: n.station,
      amount: money(n.amount),
      at: macauTime(n.since),
      two: n.twoPerson ? t('service.field.twoPerson') : '',
    });
    wrap('  ' + t('punctuation.numbered', { n: i + 1, text: row }));
    for (const outcome of ['stacked', 'returned'] as const)
      btn(
        `note-${outcome}-${n.seq}`,
        t(outcome === 'stacked' ? 'service.action.note-stacked-row' : 'service.action.note-returned-row', { n: i + 1 }),
        () => a.act({ kind: 'note-settle', station: n.station, seq: n.seq, outcome }),
        canAct,
      );
  });
  rows.push('');
}
