import { createHash } from 'node:crypto';
import { entriesOfTypes, PAYLOADS, type EntryBody, type Ledger } from '../../ledger/index.js';
import type { TableId } from '../../terms/transfer-terms.js';
import type { PeerProblem } from '../../protocol/index.js';
import type { Peer } from './peer-config.js';
import type { OfferHistory } from './peer-offer.js';

/**
 * The peer tables in the data folder's files (`peers.json`: whom this host dials, the secret it
 * dials with, the stations homed there; `peer-credentials.json`: the secret each peer dials this
 * host with, hashed) checked against the journal's `peer.credential` entries (issue 50), as remote
 * stations' credentials are against `station.credential`: before, a peer added to both files with
 * a chosen secret while the host was stopped was welcomed at the next start and had credit
 * transferred to a station.
 */

/** What the two files say of the peers: each peer of `peers.json`, and the stored SHA-256 of each secret of `peer-credentials.json`. */
export interface PeerFiles {
  readonly peers: readonly Peer[];
  readonly theirs: ReadonlyMap<TableId, string>;
}

/**
 * The digest a peer is journalled as: SHA-256 over its table id, its address, its certificate's
 * fingerprint, the stations homed there, the SHA-256 of the secret it gave this host and the
 * stored SHA-256 of the secret this host gave it; `-` for a half the files do not hold (a peer
 * enrolled to dial in before its own enrolment file was added, or the other way round). Never a
 * secret: the journal goes upstream.
 */
export function peerDigest(table: TableId, peer: Peer | undefined, theirSecretSha256: string | null): string {
  const ours = peer ? createHash('sha256').update(peer.enrolment.secret, 'utf8').digest('hex') : '-';
  const stations = peer ? [...peer.stations].sort((a, b) => a - b).join(',') : '-';
  return createHash('sha256')
    .update(
      `macau-etg-peer v1\n${table}\n${peer?.enrolment.url ?? '-'}\n${peer?.enrolment.fingerprint ?? '-'}\n${stations}\n${ours}\n${theirSecretSha256 ?? '-'}`,
    )
    .digest('hex');
}

/** The digest of `table` as the files now hold it, or null when neither file names it. */
export function filesDigest(files: PeerFiles, table: TableId): string | null {
  const peer = files.peers.find((p) => p.enrolment.table === table);
  const theirs = files.theirs.get(table) ?? null;
  return peer || theirs ? peerDigest(table, peer, theirs) : null;
}

/** The digest in force per peer table as the journal leaves it (null: revoked), and whether any entry exists. */
export function journalledPeers(ledger: Ledger): { any: boolean; inForce: Map<TableId, string | null> } {
  const inForce = new Map<TableId, string | null>();
  let any = false;
  for (const e of entriesOfTypes(ledger, ['peer.credential'])) {
    any = true;
    const p = PAYLOADS['peer.credential'].parse((JSON.parse(e.body) as EntryBody).payload);
    // `none` names this table itself: it had no peer to adopt, which enrols nobody.
    if (p.action === 'none') continue;
    inForce.set(p.table, p.action === 'revoke' ? null : (p.digest ?? null));
  }
  return { any, inForce };
}

/**
 * A data folder whose journal has no `peer.credential` entry yet adopts its files once, as found
 * (one `adopt` entry per peer): a floor enrolled before this check, or by the floor set-up of the
 * tests. Only at start: files that appear while the host runs are never adopted. When the files
 * hold no peer then (or cannot be read: `files` null), it journals once that this table `self` has
 * none (`none`), so the adoption closes: before, it stayed open at every start of a table without
 * peers, and files planted in its folder months later were adopted as found and welcomed. Returns
 * whether it journalled.
 */
export function adoptPeers(ledger: Ledger, files: PeerFiles | null, self: TableId): boolean {
  if (journalledPeers(ledger).any) return false;
  const tables = files ? [...new Set([...files.peers.map((p) => p.enrolment.table), ...files.theirs.keys()])] : [];
  const found = tables.flatMap((table) => {
    const digest = files ? filesDigest(files, table) : null;
    return digest ? [{ type: 'peer.credential' as const, payload: { table, action: 'adopt' as const, by: ['adopted as found'], digest } }] : [];
  });
  if (found.length > 0) ledger.appendMany(found);
  else ledger.append({ type: 'peer.credential', payload: { table: self, action: 'none', by: ['no peers at start'] } });
  return true;
}

/**
 * Checks the files against the journal and returns the problem of each peer refused (its table id
 * → why): a peer in the files the journal does not know (or revoked), one whose digest is not the
 * one journalled, and one the journal has in force that the files no longer hold (removed behind
 * the journal's back: its open transfers would be stranded unseen).
 */
export function auditPeers(ledger: Ledger, files: PeerFiles): Map<TableId, string> {
  const problems = new Map<TableId, string>();
  for (const [t, kind] of peerProblems(ledger, files))
    problems.set(
      t,
      kind === 'not-enrolled'
        ? `peer table ${t}: in the data folder's files, not enrolled in the journal`
        : kind === 'missing'
          ? `peer table ${t}: enrolled in the journal, missing from the data folder's files`
          : `peer table ${t}: its address, certificate, stations or secrets are not the ones journalled`,
    );
  return problems;
}

/** The kind of each peer's problem (the service screen's Peers page words it): what auditPeers says. */
export function peerProblems(ledger: Ledger, files: PeerFiles): Map<TableId, Exclude<PeerProblem, 'unreadable'>> {
  const journal = journalledPeers(ledger);
  const problems = new Map<TableId, Exclude<PeerProblem, 'unreadable'>>();
  const tables = new Set<TableId>([...files.peers.map((p) => p.enrolment.table), ...files.theirs.keys(), ...journal.inForce.keys()]);
  for (const t of tables) {
    const journalled = journal.inForce.get(t) ?? null;
    const now = filesDigest(files, t);
    if (journalled === now) continue;
    problems.set(t, journalled === null ? 'not-enrolled' : now === null ? 'missing' : 'changed');
  }
  return problems;
}

/**
 * What this table enrolled from signed enrolment files (host/peers/peer-offer.ts): each credential
 * id taken (a file is enrolled once), and the newest file's making time per peer table (an older
 * file brought back after it is refused).
 */
export function offerHistory(ledger: Ledger): OfferHistory {
  const enrolled = new Set<string>();
  const newest = new Map<TableId, string>();
  for (const e of entriesOfTypes(ledger, ['peer.credential'])) {
    const p = PAYLOADS['peer.credential'].parse((JSON.parse(e.body) as EntryBody).payload);
    if (p.action !== 'enrol' || p.credential === undefined || p.issuedAt === undefined) continue;
    enrolled.add(p.credential);
    const before = newest.get(p.table);
    if (before === undefined || Date.parse(p.issuedAt) > Date.parse(before)) newest.set(p.table, p.issuedAt);
  }
  return { enrolled, newest };
}
