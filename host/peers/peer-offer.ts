import { createHash, sign, verify, X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { TableId } from '../../terms/transfer-terms.js';
import type { TableCertificate } from '../stadium/table-certificate.js';
import { PeerEnrolment } from './peer-config.js';

/**
 * A table's enrolment file for one named peer (issue 50 item 4): what the peer's `peer-add` takes.
 * It carries this table's identity (its table id, its ledger's terminal id, its certificate and
 * that certificate's SHA-256, which the peer will pin), its LAN address, and a fresh credential
 * the peer dials this table with (the secret, kept here only as its SHA-256). It is signed with
 * the table's own TLS key (`tls/table-key.pem`), so the receiving table checks that the file was
 * made by the holder of the certificate it pins and was not changed since; it names the one table
 * it was made for, has a deadline, and carries an id the receiver journals, so it is enrolled once.
 *
 * What the signature cannot tell: that the certificate is the real table's. A file made by someone
 * with a key and a certificate of their own naming table A is self-consistent; the second person
 * compares the fingerprint the confirmation shows with the one table A's service screen shows
 * (docs/security.md). That is the station enrolment's trust, carried by hand on a USB key.
 */
export const PEER_OFFER_KIND = 'macau-etg-peer-enrolment';

/** How long a file may wait between its making and its enrolment at the peer (24 hours unless asked). */
export const PEER_OFFER_VALID_MS = 24 * 3600_000;

/** A clock at the peer up to this far behind the maker's still takes a fresh file. */
const CLOCK_SKEW_MS = 5 * 60_000;

export const PeerOffer = z.strictObject({
  kind: z.literal(PEER_OFFER_KIND),
  v: z.literal(2),
  /** The table that made the file (the peer to enrol), and the ledger terminal it journals as. */
  table: TableId,
  terminal: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/),
  /** The one table this file is for: any other refuses it. */
  for: TableId,
  url: PeerEnrolment.shape.url,
  certificate: PeerEnrolment.shape.certificate,
  fingerprint: PeerEnrolment.shape.fingerprint,
  secret: PeerEnrolment.shape.secret,
  /** The credential's id: journalled by the maker (`issue`) and by the receiver (`enrol`), which takes an id once. */
  credential: z.string().regex(/^[0-9a-f]{32}$/),
  issuedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  /** ECDSA P-256 / SHA-256 over `signedText`, with the key of `certificate`, base64 (DER). */
  signature: z.string().regex(/^[A-Za-z0-9+/]{40,200}={0,2}$/),
});
export type PeerOffer = z.infer<typeof PeerOffer>;

/** What the signature covers: every field but the signature, one a line, in this order (none can hold a newline). */
function signedText(o: Omit<PeerOffer, 'signature'>): Buffer {
  const cert = createHash('sha256').update(o.certificate, 'utf8').digest('hex');
  return Buffer.from(
    [`${o.kind} v${o.v}`, o.table, o.terminal, o.for, o.url, o.fingerprint, cert, o.secret, o.credential, o.issuedAt, o.expiresAt].join('\n'),
    'utf8',
  );
}

export interface OfferMaking {
  readonly table: TableId;
  readonly terminal: string;
  readonly for: TableId;
  readonly url: string;
  readonly certificate: TableCertificate;
  readonly secret: string;
  readonly credential: string;
  readonly issuedAt: Date;
  readonly validMs?: number;
}

/** The enrolment file's text, signed with the table's key. */
export function makePeerOffer(m: OfferMaking): string {
  const body: Omit<PeerOffer, 'signature'> = {
    kind: PEER_OFFER_KIND,
    v: 2,
    table: m.table,
    terminal: m.terminal,
    for: m.for,
    url: m.url,
    certificate: m.certificate.cert,
    fingerprint: m.certificate.fingerprint,
    secret: m.secret,
    credential: m.credential,
    issuedAt: m.issuedAt.toISOString(),
    expiresAt: new Date(m.issuedAt.getTime() + (m.validMs ?? PEER_OFFER_VALID_MS)).toISOString(),
  };
  const signature = sign('sha256', signedText(body), m.certificate.key).toString('base64');
  return JSON.stringify(PeerOffer.parse({ ...body, signature }), null, 1);
}

/** Why a file is refused; each is worded for the person at the screen (locales: `service.peers.fileRefused.*`). */
export const OFFER_REFUSALS = [
  'not-a-file',
  'certificate',
  'signature',
  'not-for-us',
  'is-self',
  'expired',
  'not-yet',
  'replayed',
  'superseded',
  'other-terminal-id',
  // Not the file's: journalled as enrolled, the peer files could not be written (a full disk).
  'unwritten',
  // Not the file's: a remote station given is already homed at another peer table; or the peers are at their most.
  'stations-elsewhere',
  'too-many-peers',
  // Not the file's: this table's own peers.json cannot be read; or the stations given are not a list the peers file takes.
  'peers-unreadable',
  'bad-stations',
  // Not the file's: the peers file with it would not be valid for another reason (the host's log says which).
  'peers-invalid',
] as const;
export type OfferRefusal = (typeof OFFER_REFUSALS)[number];

/** What the receiving table knows from its own journal: credential ids it enrolled, and each table's newest enrolled file. */
export interface OfferHistory {
  readonly enrolled: ReadonlySet<string>;
  readonly newest: ReadonlyMap<TableId, string>;
}

export type OfferCheck = { ok: true; offer: PeerOffer; enrolment: PeerEnrolment } | { ok: false; reason: OfferRefusal; detail: string };

const refused = (reason: OfferRefusal, detail: string): OfferCheck => ({ ok: false, reason, detail: `enrolment file refused (${reason}): ${detail}` });

/**
 * Checks an enrolment file as the table `self` receives it, at `now`. Refused: anything that is not
 * a signed file of this kind (an older unsigned file, a hand-written one); a certificate whose
 * SHA-256 is not the fingerprint given or that does not name the table; a signature that does not
 * verify with the certificate (any field changed after the making, or a file signed by another
 * key); a file made for another table or by this one; one past its deadline or dated ahead of this
 * clock; one whose id this table already enrolled (a replay), or older than the newest file of that
 * table enrolled here (an older file brought back after a newer one).
 */
export function checkPeerOffer(text: string, self: TableId, now: Date, history: OfferHistory): OfferCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refused('not-a-file', 'not JSON');
  }
  const parsed = PeerOffer.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refused('not-a-file', `not a signed peer enrolment file (${issue ? `${issue.path.join('.') || 'file'}: ${issue.message}` : 'invalid'})`);
  }
  const o = parsed.data;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(o.certificate);
  } catch {
    return refused('certificate', 'its certificate does not parse');
  }
  if (cert.fingerprint256 !== o.fingerprint) return refused('certificate', "the fingerprint is not its certificate's");
  if (cert.subject !== `CN=${o.table}`) return refused('certificate', `its certificate names ${cert.subject}, not ${o.table}`);
  const { signature, ...body } = o;
  let good: boolean;
  try {
    good = verify('sha256', signedText(body), cert.publicKey, Buffer.from(signature, 'base64'));
  } catch {
    good = false;
  }
  if (!good) return refused('signature', "its signature does not verify with its certificate: changed after it was made, or not made by that table's key");
  if (o.table === self) return refused('is-self', 'it was made by this table');
  if (o.for !== self) return refused('not-for-us', `it was made for ${o.for}, not ${self}`);
  const at = now.getTime();
  if (Date.parse(o.expiresAt) <= at) return refused('expired', `it expired at ${o.expiresAt}: ask ${o.table} for a new one`);
  if (Date.parse(o.issuedAt) > at + CLOCK_SKEW_MS) return refused('not-yet', `it is dated ${o.issuedAt}, ahead of this table's clock`);
  if (history.enrolled.has(o.credential)) return refused('replayed', `its credential ${o.credential} was enrolled here before`);
  const newest = history.newest.get(o.table);
  if (newest !== undefined && Date.parse(o.issuedAt) <= Date.parse(newest))
    return refused('superseded', `a newer file of ${o.table} (made ${newest}) was enrolled here`);
  return { ok: true, offer: o, enrolment: { table: o.table, url: o.url, certificate: o.certificate, fingerprint: o.fingerprint, secret: o.secret } };
}
