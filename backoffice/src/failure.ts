import { ApiError } from './api.js';
import type { Words } from './i18n.js';

/**
 * Why something the page asked of the upstream failed, in the page's words: every refusal and
 * failure it shows is a key of the catalogues, never an error's own text. Until a review of 7
 * December the page said «Could not load: {{message}}» with the error's message: the browser's
 * English («Failed to fetch»), or a status and the upstream's code («401 signed-out», «403 csrf»,
 * «429 http»), whatever the page's language. A refusal a page knows by its code (an alarm that
 * holds every acknowledgement, a request already decided) is said by that page before it asks here.
 */
export function failureWords(w: Pick<Words, 't'>, e: unknown): string {
  const t = w.t;
  if (!(e instanceof ApiError)) return t('backoffice.error.page');
  if (e.status === 0) return t('backoffice.error.network');
  // Two session cookies: one planted by another page of the site (upstream/backoffice/guard.ts); signing in again alone does not mend it.
  if (e.status === 401 && e.code === 'cookie-twice') return t('backoffice.signIn.cookieTwice');
  if (e.status === 401) return t('backoffice.signIn.ended');
  if (e.status === 403 && e.code === 'role') return t('backoffice.error.role');
  if (e.status === 403 && e.code === 'csrf') return t('backoffice.error.csrf');
  if (e.status === 429) return t('backoffice.error.busy', { seconds: e.retryAfter ?? 60 });
  // An answer of another shape than the upstream's (a proxy's page, a captive portal's 200).
  if (e.code === 'unreadable') return t('backoffice.error.unreadable');
  if (e.status >= 500 || e.code === 'http') return t('backoffice.error.server', { status: e.status });
  return t('backoffice.error.refused', { status: e.status });
}
