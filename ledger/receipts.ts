import { createPublicKey, verify } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileWhole } from './whole-file.js';

// The upstream's receipts (upstream/receipts.ts, whose statement this repeats: the kiosk may not
// import the service's code): each acknowledgement carries the service's Ed25519 signature over
// the head it now holds of this terminal. The kiosk keeps the newest beside its ledger, and every
// verification (the start, `etg ledger verify`) checks the journal against it: the journal must
// reach that entry with that hash. A receipt is the casino's word, signed by a key nobody on the
// cabinet holds, for what its copy of the journal reached.

export const RECEIPT_FILE = 'upstream-receipt.json';

export const Receipt = z.strictObject({
  seq: z.number().int().nonnegative(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  at: z.iso.datetime({ offset: true }),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .max(200),
});
export type Receipt = z.infer<typeof Receipt>;

export function receiptStatement(terminal: string, seq: number, hash: string, at: string): string {
  return `macau-etg-upstream receipt v1\n${terminal}\n${seq}\n${hash}\n${at}`;
}

/** Whether `receipt` carries the upstream's signature (its key: DER, base64) for `terminal`; never throws. */
export function receiptSigned(publicKey: string, terminal: string, receipt: Receipt): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    const sig = Buffer.from(receipt.signature, 'base64');
    return sig.length === 64 && verify(null, Buffer.from(receiptStatement(terminal, receipt.seq, receipt.hash, receipt.at), 'utf8'), key, sig);
  } catch {
    return false;
  }
}

/** The newest receipt kept in a data folder, or null (none kept; or a file that is not one, which `receiptProblems` names). */
export function readReceipt(dataDir: string): Receipt | null {
  const file = path.join(dataDir, RECEIPT_FILE);
  if (!existsSync(file)) return null;
  return Receipt.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/**
 * Keeps `receipt` as the newest (written whole, flushed and renamed, owner-only): unflushed, a power
 * cut after the rename could leave the name on an empty file, and the next start refuse it.
 */
export function keepReceipt(dataDir: string, receipt: Receipt): void {
  const file = path.join(dataDir, RECEIPT_FILE);
  writeFileWhole(file, `${JSON.stringify(receipt)}\n`);
}

/**
 * The journal against a receipt of the upstream: the receipt must carry the upstream's signature,
 * and the journal reach its entry with its hash. `source` says where the receipt came from (kept
 * here, or asked of the upstream just now). `hashAt`: the journal's hash of an entry.
 */
export function receiptProblems(
  terminal: string,
  head: { seq: number; hash: string },
  receipt: Receipt,
  publicKey: string,
  source: string,
  hashAt: (seq: number) => string | undefined,
): { problems: string[]; checked: string } {
  const checked = `the journal against the upstream's receipt (${source}): entry ${receipt.seq} at ${receipt.at}`;
  if (!receiptSigned(publicKey, terminal, receipt))
    return { problems: [`upstream receipt (${source}): its signature does not verify with the upstream's key`], checked };
  if (head.seq < receipt.seq) {
    return {
      problems: [
        `upstream receipt (${source}): the journal ends at entry ${head.seq}, but the upstream acknowledged entry ${receipt.seq} at ${receipt.at}: entries it holds are gone here`,
      ],
      checked,
    };
  }
  if (receipt.seq > 0 && hashAt(receipt.seq) !== receipt.hash) {
    return {
      problems: [
        `upstream receipt (${source}): entry ${receipt.seq} of the journal is not the one the upstream acknowledged at ${receipt.at}: the journal was rewritten`,
      ],
      checked,
    };
  }
  return { problems: [], checked };
}
