import { diffParts } from '../../protocol/index.js';
import { SharedMessage } from './outbox.js';

/**
 * A view's JSON, the same text as `JSON.stringify(state)`, with each top-level part that is an
 * object encoded once while it lives: the round view is shared by every screen, a recall list
 * and the pay table by every build of a station, and none of them is changed in place (a change
 * makes a new object). The parts are views' plain data: no `toJSON`, no functions.
 */
export function encodeView(state: object, parts: WeakMap<object, string>): string {
  let out = '';
  for (const [k, v] of Object.entries(state)) {
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    let json: string;
    if (typeof v === 'object' && v !== null) {
      const cached = parts.get(v);
      if (cached === undefined) {
        json = JSON.stringify(v);
        parts.set(v, json);
      } else json = cached;
    } else json = JSON.stringify(v);
    out += `${out === '' ? '{' : ','}${JSON.stringify(k)}:${json}`;
  }
  return out === '' ? '{}' : `${out}}`;
}

/**
 * A patch message for a new version, or null when the patch would not be smaller than the whole
 * (`wholeBytes`, the whole message's length) or there is nothing to say (the content is the same
 * JSON in another key order). Written as the tuple `[target, version, ops]` (protocol 6,
 * `PatchTuple`): `target` a public part (`round`, `panel`) or the view whose own part it patches.
 */
export function patchMessage(target: string, version: number, before: object, after: object, wholeBytes: number): SharedMessage | null {
  const ops = diffParts(before, after);
  if (ops.length === 0) return null;
  return patchOf(target, version, JSON.stringify(ops), wholeBytes);
}

/** The patch message of operations already encoded (`ops`, a JSON array), or null when it would not be smaller than the whole. */
export function patchOf(target: string, version: number, ops: string, wholeBytes: number): SharedMessage | null {
  const text = `[${JSON.stringify(target)},${version},${ops}]`;
  return text.length < wholeBytes ? new SharedMessage(text) : null;
}
