import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';

/**
 * A remote station's proof of its secret on a fresh nonce (issue 55's edges), so the secret never
 * leaves the station's machine when it connects through an edge: the edge relays the proof, and a
 * proof is good for its one nonce only, so an edge learns nothing that lets it be the station later.
 *
 * The proof is an Ed25519 signature (RFC 8032) by a key pair derived from the secret: its seed is
 * SHA-256 of this file's context and the secret, which is not the SHA-256 of the secret the host
 * keeps (docs/stadium.md), so neither the host's registry nor what the host publishes lets anyone
 * sign. The host keeps the public key from the enrolment (when it had the secret in hand) and
 * publishes it to the edges: an edge can check a proof, never make one. What is signed names the
 * table, the station and the nonce, which the host issued to one edge for one station, once.
 */
const CONTEXT = 'etg-station-proof/1';

// DER prefixes of an Ed25519 private key (PKCS #8, RFC 8410 §7) and public key (SPKI, RFC 8410 §4) around the 32 raw bytes.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

function privateKeyOf(secret: string): KeyObject {
  const seed = createHash('sha256').update(`${CONTEXT}\n${secret}`, 'utf8').digest();
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
}

/** The station's public proof key, base64url of its 32 raw bytes (what the host keeps and publishes). */
export function proofKeyOf(secret: string): string {
  const der = createPublicKey(privateKeyOf(secret)).export({ format: 'der', type: 'spki' });
  return der.subarray(SPKI_ED25519.length).toString('base64url');
}

function signed(tableId: string, station: number, nonce: string): Buffer {
  return Buffer.from(`${CONTEXT}\n${tableId}\n${station}\n${nonce}`, 'utf8');
}

/** The station's proof on `nonce` (base64url of the 64-byte signature). */
export function proveStation(secret: string, tableId: string, station: number, nonce: string): string {
  return sign(null, signed(tableId, station, nonce), privateKeyOf(secret)).toString('base64url');
}

/** Whether `proof` is the station's, by its public key, on exactly this table, station and nonce. */
export function checkStationProof(proofKey: string, tableId: string, station: number, nonce: string, proof: string): boolean {
  const raw = Buffer.from(proofKey, 'base64url');
  const sig = Buffer.from(proof, 'base64url');
  if (raw.length !== 32 || sig.length !== 64) return false;
  try {
    const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519, raw]), format: 'der', type: 'spki' });
    return verify(null, signed(tableId, station, nonce), key, sig);
  } catch {
    return false;
  }
}

/** A fresh nonce: 144 random bits, base64url (24 characters). */
export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

export const PROOF_KEY = /^[A-Za-z0-9_-]{43}$/;
export const PROOF = /^[A-Za-z0-9_-]{86}$/;
export const NONCE = /^[A-Za-z0-9_-]{24}$/;
