import { createHash } from 'node:crypto';

/** A JSON value the ledger can hash: no floats, no undefined, no non-finite numbers. */
export type Canonical = string | number | boolean | null | Canonical[] | { [key: string]: Canonical };

/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, numbers only as safe
 * integers (money is minor units; a float in a journal body is a bug, and refusing it keeps the
 * encoding unambiguous across languages), `undefined` members dropped. The same value always
 * gives the same bytes, which is what the hash chain needs.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) throw new TypeError(`canonical JSON holds safe integers only, got ${value}`);
      return Object.is(value, -0) ? '0' : String(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
  }
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The chain link: `hash = SHA-256(prev_hash_bytes ‖ SHA-256(body_utf8))`, hex. Hashing the body
 * first lets an evidence bundle prove a stretch of chain with content hashes alone, without
 * disclosing the bodies of other players' entries.
 */
export function chainHash(prevHashHex: string, contentHashHex: string): string {
  return createHash('sha256').update(Buffer.from(prevHashHex, 'hex')).update(Buffer.from(contentHashHex, 'hex')).digest('hex');
}

/** Each terminal's chain starts from its own genesis, so two terminals' streams never splice. */
export function genesisHash(terminalId: string): string {
  return sha256Hex(`macau-etg-ledger genesis ${terminalId}`);
}
