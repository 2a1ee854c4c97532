import { Agent } from 'node:https';
import type { PeerCertificate } from 'node:tls';
import WebSocket from 'ws';
import { MAX_HOST_MESSAGE_BYTES, MAX_MESSAGE_BYTES } from '../../protocol/index.js';
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

/** How long a link's opening (TCP, TLS, the WebSocket upgrade) may take before it is given up and dialled again. */
export const HANDSHAKE_MS = 10_000;

/**
 * The largest frame the agent takes from a table, per link: past it ws closes the link (1009)
 * before buffering it. A device link's messages are a few KiB (bytes of one chunk, a welcome); a
 * screen's host messages are at most the protocol's MAX_HOST_MESSAGE_BYTES (1 MiB: a recall, a road
 * map), so the cap is twice that (a review: it equalled it, no room). ws's default was 100 MiB, and
 * the table relay turns a frame into a string before its flood check: a hostile table the station
 * joined cost the agent hundreds of MB a frame.
 */
export const MAX_TABLE_FRAME = { '/ws': 2 * MAX_HOST_MESSAGE_BYTES, '/station-device': 4 * MAX_MESSAGE_BYTES } as const;

/**
 * A WebSocket to the table's LAN listener over the pinned TLS settings. `handshakeMs` (default
 * HANDSHAKE_MS) is this end's patience only: the table's checks (the pinned certificate, the hello
 * and its deadline at the table) are the same whatever it is. The stadium bench's load generator
 * waits longer while it sets up thousands of stations at once on a loaded machine (docs/stadium.md).
 */
export function pinnedSocket(enrolment: EnrolmentFile, agent: Agent, path: '/ws' | '/station-device', o: { handshakeMs?: number } = {}): WebSocket {
  const url = new URL(path, enrolment.host);
  url.protocol = 'wss:';
  return new WebSocket(url, { agent, handshakeTimeout: o.handshakeMs ?? HANDSHAKE_MS, perMessageDeflate: false, maxPayload: MAX_TABLE_FRAME[path] });
}
