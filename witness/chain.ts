import { hash } from 'node:crypto';

// The chain as the kiosk ledger defines it (ledger/canonical.ts), repeated here because the witness
// stands alone: it takes nothing of the kiosk's code, only the two lines that define a link.

export const HEX64 = /^[0-9a-f]{64}$/;

/** `hash = SHA-256(prev_hash_bytes ‖ content_hash_bytes)`, hex. */
export function chainHash(prevHashHex: string, contentHashHex: string): string {
  return hash('sha256', Buffer.concat([Buffer.from(prevHashHex, 'hex'), Buffer.from(contentHashHex, 'hex')]), 'hex');
}

/** Each terminal's chain starts from its own genesis. */
export function genesisHash(terminalId: string): string {
  return hash('sha256', `macau-etg-ledger genesis ${terminalId}`, 'hex');
}
