import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROOF_KEY, proofKeyOf } from './station-proof.js';
import { auditCredentials, credentialDigest, type StationCredentialJournal } from './credential-journal.js';
import { jsonTextAs } from '../../terms/json-text.js';

/** The file beside the ledger that holds each enrolled remote station's credential, hashed. */
export const REMOTE_STATIONS_FILE = 'remote-stations.json';

const Enrolled = z.strictObject({
  station: z.number().int().positive(),
  /** SHA-256 of the secret, hex. The secret itself is shown once, at enrolment, and never kept. */
  secretSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /**
   * The station's public proof key (host/stadium/station-proof.ts), made from the secret at
   * enrolment: how an edge and the host check a station that proves its secret rather than
   * sending it. A station enrolled before edges has none: it connects to the host's own listener
   * only until it is enrolled again.
   */
  proofKey: z.string().regex(PROOF_KEY).optional(),
  enrolledAt: z.string().max(40),
  /** The two people who enrolled it (service mode's two-person rule). */
  enrolledBy: z.array(z.string().min(1).max(128)).length(2),
  revokedAt: z.string().max(40).optional(),
  revokedBy: z.array(z.string().min(1).max(128)).max(2).optional(),
});
export type EnrolledStation = z.infer<typeof Enrolled>;

const Registry = z.strictObject({ v: z.literal(1), stations: z.array(Enrolled).max(1000) });

/** Where a listener's throw is said (the host's log). */
export type ListenerLog = { error(fields: object, message: string): void };
const consoleLog: ListenerLog = { error: (fields, message) => console.error(message, fields) };

/** A new credential: the secret, 256 random bits, base64url (43 characters). */
export interface Credential {
  readonly station: number;
  readonly secret: string;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * The remote stations enrolled at this table, each with its own credential: a long random secret
 * the host keeps only as its SHA-256 (the secret has 256 bits of entropy, so a slow hash would
 * add nothing). Enrolled and revoked in service mode by two people; the file is the host's,
 * owner-only, written whole and renamed so a kill never leaves half of it.
 */
export class RemoteStations {
  private stations: EnrolledStation[];
  private readonly revokedListeners = new Set<(station: number) => void>();
  private readonly changeListeners = new Set<() => void>();
  /** Stations whose registry row is not what the journal says (refused), with why. */
  private refused = new Map<number, string>();
  /** Stations whose proof key the journal does not cover (journalled before it was): not used. */
  private keyNotJournalled = new Set<number>();

  /**
   * With a journal (the host's), every enrolment and revocation is journalled before the file
   * changes, and the registry is checked against the journal: a station whose row differs is
   * refused (`problems()` says why). A registry never journalled is adopted once, as found (or
   * journalled as holding none).
   */
  constructor(
    private readonly file: string | null,
    private readonly clock: () => Date = () => new Date(),
    private readonly journal: StationCredentialJournal | null = null,
    private readonly log: ListenerLog = consoleLog,
  ) {
    this.stations = file && existsSync(file) ? readRegistry(file) : [];
    if (journal && !journal.read().any) this.adopt(journal);
    this.audit();
  }

  /**
   * The registry as found, journalled once (one `adopt` per station in force); when it holds none,
   * that it held none (`none`), so the adoption closes: before, it stayed open at every start of a
   * table without remote stations, and a row planted in the file months later (the hash and proof
   * key of a secret the planter knows) was adopted at the next start and its machine greeted as
   * the station. Now such a row is refused like any the journal does not hold.
   */
  private adopt(journal: StationCredentialJournal): void {
    const found = this.inForce();
    if (found.length === 0) {
      journal.record([{ action: 'none', by: ['no remote stations at start'] }]);
      return;
    }
    journal.record(
      found.map((s) => ({
        station: s.station,
        action: 'adopt' as const,
        by: [...s.enrolledBy],
        credential: credentialDigest(s.station, s.secretSha256, s.proofKey),
      })),
    );
  }

  static inDataDir(dataDir: string, journal: StationCredentialJournal | null = null, log: ListenerLog = consoleLog): RemoteStations {
    return new RemoteStations(path.join(dataDir, REMOTE_STATIONS_FILE), () => new Date(), journal, log);
  }

  /** How the registry differs from the journal, one line per station (none without a journal). */
  problems(): string[] {
    return [...this.refused.values()];
  }

  private inForce(): EnrolledStation[] {
    return this.stations.filter((s) => s.revokedAt === undefined);
  }

  private audit(): void {
    const audit = this.journal ? auditCredentials(this.inForce(), this.journal.read()) : null;
    this.refused = audit?.problems ?? new Map();
    this.keyNotJournalled = audit?.keyNotJournalled ?? new Set();
  }

  /** Stations with a credential in force, by number. */
  list(): EnrolledStation[] {
    return this.stations.map((s) => ({ ...s }));
  }

  /** The enrolment in force for a station, if any. */
  current(station: number): EnrolledStation | null {
    return this.stations.find((s) => s.station === station && s.revokedAt === undefined) ?? null;
  }

  /**
   * Enrols (or enrols again) `station`: a new credential replaces any before it, which stops
   * working at once. Returns the secret, to hand to the station's machine once.
   */
  enrol(station: number, by: [string, string]): Credential {
    const secret = randomBytes(32).toString('base64url');
    const secretSha256 = sha256(secret).toString('hex');
    const proofKey = proofKeyOf(secret);
    // Journalled before the file changes: a credential the journal does not hold never connects.
    this.journal?.record([{ station, action: 'enrol', by: [...by], credential: credentialDigest(station, secretSha256, proofKey) }]);
    const was = this.current(station);
    if (was) this.revokeNow(station, by);
    this.stations = [
      ...this.stations.filter((s) => !(s.station === station && s.revokedAt !== undefined)),
      { station, secretSha256, proofKey, enrolledAt: this.clock().toISOString(), enrolledBy: [...by] },
    ].sort((a, b) => a.station - b.station);
    this.save();
    this.audit();
    this.tell('change', this.changeListeners, station);
    return { station, secret };
  }

  /** Revokes the station's credential: its connections close, and it connects no more until enrolled again. */
  revoke(station: number, by: [string, string]): boolean {
    if (!this.current(station)) return false;
    this.journal?.record([{ station, action: 'revoke', by: [...by] }]);
    this.revokeNow(station, by);
    this.save();
    this.audit();
    this.tell('change', this.changeListeners, station);
    return true;
  }

  /** Whether `secret` is the credential in force of `station`, compared in constant time. */
  verify(station: number, secret: string): boolean {
    const s = this.current(station);
    if (!s || this.refused.has(station)) return false;
    return timingSafeEqual(Buffer.from(s.secretSha256, 'hex'), sha256(secret));
  }

  /** Each station whose credential is in force and not refused, with its public proof key (what the edges check a station's proof against). */
  proofKeys(): { station: number; proofKey: string }[] {
    return this.inForce().flatMap((s) => {
      const key = this.proofKey(s.station);
      return key === null ? [] : [{ station: s.station, proofKey: key }];
    });
  }

  /** The public proof key of `station`'s credential in force, or null (none, revoked, refused, or not in the journal's digest). */
  proofKey(station: number): string | null {
    const s = this.current(station);
    return s && !this.refused.has(station) && !this.keyNotJournalled.has(station) ? (s.proofKey ?? null) : null;
  }

  /** Called after every enrolment and revocation (the edges' copy of the hashes is published again). */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Called when a station's credential is revoked (or replaced by a new enrolment). */
  onRevoked(listener: (station: number) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  private revokeNow(station: number, by: [string, string]): void {
    const at = this.clock().toISOString();
    this.stations = this.stations.map((s) => (s.station === station && s.revokedAt === undefined ? { ...s, revokedAt: at, revokedBy: [...by] } : s));
    this.tell('revoked', this.revokedListeners, station);
  }

  /**
   * Each listener on its own: the change is journalled already, so one listener's throw (a fault
   * the full journal refuses) must not leave the registry unsaved, nor the listeners after it
   * untold (the edge bridge would keep the station attached). Logged, never thrown.
   */
  private tell(what: 'revoked' | 'change', listeners: ReadonlySet<(station: number) => void>, station: number): void {
    for (const l of [...listeners])
      try {
        l(station);
      } catch (err) {
        this.log.error(
          { err, station, what },
          "a remote station's credential changed; one who listens for it failed (the others are told, the registry saved)",
        );
      }
  }

  private save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ v: 1, stations: this.stations }, null, 1), { mode: 0o600, flush: true });
    renameSync(tmp, this.file);
  }
}

/**
 * The registry as kept, or an error naming the file, why and what to do. It is never made anew by
 * itself: started empty, the next enrolment would write the file whole and every station in it
 * would be gone (and the journal's stations refused as missing from it). Before, the start said
 * only JSON.parse's or zod's words.
 */
function readRegistry(file: string): EnrolledStation[] {
  let why: string;
  try {
    const read = jsonTextAs(readFileSync(file, 'utf8'), Registry, 'a registry of remote stations');
    if (read.ok) return read.data.stations;
    why = read.why;
  } catch (e) {
    why = `it cannot be read (${e instanceof Error ? e.message : String(e)})`;
  }
  throw new Error(
    `remote stations: ${file} cannot be used: ${why}. Restore it from a backup of the data folder (the journal's station.credential entries say which stations it held); the table does not start without it`,
  );
}
