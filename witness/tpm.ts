import { execFileSync } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { syncPath } from './sync-path.js';

// The witness's key sealed in a TPM 2.0, through Debian's tpm2-tools (tpm2_createprimary,
// tpm2_create, tpm2_load, tpm2_unseal). The private key (PKCS#8 DER, 48 bytes) is generated here,
// handed to tpm2_create on its standard input and sealed under the owner hierarchy's primary
// key, which the TPM derives again from its own seed at every use: the blob kept on disk
// (`witness.sealed.pub`, `witness.sealed.priv`) opens on this TPM only, and with `pcrs` only while
// those PCRs hold what they held at sealing (the boot chain). The plaintext never touches a file:
// tpm2_unseal writes it to our pipe. docs/security.md, "The ledger witness", says what this does
// and does not defend against.

export interface TpmOptions {
  /** The witness's folder: the sealed blob lives there. */
  dir: string;
  /**
   * The TPM Command Transmission Interface, as tpm2-tools takes it (TPM2TOOLS_TCTI): `device:/dev/tpmrm0`
   * on a cabinet (the kernel's resource manager), `swtpm:host=127.0.0.1,port=N` for Debian's swtpm
   * in tests. Default: tpm2-tools' own search.
   */
  tcti?: string;
  /** Bind the seal to these PCRs (`sha256:7` or `sha256:0,2,4,7`): unsealing then needs the same values. */
  pcrs?: string;
}

export const SEALED_PUB = 'witness.sealed.pub';
export const SEALED_PRIV = 'witness.sealed.priv';

export class TpmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TpmError';
  }
}

function tools(o: TpmOptions, work: string) {
  const env = { ...process.env, ...(o.tcti ? { TPM2TOOLS_TCTI: o.tcti } : {}) };
  const run = (cmd: string, args: string[], input?: Buffer): Buffer => {
    try {
      return execFileSync(cmd, args, { env, cwd: work, input, stdio: ['pipe', 'pipe', 'pipe'], timeout: 30_000 });
    } catch (e) {
      const err = e as { stderr?: Buffer; code?: string; message: string };
      if (err.code === 'ENOENT') throw new TpmError(`${cmd} is missing (Debian package tpm2-tools)`);
      throw new TpmError(`${cmd} failed: ${err.stderr?.toString().trim().split('\n').slice(-2).join(' ') || err.message}`);
    }
  };
  // Without the kernel's resource manager (swtpm, /dev/tpm0) transient objects stay loaded until
  // flushed, and a TPM holds only a few: every step flushes what it loaded.
  const flush = () => {
    try {
      run('tpm2_flushcontext', ['-t']);
      run('tpm2_flushcontext', ['-s']);
    } catch {
      /* nothing to flush */
    }
  };
  const primary = () => {
    run('tpm2_createprimary', ['-Q', '-C', 'o', '-G', 'ecc', '-c', 'primary.ctx']);
    flush();
  };
  return { run, flush, primary };
}

/**
 * A work folder for tpm2-tools' context files, inside the witness's own folder: the sealed blob is
 * renamed from it into place, and a rename works within one file system only (under systemd's
 * PrivateTmp the temp folder is another mount: EXDEV). Removed after; one a crash left is in the way of nothing.
 */
function withWork<T>(dir: string, fn: (work: string) => T): T {
  const work = mkdtempSync(path.join(dir, '.tpm-work-'));
  try {
    return fn(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function sealedKeyExists(dir: string): boolean {
  return existsSync(path.join(dir, SEALED_PUB)) && existsSync(path.join(dir, SEALED_PRIV));
}

/** A new Ed25519 key, sealed in the TPM; its blob written to `o.dir`. Refuses to replace one. */
export function sealNewKey(o: TpmOptions): KeyObject {
  if (sealedKeyExists(o.dir)) throw new TpmError(`${o.dir} already holds a sealed witness key`);
  const { privateKey } = generateKeyPairSync('ed25519');
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  withWork(o.dir, (work) => {
    const t = tools(o, work);
    t.flush();
    t.primary();
    const attributes = o.pcrs ? 'fixedtpm|fixedparent|noda' : 'fixedtpm|fixedparent|noda|userwithauth';
    const policy: string[] = [];
    if (o.pcrs) {
      t.run('tpm2_startauthsession', ['-S', 'session.ctx']);
      t.run('tpm2_policypcr', ['-Q', '-S', 'session.ctx', '-l', o.pcrs, '-L', 'pcr.policy']);
      t.flush();
      policy.push('-L', 'pcr.policy');
    }
    t.run('tpm2_create', ['-Q', '-C', 'primary.ctx', ...policy, '-a', attributes, '-i', '-', '-u', 'sealed.pub', '-r', 'sealed.priv'], der);
    t.flush();
    // Moved into place only once sealed and on disk, the folder flushed after: a half-made blob
    // never stands as the key, nor does an empty one a power cut left of a rename not yet written
    // (the witness could not start again, and its key is lost: the documented recovery).
    for (const f of ['sealed.pub', 'sealed.priv']) syncPath(path.join(work, f));
    renameSync(path.join(work, 'sealed.pub'), path.join(o.dir, SEALED_PUB));
    renameSync(path.join(work, 'sealed.priv'), path.join(o.dir, SEALED_PRIV));
    syncPath(o.dir);
  });
  der.fill(0);
  // Unsealed again at once: a key this TPM cannot give back is no key.
  return unsealKey(o);
}

/** The sealed key, unsealed by the TPM (into this process's memory only). */
export function unsealKey(o: TpmOptions): KeyObject {
  if (!sealedKeyExists(o.dir)) throw new TpmError(`${o.dir} holds no sealed witness key`);
  return withWork(o.dir, (work) => {
    const t = tools(o, work);
    t.flush();
    t.primary();
    t.run('tpm2_load', ['-Q', '-C', 'primary.ctx', '-u', path.join(o.dir, SEALED_PUB), '-r', path.join(o.dir, SEALED_PRIV), '-c', 'sealed.ctx']);
    t.flush();
    let der: Buffer;
    try {
      der = t.run('tpm2_unseal', ['-c', 'sealed.ctx', ...(o.pcrs ? ['-p', `pcr:${o.pcrs}`] : [])]);
    } finally {
      t.flush();
    }
    const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    der.fill(0);
    if (key.asymmetricKeyType !== 'ed25519') throw new TpmError('the sealed key is not an Ed25519 key');
    return key;
  });
}
