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
  // Why it last failed, by its reason (the host never sends the error's text).
  const error = s.lastError
    ? t('punctuation.labelled', {
        label: s.lastErrorAt ?? '—',
        value: t(`service.syncError.${s.lastError.reason}`, { status: s.lastError.status ?? '', error: s.lastError.error ?? '' }),
      })
    : '—';
  rows.push(t('service.field.lastError', { error }));
}
