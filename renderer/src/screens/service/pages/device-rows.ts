import { inhibitingTilt, type ServicePage } from '../../../../../protocol/index.js';
import type { PageKit } from './kit.js';

type DeviceData = Extract<ServicePage, { page: 'devices' }>['devices'];

/** Every device in full, or (`brief`) each on one short row and the one named in full. */
export function deviceRows(devices: DeviceData, k: PageKit, brief?: string): void {
  const { t, rows, wrap } = k;
  for (const d of devices) {
    // The technician's disable and the faults that inhibit the device are told apart: clearing
    // a fault never enables what a technician disabled.
    const faults = (d.inhibitedBy ?? []).flatMap((r) => {
      const kind = inhibitingTilt(r);
      return kind ? [t(`tilt.${kind}`)] : [];
    });
    // Its link in words (the host sends a code), the shoe's lid when open, then what stops it.
    const state = [
      ...(d.lidOpen ? [t('service.field.lidOpen')] : []),
      ...(d.enabled ? [] : [t('service.field.disabledByService')]),
      ...(faults.length ? [t('service.field.inhibitedByFault', { faults })] : []),
    ].reduce((first, second) => t('punctuation.joined', { first, second }), t(`service.deviceState.${d.state}`));
    // ID-003 has no serial-number request: say so rather than leave the serial blank.
    const serial = d.serial ?? (d.protocol === 'id003' ? t('service.field.noSerialId003') : '—');
    // Its last event by its words (the host sends its name).
    const event = d.lastEvent === null ? '—' : t(`service.deviceEvent.${d.lastEvent}`);
    if (brief !== undefined && d.device !== brief) rows.push(t('service.field.deviceShort', { device: d.device, state }));
    else wrap(t('service.field.device', { device: d.device, state, spec: d.spec, firmware: d.firmware ?? '—', serial, event }));
  }
}
