import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The file beside the ledger that holds each enrolled remote station's credential, hashed. */
export const REMOTE_STATIONS_FILE = 'remote-stations.json';

const Enrolled = z.strictObject({
  station: z.number().int().positive(),
  /** SHA-256 of the secret, hex. The secret itself is shown once, at enrolment, and never kept. */
  secretSha256: z.string().regex(/^[0-9a-f]{64}$/),
  enrolledAt: z.string().max(40),
  /** The two people who enrolled it (service mode's two-person rule). */
  enrolledBy: z.array(z.string().min(1).max(128)).length(2),
  revokedAt: z.string().max(40).optional(),
  revokedBy: z.array(z.string().min(1).max(128)).max(2).optional(),
});
export type EnrolledStation = z.infer<typeof Enrolled>;

const Registry = z.strictObject({ v: z.literal(1), stations: z.array(Enrolled).max(1000) });

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

  constructor(
    private readonly file: string | null,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.stations = file && existsSync(file) ? Registry.parse(JSON.parse(readFileSync(file, 'utf8'))).stations : [];
  }

  static inDataDir(dataDir: string): RemoteStations {
    return new RemoteStations(path.join(dataDir, REMOTE_STATIONS_FILE));
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
    const was = this.current(station);
    if (was) this.revokeNow(station, by);
    this.stations = [
      ...this.stations.filter((s) => !(s.station === station && s.revokedAt !== undefined)),
      { station, secretSha256: sha256(secret).toString('hex'), enrolledAt: this.clock().toISOString(), enrolledBy: [...by] },
    ].sort((a, b) => a.station - b.station);
    this.save();
    return { station, secret };
  }

  /** Revokes the station's credential: its connections close, and it connects no more until enrolled again. */
  revoke(station: number, by: [string, string]): boolean {
    if (!this.current(station)) return false;
    this.revokeNow(station, by);
    this.save();
    return true;
  }

  /** Whether `secret` is the credential in force of `station`, compared in constant time. */
  verify(station: number, secret: string): boolean {
    const s = this.current(station);
    if (!s) return false;
    return timingSafeEqual(Buffer.from(s.secretSha256, 'hex'), sha256(secret));
  }

  /** Called when a station's credential is revoked (or replaced by a new enrolment). */
  onRevoked(listener: (station: number) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  private revokeNow(station: number, by: [string, string]): void {
    const at = this.clock().toISOString();
    this.stations = this.stations.map((s) => (s.station === station && s.revokedAt === undefined ? { ...s, revokedAt: at, revokedBy: [...by] } : s));
    for (const l of [...this.revokedListeners]) l(station);
  }

  private save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ v: 1, stations: this.stations }, null, 1), { mode: 0o600, flush: true });
    renameSync(tmp, this.file);
  }
}
