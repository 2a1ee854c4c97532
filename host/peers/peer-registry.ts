import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Ledger, Payload } from '../../ledger/index.js';
import { TableId, TransferSettlement } from '../../terms/transfer-terms.js';
import type { SettleRefusal } from '../transfers/sender.js';
import { readTableCertificate } from '../stadium/table-certificate.js';
import { Peer, PeersFile, readPeers, STATION_HOMED_TWICE, writePeers } from './peer-config.js';
import { MAX_PEER_CREDENTIALS, PEER_CREDENTIALS_FILE, PeerCredentials } from './peer-credentials.js';
import { PeerGuard } from './peer-guard.js';
import { journalledPeers, offerHistory, peerDigest, peerProblems, type PeerFiles } from './peer-journal.js';
import { checkPeerOffer, makePeerOffer, type OfferRefusal } from './peer-offer.js';
import type { PeerProblem, ServicePage } from '../../protocol/index.js';

export type PeerChange = { ok: true; table: TableId } | { ok: false; detail: string; refusal: OfferRefusal };

/**
 * Why a credential action (issue, withdraw, revoke) is refused; each is worded for the person at the
 * screen (locales: `service.peers.refused.*`, with the table's id); `detail` is the log's English.
 */
export const CREDENTIAL_REFUSALS = [
  'not-a-table',
  'self',
  'no-address',
  'no-certificate',
  'unreadable',
  'no-credential',
  'not-a-peer',
  'transfers-open',
  'too-many-credentials',
] as const;
export type CredentialRefusal = (typeof CREDENTIAL_REFUSALS)[number];
export type CredentialRefused = { ok: false; detail: string; reason: CredentialRefusal };
const refused = (reason: CredentialRefusal, detail: string): CredentialRefused => ({ ok: false, detail, reason });

/**
 * Why one more credential for `table` cannot be issued: the credentials file cannot be read (its
 * write would fail after the journal took the issue), or it holds `MAX_PEER_CREDENTIALS` other
 * tables already (a file of one more would never read again: every peer refused at the next start).
 */
function credentialsFull(dataDir: string, table: TableId): CredentialRefused | null {
  const credentials = readCredentials(dataDir);
  if (!(credentials instanceof PeerCredentials)) return credentials;
  const tables = credentials.tables();
  if (tables.includes(table) || tables.length < MAX_PEER_CREDENTIALS) return null;
  return refused('too-many-credentials', `${PEER_CREDENTIALS_FILE} holds credentials for ${tables.length} peer tables, the most it takes: withdraw one first`);
}

/** The credentials file, or the refusal of an action that must read it (it cannot be: `unreadable`, nothing journalled). */
function readCredentials(dataDir: string): PeerCredentials | CredentialRefused {
  try {
    return PeerCredentials.inDataDir(dataDir);
  } catch (e) {
    return refused('unreadable', `${PEER_CREDENTIALS_FILE} cannot be read: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`);
  }
}

/** The guard's problem of a peer whose change was journalled and its files not written (a full disk). */
const unwrittenProblem = (table: TableId, action: string, why: string): string =>
  `peer table ${table}: its ${action} is journalled, and its files could not be written (${why}): refused until two people make the change again with the disk freed`;

/**
 * A peer's credential withdrawn or the peer revoked; `unwritten`: journalled and in force in this
 * run, its files not written (why): the peer stays refused, at each start too, until they are.
 */
export type CredentialChange = { ok: true; table: TableId; unwritten?: string } | CredentialRefused;

/** A new enrolment file for a peer: its text (holding the secret: handed once) and its credential's id. */
export type PeerFileMade = { ok: true; table: TableId; file: string; credential: string; unwritten?: string } | CredentialRefused;

/** What a credential action does once its checks passed: its entry, its files, whom it tells, its log line, what it returns. */
interface CredentialPlan<T> {
  readonly journal: Omit<Payload<'peer.credential'>, 'table' | 'by'>;
  readonly write: () => void;
  readonly tell: ReadonlySet<(table: TableId) => void>;
  readonly said: readonly [message: string, fields: object];
  readonly made: T;
}

export interface PeerRegistryOptions {
  dataDir: string;
  self: string;
  ledger: Ledger;
  log: Logger;
  fault: (detail: string) => void;
  /** This table's LAN listener as its peers dial it (`https://host:port`); null: it has none to offer. */
  url?: string | null;
  /** The host's clock (an enrolment file's making and deadline). */
  now?: () => number;
}

/** This table's open transfers as the Peers page lists them. */
export type OpenTransferRows = Extract<ServicePage, { page: 'peers' }>['open'];

/** Why two people's settlement of a transfer is refused (the screen words each: `service.peers.settleRefused.*`). */
export type SettlementRefusal = SettleRefusal | 'ledger' | 'no-transfers' | 'bad-reference';

/** The running transfers' side of a settlement (host/peers/host-transfers.ts). */
export interface TransferSettlements {
  openRows(): OpenTransferRows;
  settle(serial: number, as: 'completed' | 'reversed', settled: TransferSettlement): { ok: true } | { ok: false; refused: SettleRefusal | 'ledger' };
}

/** The peers as the service screen's Peers page lists them (protocol/service-view.ts). */
export interface PeerRows {
  transfers: boolean;
  open: OpenTransferRows;
  peers: {
    table: string;
    url: string | null;
    fingerprint: string | null;
    stations: number[];
    dialsIn: boolean;
    linkOut: boolean;
    linkIn: boolean;
    problem: PeerProblem | null;
  }[];
}

/**
 * The peer tables of this host's data folder, changed only by two people in service mode (issue 50
 * item 4): each change journalled first (`peer.credential`, both names, the peer's new digest, never
 * a secret), then written to the files, then checked like every other read (PeerGuard). What the
 * running host does with a change: a removed peer's link is closed and its credential forgotten at
 * once (`onRevoke`); an added peer is dialled at once (`onEnrol`) when the host carries transfers,
 * else from the next start (a host with no peer at start opened no transfers).
 */
export class PeerRegistry {
  readonly guard: PeerGuard;
  private readonly revoked = new Set<(table: TableId) => void>();
  private readonly enrolled = new Set<(peer: Peer) => void>();
  private readonly dialIns = new Set<(table: TableId) => void>();
  /** The links of the running transfers (none: this host had no peers at start). */
  private links: ((table: TableId) => { out: boolean; in: boolean }) | null = null;

  constructor(private readonly o: PeerRegistryOptions) {
    this.guard = new PeerGuard(o);
  }

  /** `listener(table)`: a peer was removed (the transfers drop its link). */
  onRevoke(listener: (table: TableId) => void): void {
    this.revoked.add(listener);
  }

  /** `listener(peer)`: a peer was enrolled, its files journalled and written (the transfers dial it at once). */
  onEnrol(listener: (peer: Peer) => void): void {
    this.enrolled.add(listener);
  }

  /** `listener(table)`: the credential `table` dials this host with was made anew or withdrawn (the transfers take it, close its link in). */
  onDialIn(listener: (table: TableId) => void): void {
    this.dialIns.add(listener);
  }

  /** The running transfers' link states, for the service screen (start/transfers.ts, once they exist). */
  attachLinks(links: (table: TableId) => { out: boolean; in: boolean }): void {
    this.links = links;
  }

  /** How many of this table's transfers to a peer are open (debited here, not yet completed nor reversed). */
  attachOpenTransfers(open: (table: TableId) => number): void {
    this.openTransfers = open;
  }
  private openTransfers: (table: TableId) => number = () => 0;

  /** The running transfers' open ones, and their settlement by two people (start/transfers.ts, once they exist). */
  attachSettlements(s: TransferSettlements): void {
    this.settlements = s;
  }
  private settlements: TransferSettlements | null = null;

  /**
   * Two people close this table's open transfer `serial` as completed or reversed, on the
   * reference they typed (docs/transfers.md): refused unless it is disputed or its receiver
   * cannot answer. The closing entry is the record, with both names.
   */
  settle(
    serial: number,
    as: 'completed' | 'reversed',
    reference: string,
    by: readonly [string, string],
  ): { ok: true } | { ok: false; detail: string; reason: SettlementRefusal } {
    if (!this.settlements) return { ok: false, detail: 'this table carries no transfers', reason: 'no-transfers' };
    const settled = TransferSettlement.safeParse({ by: [...by], reference });
    if (!settled.success) return { ok: false, detail: `no settlement: ${settled.error.issues[0]?.message ?? 'invalid'}`, reason: 'bad-reference' };
    const r = this.settlements.settle(serial, as, settled.data);
    if (r.ok) return r;
    return { ok: false, detail: `transfer ${this.o.self}:${serial} not settled: ${r.refused}`, reason: r.refused };
  }

  /** Each peer table the files or the journal name, as the service screen's Peers page shows it. */
  list(): PeerRows {
    // Checked as before a transfer step (the fault raised if a problem stays), then worded by kind.
    this.guard.check();
    let files: PeerFiles | null;
    try {
      files = { peers: readPeers(this.o.dataDir)?.peers ?? [], theirs: PeerCredentials.inDataDir(this.o.dataDir).hashes() };
    } catch {
      files = null;
    }
    const problems: Map<TableId, PeerProblem> = files
      ? peerProblems(this.o.ledger, files)
      : new Map([...journalledPeers(this.o.ledger).inForce].filter(([, d]) => d !== null).map(([t]) => [t, 'unreadable' as const]));
    const shown = files ?? { peers: [], theirs: new Map<TableId, string>() };
    const tables = [...new Set([...shown.peers.map((p) => p.enrolment.table), ...shown.theirs.keys(), ...problems.keys()])].sort();
    return {
      transfers: this.links !== null,
      open: this.settlements?.openRows() ?? [],
      peers: tables.slice(0, 64).map((table) => {
        const p = shown.peers.find((x) => x.enrolment.table === table);
        const link = this.links?.(table) ?? { out: false, in: false };
        return {
          table,
          url: p?.enrolment.url ?? null,
          fingerprint: p?.enrolment.fingerprint ?? null,
          stations: [...(p?.stations ?? [])],
          dialsIn: shown.theirs.has(table),
          linkOut: link.out,
          linkIn: link.in,
          problem: problems.get(table) ?? null,
        };
      }),
    };
  }

  /**
   * Adds (or replaces) the peer whose enrolment file is `text` (what that table's host made for this
   * one, host/peers/peer-offer.ts: its address, certificate, the secret it knows this host by,
   * signed with its key), with the remote stations homed there. A file that is not signed, altered,
   * made for another table, expired, or enrolled here before is refused: nothing journalled or written.
   */
  add(text: string, stations: readonly number[], by: readonly [string, string]): PeerChange {
    // The upstream pairs transfers by table id: a table syncing under another terminal id would
    // write a peers.json its next start refuses (host/start-host.ts).
    if (this.o.ledger.terminalId !== this.o.self)
      return {
        ok: false,
        detail: `this table syncs under terminal id "${this.o.ledger.terminalId}", not its table id "${this.o.self}": a table with peers must sync under its table id`,
        refusal: 'other-terminal-id',
      };
    const checked = checkPeerOffer(text, TableId.parse(this.o.self), new Date(this.now()), offerHistory(this.o.ledger));
    if (!checked.ok) {
      this.o.log.warn({ reason: checked.reason, by }, 'peer enrolment file refused');
      return { ok: false, detail: checked.detail, refusal: checked.reason };
    }
    const { enrolment, offer } = checked;
    const table = enrolment.table;
    const before = this.peersFile();
    if (!before.ok) return { ok: false, detail: before.detail, refusal: 'peers-unreadable' };
    const peer = Peer.safeParse({ enrolment, stations: [...stations] });
    if (!peer.success) return { ok: false, detail: `stations: ${peer.error.issues[0]?.message ?? 'invalid'}`, refusal: 'bad-stations' };
    const next = PeersFile.safeParse({ ...before.file, peers: [...before.file.peers.filter((p) => p.enrolment.table !== table), peer.data] });
    if (!next.success) {
      // The screen words why (a station homed at another peer, one peer too many, else the file
      // not valid: `peers-invalid`); the schema's English is the log's.
      const issue = next.error.issues[0];
      const refusal =
        issue?.message === STATION_HOMED_TWICE
          ? 'stations-elsewhere'
          : issue?.code === 'too_big' && issue.path[0] === 'peers'
            ? 'too-many-peers'
            : 'peers-invalid';
      if (refusal === 'peers-invalid')
        this.o.log.warn({ issue: issue?.message, path: issue?.path.join('.'), by }, 'peer enrolment refused: peers.json would not be valid');
      return { ok: false, detail: issue?.message ?? 'invalid', refusal };
    }
    const theirs = PeerCredentials.inDataDir(this.o.dataDir).secretSha256(table);
    // Journalled before the file is written: a cut in between leaves a file older than the journal, refused (a fault), never a peer unjournalled.
    this.o.ledger.append({
      type: 'peer.credential',
      payload: { table, action: 'enrol', by: [...by], digest: peerDigest(table, peer.data, theirs), credential: offer.credential, issuedAt: offer.issuedAt },
    });
    try {
      writePeers(this.o.dataDir, next.data);
    } catch (e) {
      // Journalled, not written: the guard refuses it (and raises the fault) until it is added again.
      const why = (e instanceof Error ? e.message : String(e)).slice(0, 200);
      this.guard.invalidate(table, unwrittenProblem(table, 'enrol', why));
      this.guard.check();
      this.o.log.error({ peer: table, by, error: why }, 'peers.json not written after an enrolment journalled by two people: the peer is refused');
      return {
        ok: false,
        detail: `${table} is journalled as enrolled, but peers.json could not be written (${why}): it is refused until it is added again with the disk freed`,
        refusal: 'unwritten',
      };
    }
    this.guard.invalidate(table);
    for (const l of this.enrolled) l(peer.data);
    this.o.log.warn({ peer: table, stations, by, linked: this.links !== null, credential: offer.credential }, 'peer table enrolled by two people');
    return { ok: true, table };
  }

  /**
   * Makes this table's enrolment file for the peer table `forText`: a new credential that table
   * dials this host with (its secret kept here only as its SHA-256; an older one stops working),
   * journalled (`peer.credential` `issue`, both names, the new digest and the credential's id,
   * never the secret) before the credentials file is written. The file, signed with this table's
   * key, is returned once: the caller hands it over and keeps nothing of it.
   */
  issue(forText: string, by: readonly [string, string], validMs?: number): PeerFileMade {
    return this.credentialStep(
      forText,
      (table, peers) => {
        if (table === this.o.self) return refused('self', 'a table is not its own peer');
        if (!this.o.url) return refused('no-address', 'this table has no fixed LAN address for its peers to dial (lan.host, lan.port)');
        const certificate = readTableCertificate(this.o.dataDir);
        if (!certificate) return refused('no-certificate', 'this table has no certificate yet: it is made at the first start with a LAN listener');
        const full = credentialsFull(this.o.dataDir, table);
        if (full) return full;
        const secret = randomBytes(32).toString('base64url');
        const credential = randomBytes(16).toString('hex');
        const issuedAt = new Date(this.now());
        const file = makePeerOffer({
          table: TableId.parse(this.o.self),
          terminal: this.o.ledger.terminalId,
          for: table,
          url: this.o.url,
          certificate,
          secret,
          credential,
          issuedAt,
          ...(validMs !== undefined ? { validMs } : {}),
        });
        const peer = peers.peers.find((p) => p.enrolment.table === table);
        const digest = peerDigest(table, peer, createHash('sha256').update(secret, 'utf8').digest('hex'));
        return {
          journal: { action: 'issue', digest, credential, issuedAt: issuedAt.toISOString() },
          write: () => {
            PeerCredentials.inDataDir(this.o.dataDir).install(table, secret);
            // A folder with no peers.json opens no transfers at its next start: one listing no peer does.
            if (readPeers(this.o.dataDir) === null) writePeers(this.o.dataDir, peers);
          },
          tell: this.dialIns,
          said: ['enrolment file made for a peer table by two people', { credential }],
          made: { file, credential },
        };
      },
      by,
    );
  }

  /** Revokes the credential `table` dials this host with (its link in closes at once); this host's own link to it, if enrolled, stays. */
  withdraw(tableText: string, by: readonly [string, string]): CredentialChange {
    return this.credentialStep(
      tableText,
      (table, peers) => {
        const credentials = readCredentials(this.o.dataDir);
        if (!(credentials instanceof PeerCredentials)) return credentials;
        if (credentials.secretSha256(table) === null) return refused('no-credential', `${table} holds no credential to dial this table`);
        const peer = peers.peers.find((p) => p.enrolment.table === table);
        return {
          journal: { action: 'withdraw', ...(peer ? { digest: peerDigest(table, peer, null) } : {}) },
          write: () => credentials.revoke(table),
          tell: this.dialIns,
          said: ["a peer table's credential to dial this table withdrawn by two people", {}],
          made: {},
        };
      },
      by,
    );
  }

  /** Removes the peer from both files: this host neither dials it nor lets it in again. */
  revoke(tableText: string, by: readonly [string, string]): CredentialChange {
    return this.credentialStep(
      tableText,
      (table, peers) => {
        const credentials = readCredentials(this.o.dataDir);
        if (!(credentials instanceof PeerCredentials)) return credentials;
        const listed = peers.peers.some((p) => p.enrolment.table === table);
        if (!listed && credentials.secretSha256(table) === null) return refused('not-a-peer', `${table} is not a peer of this table`);
        // Removed, its link closed for good: a transfer to it still open would never hear its answer.
        // Only while its answer can come (its link up): a peer gone for good is removed all the same,
        // its transfers left in flight for a person (the upstream alarms them open too long).
        const open = this.openTransfers(table);
        if (open > 0 && this.links?.(table).out === true)
          return refused('transfers-open', `${open} transfers to ${table} are still open and it is reachable: recall them and wait for its answer first`);
        return {
          journal: { action: 'revoke' },
          write: () => {
            if (listed) writePeers(this.o.dataDir, { ...peers, peers: peers.peers.filter((p) => p.enrolment.table !== table) });
            credentials.revoke(table);
          },
          tell: this.revoked,
          said: ['peer table removed by two people', {}],
          made: {},
        };
      },
      by,
    );
  }

  /**
   * The one sequence of the three credential actions: the table's id parsed, peers.json read, the
   * action's own checks and making (`plan`), then its `peer.credential` entry journalled before any
   * file is changed (a cut in between leaves files older than the journal: refused, a fault, never
   * a change unjournalled), the guard's cached check dropped, the listeners told and the log written.
   */
  private credentialStep<T extends object>(
    tableText: string,
    plan: (table: TableId, peers: PeersFile) => CredentialRefused | CredentialPlan<T>,
    by: readonly [string, string],
  ): ({ ok: true; table: TableId; unwritten?: string } & T) | CredentialRefused {
    const t = TableId.safeParse(tableText);
    if (!t.success) return refused('not-a-table', 'not a table id');
    const table = t.data;
    const before = this.peersFile();
    if (!before.ok) return refused('unreadable', before.detail);
    const step = plan(table, before.file);
    if ('ok' in step) return step;
    this.o.ledger.append({ type: 'peer.credential', payload: { table, by: [...by], ...step.journal } });
    // In force from here, whatever the write does (as a remote station's revocation is): files not
    // written (a full disk) are not the journal's, so the guard refuses the peer, the listeners take
    // nothing from them, and the next start's check refuses it too, until the change is made again.
    let unwritten: string | undefined;
    try {
      step.write();
    } catch (e) {
      unwritten = (e instanceof Error ? e.message : String(e)).slice(0, 200);
    }
    this.guard.invalidate(table, unwritten === undefined ? undefined : unwrittenProblem(table, step.journal.action, unwritten));
    for (const l of step.tell) l(table);
    this.o.log.warn({ peer: table, by, ...step.said[1] }, step.said[0]);
    if (unwritten === undefined) return { ok: true, table, ...step.made };
    this.o.log.error({ peer: table, by, error: unwritten }, 'peer files not written after a change journalled by two people: the peer is refused');
    // Checked now, so the peer-integrity fault is raised whether or not this host carries transfers.
    this.guard.check();
    return { ok: true, table, unwritten, ...step.made };
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  private peersFile(): { ok: true; file: PeersFile } | { ok: false; detail: string } {
    try {
      return { ok: true, file: readPeers(this.o.dataDir) ?? { v: 1, peers: [] } };
    } catch (e) {
      return { ok: false, detail: `peers.json cannot be read: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}` };
    }
  }
}
