import { createHash } from 'node:crypto';
import { entriesOfTypes, PAYLOADS, type EntryBody, type Ledger } from '../../ledger/index.js';
import type { TableId } from '../../ledger/transfer-terms.js';
import type { Peer } from './peer-config.js';

/**
 * The peer tables in the data folder's files (`peers.json`: whom this host dials, the secret it
 * dials with, the stations homed there; `peer-credentials.json`: the secret each peer dials this
 * host with, hashed) checked against the journal's `peer.credential` entries (issue 50), as remote
 * stations' credentials are against `station.credential`: before, a peer added to both files with
 * a chosen secret while the host was stopped was welcomed at the next start and had credit
 * transferred to a station.
 */

/**
 * The digest a peer is journalled as: SHA-256 over its table id, its address, its certificate's
 * fingerprint, the stations homed there, the SHA-256 of the secret it gave this host and the
 * stored SHA-256 of the secret this host gave it. Never a secret: the journal goes upstream.
 */
export function peerDigest(peer: Peer, theirSecretSha256: string | null): string {
  const ours = createHash('sha256').update(peer.enrolment.secret, 'utf8').digest('hex');
  const stations = [...peer.stations].sort((a, b) => a - b).join(',');
  return createHash('sha256')
    .update(
      `macau-etg-peer v1\n${peer.enrolment.table}\n${peer.enrolment.url}\n${peer.enrolment.fingerprint}\n${stations}\n${ours}\n${theirSecretSha256 ?? '-'}`,
    )
    .digest('hex');
}

/** The digest in force per peer table as the journal leaves it (null: revoked), and whether any entry exists. */
export function journalledPeers(ledger: Ledger): { any: boolean; inForce: Map<string, string | null> } {
  const inForce = new Map<string, string | null>();
  let any = false;
  for (const e of entriesOfTypes(ledger, ['peer.credential'])) {
    any = true;
    const p = PAYLOADS['peer.credential'].parse((JSON.parse(e.body) as EntryBody).payload);
    inForce.set(p.table, p.action === 'revoke' ? null : (p.digest ?? null));
  }
  return { any, inForce };
}

/**
 * Checks the peers of the files against the journal and returns the problem of each peer refused
 * (its table id → why). A data folder whose journal has no `peer.credential` entry yet adopts its
 * files once, as found (one `adopt` entry per peer): a floor enrolled before this check, or by the
 * floor set-up of the tests. From then on a peer whose digest is not the one journalled, or that
 * the journal does not know, is refused.
 */
export function auditPeers(ledger: Ledger, peers: readonly Peer[], theirs: (table: TableId) => string | null): Map<TableId, string> {
  const journal = journalledPeers(ledger);
  if (!journal.any) {
    if (peers.length > 0)
      ledger.appendMany(
        peers.map((p) => ({
          type: 'peer.credential' as const,
          payload: { table: p.enrolment.table, action: 'adopt' as const, by: ['adopted as found'], digest: peerDigest(p, theirs(p.enrolment.table)) },
        })),
      );
    return new Map();
  }
  const problems = new Map<TableId, string>();
  for (const p of peers) {
    const t = p.enrolment.table;
    const journalled = journal.inForce.get(t);
    if (journalled === undefined || journalled === null) problems.set(t, `peer table ${t}: in the data folder's files, not enrolled in the journal`);
    else if (journalled !== peerDigest(p, theirs(t)))
      problems.set(t, `peer table ${t}: its address, certificate, stations or secrets are not the ones journalled`);
  }
  return problems;
}
