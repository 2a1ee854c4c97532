import { Agent } from 'node:https';
import type { PeerCertificate } from 'node:tls';
import WebSocket from 'ws';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';

/**
 * The TLS settings of every link to the table: the table's own certificate from the enrolment is
 * the only trust anchor, and its SHA-256 must be the fingerprint pinned at enrolment (the address
 * may be anything the LAN gives it).
 */
export function pinnedAgent(enrolment: EnrolmentFile): Agent {
  return new Agent({
    ca: enrolment.certificate,
    checkServerIdentity: (_host: string, cert: PeerCertificate) =>
      cert.fingerprint256 === enrolment.fingerprint ? undefined : new Error(`the table's certificate is not the one enrolled (${cert.fingerprint256})`),
    keepAlive: false,
  });
}

/** A WebSocket to the table's LAN listener over the pinned TLS settings. */
export function pinnedSocket(enrolment: EnrolmentFile, agent: Agent, path: '/ws' | '/station-device'): WebSocket {
  const url = new URL(path, enrolment.host);
  url.protocol = 'wss:';
  return new WebSocket(url, { agent, handshakeTimeout: 10_000, perMessageDeflate: false });
}
