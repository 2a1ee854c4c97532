import { inEnglish, type Said } from '../config/refusal-words.js';
import type { BackendRefusal, BackendResult } from './service-backend.js';

/**
 * A service action refused as the screen says it: the key in the screen's language with its
 * parameters (the notice; service-host.ts shows it as it is), and the same in English for the
 * host's log (`detail`, from the en catalogue).
 */
export function refusedBy(say: Said, code: BackendRefusal = 'refused'): Extract<BackendResult, { ok: false }> {
  return { ok: false, code, detail: inEnglish(say), notice: { key: say.key, values: { ...say.values } } };
}
