import type { Settings } from './api.js';
import { h } from './dom.js';
import type { Words } from './i18n.js';

/** The gaming day's report (filled in by the report slice). */
export function reportPage(w: Words, _settings: Settings): HTMLElement {
  return h('section', {}, h('h1', {}, w.t('backoffice.nav.report')));
}
