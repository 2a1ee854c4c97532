import type { ServicePage } from '../../../../../protocol/index.js';
import { deviceRows } from './device-rows.js';
import { faultDetailWords } from './fault-detail.js';
import { syncRows } from './sync-rows.js';
import { tableRows } from './table-rows.js';
import { macauTime } from './time.js';
import type { PageKit } from './kit.js';

/** The Status page: the table and its hold, the program hash, the faults (each cleared by its own button), locked accounts, the upstream link, the devices. */
export function statusPage(page: Extract<ServicePage, { page: 'status' }>, k: PageKit): void {
  const { t, a, canAct, sup, rows, wrap, btn } = k;
  tableRows(page.table, k);
  rows.push(t('service.field.version', { version: page.softwareVersion }), t('service.field.hashStart', { hash: page.programHash.atStart }));
  if (page.programHash.latest) rows.push(t('service.field.hashNow', { hash: page.programHash.latest, at: page.programHash.latestAt ?? '' }));
  if (page.programHash.changed?.length) wrap(t('service.field.hashChanged', { files: page.programHash.changed }));
  rows.push(t('service.field.tilts'));
  if (page.tilts === null) rows.push('  ' + t('service.field.tiltsOff'));
  else if (page.tilts.length === 0) rows.push('  ' + t('service.field.tiltsNone'));
  else {
    for (const x of page.tilts) {
      const kind = t(`tilt.${x.kind}`);
      // Four jams read alike: each row and its button name the station.
      const where = x.station !== undefined ? t('service.field.atStation', { station: x.station }) : t('service.field.atTable');
      // Who clears it (tiltClears.*) and how, for this kind of fault.
      const how = t(`service.tiltHow.${x.kind}`);
      const tilt = t('service.field.tilt', { severity: t(`service.severity.${x.severity}`), kind, clearedBy: t(`tiltClears.${x.clearedBy}`), how });
      wrap('  ' + t('punctuation.joined', { first: where, second: tilt }));
      // What the host says of it (where a note jammed, the disk's space, who closed the table).
      const detail = faultDetailWords(t, x.detail);
      if (detail !== null) wrap('    ' + detail);
      // A fault a person clears, once its condition has gone; the host checks the role.
      const clear = { kind: 'clear-tilt' as const, tilt: x.kind, ...(x.station !== undefined ? { station: x.station } : {}) };
      const label =
        x.station !== undefined ? t('service.action.clear-tilt-station', { fault: kind, station: x.station }) : t('service.action.clear-tilt', { fault: kind });
      btn(`act-clear-tilt-${x.kind}${x.station ?? ''}`, label, () => a.act(clear), canAct && x.clearable === true);
    }
  }
  // Accounts locked by wrong PINs (perhaps a stranger's): another supervisor lifts the lock (issue 50).
  if (page.locked?.length) {
    rows.push(t('service.field.locked'));
    for (const x of page.locked) {
      wrap('  ' + t('service.field.lockedRow', { name: x.name, staff: x.staff, until: macauTime(x.until) }));
      btn(`act-account-unlock-${x.staff}`, t('service.action.account-unlock', { name: x.name }), () => a.act({ kind: 'account-unlock', staff: x.staff }), sup);
    }
  }
  rows.push(t('service.field.sync'));
  syncRows(page.sync, k);
  rows.push(t('service.field.devices'));
  deviceRows(page.devices, k);
  btn('act-program-hash', t('service.action.program-hash'), () => a.act({ kind: 'program-hash' }), canAct);
}
