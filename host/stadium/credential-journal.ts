import { createHash } from 'node:crypto';
import { entriesOfTypes, PAYLOADS, type EntryBody, type Ledger, type Payload } from '../../ledger/index.js';

/** A `station.credential` entry's payload. */
export type CredentialEntry = Payload<'station.credential'>;

/**
 * The digest a remote station's credential is journalled as: SHA-256 over the station and the
 * stored SHA-256 of its secret. Never the secret (shown once, at enrolment, and never kept), and
 * not even its stored hash: the journal goes upstream and into exports. The secret has 256 bits of
 * entropy, so neither hash helps anyone guess it; the digest only tells whether a registry row is
 * the one journalled.
 */
export function credentialDigest(station: number, secretSha256: string): string {
  return createHash('sha256').update(`macau-etg-station-credential v1\n${station}\n${secretSha256}`).digest('hex');
}

/** What the registry is checked against (host/stadium/remote-stations.ts). */
export interface StationCredentialJournal {
  /** Journals an enrolment, a revocation or an adoption; throws when the ledger refuses it (nothing changes then). */
  record(entries: readonly CredentialEntry[]): void;
  /** The credential digest in force per station as the journal leaves it (null: revoked), and whether any entry exists. */
  read(): JournalledCredentials;
}

export interface JournalledCredentials {
  /** Whether the registry was ever journalled (adopted or enrolled since): until then it is adopted as found. */
  any: boolean;
  inForce: ReadonlyMap<number, string | null>;
}

export function ledgerStationJournal(ledger: Ledger): StationCredentialJournal {
  return {
    record: (entries) => void ledger.appendMany(entries.map((payload) => ({ type: 'station.credential', payload }))),
    read: () => {
      const inForce = new Map<number, string | null>();
      let any = false;
      for (const e of entriesOfTypes(ledger, ['station.credential'])) {
        any = true;
        const p = PAYLOADS['station.credential'].parse((JSON.parse(e.body) as EntryBody).payload);
        inForce.set(p.station, p.action === 'revoke' ? null : (p.credential ?? null));
      }
      return { any, inForce };
    },
  };
}

/**
 * How the registry's credentials in force differ from the journal's, per station (empty: none).
 * A station the registry holds in force must carry the credential journalled for it; one the
 * journal has in force and the registry does not is named too (a registry rolled back or edited).
 */
export function auditCredentials(inForce: readonly { station: number; secretSha256: string }[], journal: JournalledCredentials): Map<number, string> {
  const problems = new Map<number, string>();
  const registry = new Map(inForce.map((s) => [s.station, s.secretSha256]));
  for (const [station, secretSha256] of registry) {
    const journalled = journal.inForce.get(station);
    if (journalled === undefined || journalled === null) problems.set(station, `remote station ${station}: enrolled in the registry, not in the journal`);
    else if (journalled !== credentialDigest(station, secretSha256))
      problems.set(station, `remote station ${station}: its credential is not the one journalled`);
  }
  for (const [station, journalled] of journal.inForce) {
    if (journalled !== null && !registry.has(station)) problems.set(station, `remote station ${station}: enrolled in the journal, missing from the registry`);
  }
  return problems;
}
