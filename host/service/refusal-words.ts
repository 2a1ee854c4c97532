import { inEnglish, type Said } from '../config/refusal-words.js';
import { tableRefusal } from '../floor/act-said.js';
import type { ActRefusal } from '../../engine/table/act-refusal.js';
import type { BackendRefusal, BackendResult } from './service-backend.js';

/**
 * A service action refused as the screen says it: the key in the screen's language with its
 * parameters (the notice; service-host.ts shows it as it is), and the same in English for the
 * host's log (`detail`, from the en catalogue).
 */
export function refusedBy(say: Said, code: BackendRefusal = 'refused'): Extract<BackendResult, { ok: false }> {
  return { ok: false, code, detail: inEnglish(say), notice: { key: say.key, values: { ...say.values } } };
}

/**
 * The table's refusal of a person's act as the screen says it: by its key (host/floor/act-said.ts);
 * one the table gives no key for by `serviceRefusal.tableRefused`, its `detail` then the table's
 * own English (the host's log: service-host.ts logs every refused action's detail).
 */
export function tableRefused(
  r: { readonly reason: string; readonly act?: ActRefusal; readonly refusal?: string },
  currency: string,
  code: BackendRefusal = 'refused',
) {
  const { say, reason } = tableRefusal(r, currency);
  return { ...refusedBy(say, code), detail: reason };
}
