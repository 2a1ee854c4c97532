import { hash } from 'node:crypto';

export { type Canonical, canonicalJson } from '../engine/canonical-json.js';

export function sha256Hex(data: string | Uint8Array): string {
  // One-shot hash (no Hash object per call): the journal hashes two short strings per entry.
  return hash('sha256', data, 'hex');
}

/**
 * The chain link: `hash = SHA-256(prev_hash_bytes ‖ SHA-256(body_utf8))`, hex. Hashing the body
 * first lets an evidence bundle prove a stretch of chain with content hashes alone, without
 * disclosing the bodies of other players' entries.
 */
export function chainHash(prevHashHex: string, contentHashHex: string): string {
  // Each half decoded on its own, as the chain was always computed (a malformed half decodes alone).
  return hash('sha256', Buffer.concat([Buffer.from(prevHashHex, 'hex'), Buffer.from(contentHashHex, 'hex')]), 'hex');
}

/** Each terminal's chain starts from its own genesis, so two terminals' streams never splice. */
export function genesisHash(terminalId: string): string {
  return sha256Hex(`macau-etg-ledger genesis ${terminalId}`);
}
