import { diffParts, jsonEqual } from '../../protocol/index.js';
import { patchOf } from './encode-view.js';
import type { SharedMessage } from './outbox.js';

/**
 * The stations' own-part patches (issue 55). A patch is its view's name and version around what
 * changed. When one part of a station's own part moved and nothing else (every other field of the
 * same content), what changed is that part's change alone, worked out and encoded once for every
 * station whose part moved from the same object to the same object: at the results' end a
 * stadium's idle stations share their betting part before and after (engine/table/views.ts
 * `IdleBettings`), so their thousand patches say what the one change says. Views are never changed
 * in place, so the same two objects always make the same operations.
 */
export class OwnPatches {
  /** What changed between two objects, by the one field they were found under, encoded; null: nothing. */
  private readonly changes = new WeakMap<object, WeakMap<object, { key: string; ops: string | null }>>();

  /** `worked`: called for each patch whose operations are worked out and encoded (not for one reused). */
  constructor(private readonly worked: () => void) {}

  /** The patch of `view`'s own part from `before` to `after`, its new `version`; null when nothing changed or the whole is smaller. */
  patch(view: string, version: number, before: object, after: object, wholeBytes: number): SharedMessage | null {
    const moved = onlyMoved(before, after);
    let ops: string | null;
    if (moved === null) ops = this.encoded(diffParts(before, after));
    else {
      const { key, a, b } = moved;
      let from = this.changes.get(a);
      if (!from) this.changes.set(a, (from = new WeakMap()));
      const had = from.get(b);
      if (had && had.key === key) ops = had.ops;
      else {
        ops = this.encoded(diffParts({ [key]: a }, { [key]: b }));
        from.set(b, { key, ops });
      }
    }
    return ops === null ? null : patchOf(view, version, ops, wholeBytes);
  }

  /** What changed between two records of a part's shared fields, encoded (null: nothing), by the record before and the record after. */
  private readonly betweenShared = new WeakMap<object, WeakMap<object, string | null>>();

  /**
   * The patch of `view`'s own part where only its shared fields moved (host/screens/station-view.ts
   * `SharedOwnFields`), from the record of them it was made with (`before`) to the one now
   * (`after`): its own fields the same objects, `diffParts` of the two parts is that of the two
   * records, whose keys keep the part's order. Worked out once for every station made from the same
   * two records (a stadium's idle stations), each patch naming its own view and version.
   */
  between(view: string, version: number, before: object, after: object, wholeBytes: number): SharedMessage | null {
    let from = this.betweenShared.get(before);
    if (!from) this.betweenShared.set(before, (from = new WeakMap()));
    let ops = from.get(after);
    if (ops === undefined) {
      ops = this.encoded(diffParts(before, after));
      from.set(after, ops);
    }
    return ops === null ? null : patchOf(view, version, ops, wholeBytes);
  }

  private encoded(ops: readonly unknown[]): string | null {
    this.worked();
    return ops.length === 0 ? null : JSON.stringify(ops);
  }
}

/**
 * The one field of two own parts whose content moved, and its two objects, when both hold an object there, every other
 * field holds the same content (the same value, or a fresh object equal as JSON: a station's
 * recall count or floor notices are made anew at each build) and the keys are the same, in the
 * same order: `diffParts` of the two is then `diffParts` of that field alone (a field of the same
 * content makes no operation). Null otherwise.
 */
function onlyMoved(before: object, after: object): { key: string; a: object; b: object } | null {
  const ka = Object.keys(before);
  const kb = Object.keys(after);
  if (ka.length !== kb.length) return null;
  let moved: { key: string; a: object; b: object } | null = null;
  for (const [i, k] of ka.entries()) {
    if (kb[i] !== k) return null;
    const a: unknown = Reflect.get(before, k);
    const b: unknown = Reflect.get(after, k);
    if (a === b || jsonEqual(a, b)) continue;
    if (moved !== null || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return null;
    moved = { key: k, a, b };
  }
  return moved;
}
