import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { TableId } from '../../terms/transfer-terms.js';
import { writeFileWhole } from '../../ledger/index.js';

/** The file beside the ledger that holds each peer table's credential, hashed (owner-only). */
export const PEER_CREDENTIALS_FILE = 'peer-credentials.json';

const Enrolled = z.strictObject({
  table: TableId,
  /** SHA-256 of the secret, hex: the secret is handed to the peer once, at enrolment, and never kept. */
  secretSha256: z.string().regex(/^[0-9a-f]{64}$/),
  enrolledAt: z.string().max(40),
});
/** The most peer tables the file holds a credential for: one more is refused before it is journalled (peer-registry.ts), so the file always reads. */
export const MAX_PEER_CREDENTIALS = 64;

const Registry = z.strictObject({ v: z.literal(1), peers: z.array(Enrolled).max(MAX_PEER_CREDENTIALS) });

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * The peer tables allowed to dial this host, each with its own credential, as remote stations are
 * (host/stadium/remote-stations.ts): a secret of 256 random bits, kept only as its SHA-256, the
 * secret handed to the peer's host once. A peer is known by the table id it was enrolled as and
 * by nothing it says: its hello names the table and must carry that table's secret.
 */
export class PeerCredentials {
  private peers: z.infer<typeof Enrolled>[];

  constructor(
    private readonly file: string | null,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.peers = file && existsSync(file) ? Registry.parse(JSON.parse(readFileSync(file, 'utf8'))).peers : [];
  }

  static inDataDir(dataDir: string): PeerCredentials {
    return new PeerCredentials(path.join(dataDir, PEER_CREDENTIALS_FILE));
  }

  /** Enrols (or enrols again: the old secret stops working) the peer table `table`; the secret, to hand to its host once. */
  enrol(table: TableId): string {
    const secret = randomBytes(32).toString('base64url');
    this.install(table, secret);
    return secret;
  }

  /** Enrols `table` with a secret made by the caller (who journalled its hash first); the old secret stops working. */
  install(table: TableId, secret: string): void {
    this.peers = [
      ...this.peers.filter((p) => p.table !== table),
      { table, secretSha256: sha256(secret).toString('hex'), enrolledAt: this.clock().toISOString() },
    ];
    this.save();
  }

  revoke(table: TableId): boolean {
    const before = this.peers.length;
    this.peers = this.peers.filter((p) => p.table !== table);
    this.save();
    return this.peers.length !== before;
  }

  /** Whether `secret` is the credential of the peer table `table`, compared in constant time. */
  verify(table: TableId, secret: string): boolean {
    const p = this.peers.find((e) => e.table === table);
    return p !== undefined && timingSafeEqual(Buffer.from(p.secretSha256, 'hex'), sha256(secret));
  }

  /** The stored SHA-256 of the secret `table` dials this host with (what the journal's digest covers), or null. */
  secretSha256(table: TableId): string | null {
    return this.peers.find((p) => p.table === table)?.secretSha256 ?? null;
  }

  /**
   * Takes `table`'s credential as the file now holds it (a peer enrolled again in service mode:
   * its files journalled and written); none when the file holds none. Other peers stay as they are.
   */
  reload(table: TableId): void {
    const found = this.file ? new PeerCredentials(this.file).peers.find((p) => p.table === table) : undefined;
    this.peers = [...this.peers.filter((p) => p.table !== table), ...(found ? [found] : [])];
  }

  /** Stops believing `table` in this process (its file is left as found, for the supervisor to see). */
  withhold(table: TableId): void {
    this.peers = this.peers.filter((p) => p.table !== table);
  }

  tables(): TableId[] {
    return this.peers.map((p) => p.table);
  }

  /** The stored SHA-256 of each peer's secret, by table (what the journal's digest covers). */
  hashes(): Map<TableId, string> {
    return new Map(this.peers.map((p) => [p.table, p.secretSha256]));
  }

  private save(): void {
    if (!this.file) return;
    writeFileWhole(this.file, JSON.stringify({ v: 1, peers: this.peers }, null, 1));
  }
}
