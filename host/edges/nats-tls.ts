import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PeerCertificate } from 'node:tls';
import type { TlsOptions } from 'nats';
import { tableCertificate } from '../stadium/table-certificate.js';

/**
 * The NATS server's certificate as its clients pin it (issue 55, docs/security.md, *Edges on
 * NATS*): the certificate itself is their only trust anchor, and its SHA-256 must be this one.
 */
export interface NatsPin {
  readonly cert: string;
  readonly fingerprint: string;
}

/** The NATS server's TLS identity: its key and certificate as files, for the server's `tls` block. */
export interface NatsCertificate extends NatsPin {
  readonly certFile: string;
  readonly keyFile: string;
}

/**
 * The table's NATS server certificate, made once (P-256, as the table's own: `tableCertificate`)
 * in `<edgesDir>/tls/` (`table-key.pem` owner-only, `table-cert.pem`), the folder the host keeps
 * its edges' passwords in. The certificate is what each edge's configuration names
 * (`nats.certificateFile`): a copy of `table-cert.pem` carried to the edge's machine.
 */
export async function natsCertificate(edgesDir: string, addresses: readonly string[]): Promise<NatsCertificate> {
  const c = await tableCertificate(edgesDir, 'etg-nats', addresses);
  return {
    cert: c.cert,
    fingerprint: c.fingerprint,
    certFile: path.join(edgesDir, 'tls', 'table-cert.pem'),
    keyFile: path.join(edgesDir, 'tls', 'table-key.pem'),
  };
}

/** A pin read from a certificate file (an edge's `nats.certificateFile`). */
export function readNatsPin(certFile: string): NatsPin {
  const cert = readFileSync(certFile, 'utf8');
  return { cert, fingerprint: new X509Certificate(cert).fingerprint256 };
}

/**
 * The `tls` option of a NATS connection (host or edge) that trusts only the pinned certificate.
 * The nats client hands every key of it to Node's `tls.connect`, so `checkServerIdentity` replaces
 * the host-name check with the fingerprint's: the server may be reached at any address (a proxy,
 * a LAN address not in the certificate), never with another certificate. The server name sent is
 * a fixed word: an IP address there is refused by RFC 6066 and warned about by Node.
 */
export function natsTls(pin: NatsPin): TlsOptions {
  const options = {
    ca: pin.cert,
    servername: 'etg-nats',
    checkServerIdentity: (_host: string, cert: PeerCertificate) =>
      cert.fingerprint256 === pin.fingerprint ? undefined : new Error(`the NATS server's certificate is not the one pinned (${cert.fingerprint256})`),
  };
  return options;
}
