import type { ServicePage } from '../../../../../protocol/index.js';
import type { PageKit } from './kit.js';

type SyncData = Extract<ServicePage, { page: 'sync' }>['sync'];

/** The upstream link: where, how far behind, the last success and the last error. */
export function syncRows(s: SyncData, k: PageKit): void {
  const { t, rows } = k;
  if (!s) return void rows.push(t('service.field.syncOff'));
  rows.push(`${s.upstream}`);
  const lag = t('service.field.entries', { count: s.lagEntries });
  rows.push(t('service.field.syncRow', { state: t(`service.syncState.${s.state}`), acked: s.ackedSeq, head: s.headSeq, lag, seconds: s.lagSeconds }));
  rows.push(t('service.field.queue', { n: s.lagEntries }));
  rows.push(t('service.field.lastSuccess', { at: s.lastSuccessAt ?? '—' }));
  rows.push(t('service.field.lastError', { error: s.lastError ? `${s.lastError} (${s.lastErrorAt ?? ''})` : '—' }));
}
