import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { Sql } from './sql.js';

// The upstream as the kiosk's remote witness (issue 29): every acknowledgement carries its
// signature over the head it now holds of the terminal, so the kiosk keeps a proof, signed by a
// key nobody on the cabinet holds, of what the casino's copy of its journal reached. The statement
// (the kiosk's copy is ledger/receipts.ts, which checks it; tests/sync/upstream-receipts.test.ts
// holds the two together):
//   Ed25519 over "macau-etg-upstream receipt v1\n" TERMINAL "\n" SEQ "\n" HASH "\n" AT
// The key is the service's own, made at its first start and kept in its database (`receipt_keys`,
// migration 4): whoever administers that database can sign receipts, nobody on a cabinet can.

export interface Receipt {
  seq: number;
  hash: string;
  /** When the service signed it (ISO 8601 UTC). */
  at: string;
  /** Ed25519, base64. */
  signature: string;
}

export function receiptStatement(terminal: string, seq: number, hash: string, at: string): string {
  return `macau-etg-upstream receipt v1\n${terminal}\n${seq}\n${hash}\n${at}`;
}

export class ReceiptSigner {
  private constructor(
    private readonly privateKey: KeyObject,
    /** DER (SubjectPublicKeyInfo), base64: what the kiosk checks receipts with. */
    readonly publicKey: string,
    readonly keyId: string,
  ) {}

  /** The service's receipt key, made (once, whatever instances start together) when there is none. */
  static async load(db: Sql): Promise<ReceiptSigner> {
    const read = async () => (await db.query<{ private_key: string }>('SELECT private_key FROM receipt_keys WHERE id = 1')).rows[0]?.private_key;
    let pem = await read();
    if (!pem) {
      const { privateKey } = generateKeyPairSync('ed25519');
      await db.query('INSERT INTO receipt_keys (id, private_key) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [
        privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      ]);
      pem = await read();
    }
    if (!pem) throw new Error('the receipt key could not be stored');
    const privateKey = createPrivateKey(pem);
    const der = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    return new ReceiptSigner(privateKey, der.toString('base64'), createHash('sha256').update(der).digest('hex').slice(0, 16));
  }

  /**
   * A back-office configuration order for `terminal` (upstream/backoffice/config-requests.ts),
   * signed with the same key; the table checks it in host/floor/remote-config.ts:
   *   Ed25519 over "macau-etg-upstream config order v1\n" TERMINAL "\n" ORDER-TEXT
   */
  signOrder(terminal: string, order: string): string {
    return sign(null, Buffer.from(`macau-etg-upstream config order v1\n${terminal}\n${order}`, 'utf8'), this.privateKey).toString('base64');
  }

  sign(terminal: string, seq: number, hash: string, at = new Date().toISOString()): Receipt {
    const signature = sign(null, Buffer.from(receiptStatement(terminal, seq, hash, at), 'utf8'), this.privateKey).toString('base64');
    return { seq, hash, at, signature };
  }
}
