import type { TFunction } from 'i18next';
import { meterKind } from '../../../../../protocol/index.js';

/** `table` → the table, `station:3` → station 3, in the screen's language. */
export function scopeLabel(scope: string, t: TFunction): string {
  return scope === 'table' ? t('service.field.atTable') : t('service.field.atStation', { station: scope.split(':')[1] ?? scope });
}

/** A meter's GLI/Macau name in the screen's language; `billsIn.50000` names its note in money. */
export function meterLabel(name: string, t: TFunction, money: (minor: number) => string): string {
  const meter = meterKind(name);
  if (!meter) return t('service.meter.unknown', { name });
  if (meter.level !== undefined) return t(`service.meter.${meter.base}`, { level: meter.level });
  return meter.note !== undefined ? t(`service.meter.${meter.base}`, { note: money(meter.note) }) : t(`service.meter.${meter.base}`);
}
