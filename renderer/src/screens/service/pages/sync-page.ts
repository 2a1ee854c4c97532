import type { ServicePage } from '../../../../../protocol/index.js';
import { syncRows } from './sync-rows.js';
import type { PageKit } from './kit.js';

/** The upstream link, and a retry. */
export function syncPage(page: Extract<ServicePage, { page: 'sync' }>, k: PageKit): void {
  const { t, a, canAct, btn } = k;
  syncRows(page.sync, k);
  btn('act-sync-retry', t('service.action.sync-retry'), () => a.act({ kind: 'sync-retry' }), canAct);
}
