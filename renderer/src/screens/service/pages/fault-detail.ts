import type { TFunction } from 'i18next';
import { isMessageKey } from '../../../../../locales/i18n.js';
import { saidWords } from '../../../../../locales/said.js';
import type { ServicePage } from '../../../../../protocol/index.js';

type FaultDetail = NonNullable<Extract<ServicePage, { page: 'status' }>['tilts']>[number]['detail'];

/**
 * A fault's detail in the screen's language (where a note jammed, the disk's space, who closed the
 * table): the host sends it as a `tiltDetail.*` key and its parameters, each code said by its noun
 * (locales/said.ts). None, or a key this screen has no words for (a newer host's): nothing.
 */
export function faultDetailWords(t: TFunction, detail: FaultDetail): string | null {
  if (!detail || !isMessageKey(detail.key)) return null;
  return saidWords((key, options) => t(key, options), { key: detail.key, values: detail.values });
}
