import { createHash } from 'node:crypto';
import { entriesOfTypes, PAYLOADS, type EntryBody, type Ledger, type Payload } from '../../ledger/index.js';

/** A `station.credential` entry's payload. */
export type CredentialEntry = Payload<'station.credential'>;

/**
 * The digest a remote station's credential is journalled as: SHA-256 over the station, the stored
 * SHA-256 of its secret and its public proof key (host/stadium/station-proof.ts: what an edge and
 * the host check its proof against, so a registry row whose key was swapped for one the attacker
 * can sign with is caught like a swapped hash). Never the secret (shown once, at enrolment, and
 * never kept), and not even its stored hash: the journal goes upstream and into exports. The
 * secret has 256 bits of entropy, so neither hash helps anyone guess it; the digest only tells
 * whether a registry row is the one journalled. A row without a proof key (enrolled before edges)
 * is digested as before (v1).
 */
export function credentialDigest(station: number, secretSha256: string, proofKey?: string): string {
  const text =
    proofKey === undefined
      ? `macau-etg-station-credential v1\n${station}\n${secretSha256}`
      : `macau-etg-station-credential v2\n${station}\n${secretSha256}\n${proofKey}`;
  return createHash('sha256').update(text).digest('hex');
}

/** What the registry is checked against (host/stadium/remote-stations.ts). */
export interface StationCredentialJournal {
  /** Journals an enrolment, a revocation, an adoption or that none was found; throws when the ledger refuses it (nothing changes then). */
  record(entries: readonly CredentialEntry[]): void;
  /** The credential digest in force per station as the journal leaves it (null: revoked), and whether any entry exists. */
  read(): JournalledCredentials;
}

export interface JournalledCredentials {
  /** Whether the registry was ever journalled (adopted, found empty, or enrolled since): until then it is adopted as found. */
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
        // `none` (a first start that found no station) names no station: it only closes the adoption.
        if (p.station === undefined) continue;
        inForce.set(p.station, p.action === 'revoke' ? null : (p.credential ?? null));
      }
      return { any, inForce };
    },
  };
}

/** What the audit finds: each station whose row differs (with why), and each whose proof key the journal does not cover. */
export interface CredentialAudit {
  problems: Map<number, string>;
  /**
   * Stations whose secret's hash is the one journalled by a v1 digest (journalled before the proof
   * key was in it) while the row carries a proof key: the key is nobody's word but the file's, so
   * it is not used (the station connects to the host's own listener only, until enrolled again).
   */
  keyNotJournalled: Set<number>;
}

/**
 * How the registry's credentials in force differ from the journal's, per station (empty: none).
 * A station the registry holds in force must carry the credential journalled for it, its proof
 * key included; one the journal has in force and the registry does not is named too (a registry
 * rolled back or edited).
 */
export function auditCredentials(
  inForce: readonly { station: number; secretSha256: string; proofKey?: string | undefined }[],
  journal: JournalledCredentials,
): CredentialAudit {
  const problems = new Map<number, string>();
  const keyNotJournalled = new Set<number>();
  const registry = new Map(inForce.map((s) => [s.station, s]));
  for (const [station, { secretSha256, proofKey }] of registry) {
    const journalled = journal.inForce.get(station);
    if (journalled === undefined || journalled === null) problems.set(station, `remote station ${station}: enrolled in the registry, not in the journal`);
    else if (journalled === credentialDigest(station, secretSha256, proofKey)) continue;
    else if (proofKey !== undefined && journalled === credentialDigest(station, secretSha256)) keyNotJournalled.add(station);
    else problems.set(station, `remote station ${station}: its credential is not the one journalled`);
  }
  for (const [station, journalled] of journal.inForce) {
    if (journalled !== null && !registry.has(station)) problems.set(station, `remote station ${station}: enrolled in the journal, missing from the registry`);
  }
  return { problems, keyNotJournalled };
}
