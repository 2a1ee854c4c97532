import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

// What the witness signs, word for word. The ledger (ledger/witness-link.ts) checks these
// signatures with the witness's public key, so the text of each statement is defined here once and
// imported by both sides. Ed25519 (node:crypto): deterministic, 64-byte signatures, 32-byte keys.

/** A head the witness has seen the terminal's journal reach: entry `seq` with hash `hash`, at `at`. */
export interface HeadClaim {
  terminal: string;
  seq: number;
  hash: string;
  /** When the witness signed it (its own clock, ISO 8601 UTC). */
  at: string;
}

export function headStatement(h: HeadClaim): string {
  return `macau-etg-witness head v1\n${h.terminal}\n${h.seq}\n${h.hash}\n${h.at}`;
}

/**
 * A checkpoint of the terminal's ledger (ledger/checkpoint.ts): the state after entry `seq`, whose
 * exact bytes hash to `stateSha256`. The witness signs one only at a head it witnessed, and only
 * when the state holds the effects it folded itself from the entries' bodies (v2; a v1 signature
 * was given to any state at its head, and is believed by nobody now).
 */
export function checkpointStatement(terminal: string, seq: number, hash: string, stateSha256: string): string {
  return `macau-etg-witness checkpoint v2\n${terminal}\n${seq}\n${hash}\n${stateSha256}`;
}

/** Ed25519 over the statement's UTF-8 bytes, base64. */
export function signStatement(privateKey: KeyObject, statement: string): string {
  return sign(null, Buffer.from(statement, 'utf8'), privateKey).toString('base64');
}

/** Whether `signature` (base64) is the key's signature of the statement; never throws. */
export function statementSigned(publicKey: KeyObject, statement: string, signature: string): boolean {
  try {
    const sig = Buffer.from(signature, 'base64');
    return sig.length === 64 && verify(null, Buffer.from(statement, 'utf8'), publicKey, sig);
  } catch {
    return false;
  }
}

/** The public key as it crosses the socket: DER (SubjectPublicKeyInfo), base64. */
export function exportPublicKey(key: KeyObject): string {
  return publicOf(key).export({ format: 'der', type: 'spki' }).toString('base64');
}

function publicOf(key: KeyObject): KeyObject {
  return key.type === 'public' ? key : createPublicKey(key);
}

/** A public key from its base64 DER; throws on anything that is not an Ed25519 key. */
export function importPublicKey(base64: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the witness's key is ${String(key.asymmetricKeyType)}, not ed25519`);
  return key;
}

/** A short name of a public key (the first 16 hex digits of SHA-256 over its DER), for logs and reports. */
export function keyIdOf(key: KeyObject): string {
  return createHash('sha256')
    .update(publicOf(key).export({ format: 'der', type: 'spki' }))
    .digest('hex')
    .slice(0, 16);
}
