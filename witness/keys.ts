import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { sealedKeyExists, sealNewKey, unsealKey, type TpmOptions } from './tpm.js';

/** The witness's signing key: the private half never leaves the witness's process. */
export interface WitnessKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Where the private key lives at rest. */
  store: 'tpm' | 'file';
}

export type KeySource =
  /** A key file only the witness (root, or the witness's user through systemd's LoadCredential) can read. */
  | { kind: 'file'; file: string }
  /** Sealed in a TPM 2.0: made and sealed at the first start, unsealed at every start. */
  | ({ kind: 'tpm' } & TpmOptions);

export class KeyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyFileError';
  }
}

/** Writes a new Ed25519 key (PKCS#8 PEM) to `file`, owner-only; refuses to replace one. */
export function writeNewKeyFile(file: string): KeyObject {
  const { privateKey } = generateKeyPairSync('ed25519');
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new KeyFileError(`${file} exists: the witness's key is never replaced by this command`);
    throw e;
  }
  try {
    writeSync(fd, privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return privateKey;
}

/**
 * The key from a file: Ed25519, PKCS#8 PEM, readable by its owner only (a key others can read is
 * refused: whoever reads it can sign as the witness).
 */
export function readKeyFile(file: string): KeyObject {
  if (!existsSync(file)) throw new KeyFileError(`no witness key at ${file} (make one with: etg witness keygen --out ${file})`);
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0) throw new KeyFileError(`${file} is readable by others (mode ${mode.toString(8)}): chmod 600 it, and make a new key if it leaked`);
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file));
  } catch (e) {
    // OpenSSL's words alone ("DECODER routines::unsupported") named no file.
    throw new KeyFileError(
      `${file} is not a private key in PEM (${e instanceof Error ? e.message : String(e)}): restore the witness's key file from where it is kept`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new KeyFileError(`${file} holds a ${String(key.asymmetricKeyType)} key, not ed25519`);
  return key;
}

/** The witness's key from its source; a TPM without a sealed key yet gets a new one sealed. */
export function loadKey(source: KeySource): WitnessKey {
  if (source.kind === 'file') {
    const privateKey = readKeyFile(source.file);
    return { privateKey, publicKey: createPublicKey(privateKey), store: 'file' };
  }
  const privateKey = sealedKeyExists(source.dir) ? unsealKey(source) : sealNewKey(source);
  return { privateKey, publicKey: createPublicKey(privateKey), store: 'tpm' };
}
