import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';

/** The table's TLS identity for its remote stations: a key and a self-signed certificate the enrolment pins. */
export interface TableCertificate {
  /** PEM of the private key (PKCS #8); never leaves the host's data folder. */
  readonly key: string;
  readonly cert: string;
  /** SHA-256 of the certificate (colon-separated hex, as Node's X509Certificate gives it): what a station pins. */
  readonly fingerprint: string;
}

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
}

/**
 * The table's certificate as its data folder holds it (made at the first start with a LAN
 * listener), or null when either file is missing (a first start, or one cut between the two
 * writes). A pair that does not read, or a key that is not the certificate's, is refused naming
 * both files: OpenSSL's words name none, and making a new pair in its place would cut every
 * remote station and peer table that pins this one.
 */
export function readTableCertificate(dataDir: string): TableCertificate | null {
  const keyFile = path.join(dataDir, 'tls', 'table-key.pem');
  const certFile = path.join(dataDir, 'tls', 'table-cert.pem');
  if (!existsSync(keyFile) || !existsSync(certFile)) return null;
  const cert = readFileSync(certFile, 'utf8');
  const key = readFileSync(keyFile, 'utf8');
  try {
    const x = new X509Certificate(cert);
    if (!x.checkPrivateKey(createPrivateKey(key))) throw new Error('the key is not the certificate’s');
    return { key, cert, fingerprint: x.fingerprint256 };
  } catch (e) {
    throw new Error(
      `the table's TLS key ${keyFile} and certificate ${certFile} do not read as a pair (${e instanceof Error ? e.message : String(e)}): restore the tls folder from the data folder's backup. Only if none is left, remove both files to make a new pair at the next start: every remote station and peer table must then be enrolled again (they pin the old certificate)`,
      { cause: e },
    );
  }
}

/**
 * The table's certificate, made once (P-256, ten years) and kept beside the ledger in `tls/`
 * (the key owner-only). It names the table and the LAN address the host listens on; a remote
 * station does not rely on a certificate authority: it pins this certificate's fingerprint,
 * given to it at enrolment, and refuses any other.
 */
export async function tableCertificate(dataDir: string, tableId: string, addresses: readonly string[]): Promise<TableCertificate> {
  const dir = path.join(dataDir, 'tls');
  const keyFile = path.join(dir, 'table-key.pem');
  const certFile = path.join(dir, 'table-cert.pem');
  const found = readTableCertificate(dataDir);
  if (found) return found;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Loaded here, on the one start that makes the pair, not with every module that reaches this one
  // (the host's start, the command line, a test): its asn1 schemas cost ~0.1 s of CPU to load
  // (docs/testing.md, 8 December). Still a runtime package of the host (HOST_RUNTIME_PACKAGES).
  const x509 = await import('@peculiar/x509');
  // Node's Web Crypto (globalThis.crypto), as the library expects it.
  const webcrypto = globalThis.crypto;
  x509.cryptoProvider.set(webcrypto);
  const keys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
  const now = new Date();
  const generated = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex'),
    name: `CN=${tableId}`,
    notBefore: now,
    notAfter: new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000),
    signingAlgorithm: ALG,
    keys,
    extensions: [
      new x509.SubjectAlternativeNameExtension(
        [...new Set(['127.0.0.1', ...addresses])].map((a) => (isIP(a) !== 0 ? { type: 'ip' as const, value: a } : { type: 'dns' as const, value: a })),
      ),
    ],
  });
  const key = pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const cert = generated.toString('pem');
  for (const [file, text, mode] of [
    [keyFile, key, 0o600],
    [certFile, cert, 0o644],
  ] as const) {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode, flush: true });
    renameSync(tmp, file);
  }
  return { key, cert, fingerprint: new X509Certificate(cert).fingerprint256 };
}
