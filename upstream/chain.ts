import { createHash } from 'node:crypto';

// The chain as the kiosk ledger defines it (ledger/canonical.ts), repeated here because the
// service may not import kiosk code; docs/upstream.md states it as the wire contract.

export function sha256Hex(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}

export function chainHash(prevHashHex: string, contentHashHex: string): string {
  return createHash('sha256').update(Buffer.from(prevHashHex, 'hex')).update(Buffer.from(contentHashHex, 'hex')).digest('hex');
}

export function genesisHash(terminalId: string): string {
  return sha256Hex(`macau-etg-ledger genesis ${terminalId}`);
}

export const HEX64 = /^[0-9a-f]{64}$/;
