// One canonical JSON for the whole project: the ledger hashes it, the table fold compares
// journalled payloads with it (issue 32: it was written twice).

/** A JSON value the ledger can hash: no floats, no undefined, no non-finite numbers. */
export type Canonical = string | number | boolean | null | Canonical[] | { [key: string]: Canonical };

// Object keys quoted once: a journal's bodies use a few dozen keys over and over.
const quotedKeys = new Map<string, string>();
function quoteKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 4096) quotedKeys.set(k, q);
  }
  return q;
}

/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, numbers only as safe
 * integers (money is minor units; a float in a journal body is a bug, and refusing it keeps the
 * encoding unambiguous across languages), `undefined` members dropped. The same value always
 * gives the same bytes, which is what the hash chain needs.
 *
 * Written as plain loops over strings (no map/filter/join), and keys are sorted only when they
 * are not already in order (a parsed canonical body always is): `verify --full` writes every
 * body of the journal again through this.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isSafeInteger(value)) throw new TypeError(`canonical JSON holds safe integers only, got ${value}`);
      // -0 === 0: both are written '0'.
      return value === 0 ? '0' : String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let s = '[';
        for (let i = 0; i < value.length; i++) {
          const v: unknown = value[i];
          if (i > 0) s += ',';
          s += v === undefined ? 'null' : canonicalJson(v);
        }
        return `${s}]`;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj);
      for (let i = 1; i < keys.length; i++) {
        // String `>` compares UTF-16 code units, as the default sort does.
        if ((keys[i - 1] as string) > (keys[i] as string)) {
          keys.sort();
          break;
        }
      }
      let s = '{';
      let first = true;
      for (const k of keys) {
        const v = obj[k];
        if (v === undefined) continue;
        s += first ? quoteKey(k) : `,${quoteKey(k)}`;
        first = false;
        s += `:${canonicalJson(v)}`;
      }
      return `${s}}`;
    }
    default:
      throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
  }
}
