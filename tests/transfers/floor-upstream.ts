import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { credentialsFile, Credentials, readCredentials, SyncClient, type Ledger } from '../../ledger/index.js';
import { alarms, startUpstream, verifyChain, type RunningUpstream } from '../../upstream/index.js';
import { reconcileTransfers, type TransferWatch } from '../../upstream/transfers.js';
import { PEER_CREDENTIAL_ALARM, STATION_CREDENTIAL_ALARM } from '../../upstream/ingest/credential-changes.js';

// The upstream of the three-table soak (floor-soak.ts): the real service (Fastify over PGlite,
// in the soak's own process, never killed) that the table hosts sync their ledgers to while they
// are killed and cut, and whose own reconciliation of what it ingested is the soak's verdict on
// the transfers, beside the soak's check of the ledgers themselves.

export interface FloorUpstream {
  readonly up: RunningUpstream;
  /**
   * Enrols a table's terminal as production does (POST /v1/admin/terminals with the admin token)
   * and saves the credentials where the host reads them: `<data dir>/upstream-credentials.json`,
   * mode 0600 (docs/upstream.md).
   */
  enrol(table: string, dataDir: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * `transfers`: run the upstream's periodic transfer reconciliation while the hosts sync (as
 * `etg upstream serve` does every minute); its alarms then stand in the verdict.
 */
export async function startFloorUpstream(options: { transfers?: TransferWatch & { everySeconds: number } } = {}): Promise<FloorUpstream> {
  const admin = randomBytes(24).toString('base64url');
  // Every host of the soak reaches the service from 127.0.0.1, so the per-address ingest limit
  // (meant for one kiosk an address) would count three tables catching up after kills as one.
  const up = await startUpstream({ tokens: { admin }, limits: { ingest: 60_000 }, ...(options.transfers ? { transfers: options.transfers } : {}) });
  return {
    up,
    async enrol(table, dataDir) {
      const res = await fetch(`${up.url}/v1/admin/terminals`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ terminalId: table }),
      });
      if (res.status !== 200) throw new Error(`enrolling ${table} at the upstream: ${res.status} ${await res.text()}`);
      const credentials = Credentials.parse(await res.json());
      writeFileSync(credentialsFile(dataDir), JSON.stringify({ ...credentials, upstream: up.url }), { mode: 0o600 });
    },
    close: () => up.close(),
  };
}

/**
 * Sends what a stopped host's ledger journalled after its sync last heard the upstream (its
 * shutdown's entries, the rounds after the soak stopped watching): the host's own sync client
 * with its credentials, resuming where the upstream says the terminal stopped, as the host's next
 * start would. Returns the entries not acknowledged to it when it began.
 */
export async function drainToUpstream(ledger: Ledger, dataDir: string, deadlineMs = 60_000): Promise<number> {
  const credentials = readCredentials(credentialsFile(dataDir));
  if (!credentials.upstream) throw new Error(`no upstream URL in ${credentialsFile(dataDir)}`);
  const client = new SyncClient(ledger, { url: credentials.upstream, credentials, receiptsDir: dataDir });
  const before = client.status().lagEntries;
  const end = Date.now() + deadlineMs;
  for (;;) {
    const r = await client.syncOnce();
    if (r === 'empty') return before;
    if (Date.now() > end) throw new Error(`${ledger.terminalId}: not synced within ${deadlineMs} ms: ${client.status().lastError ?? ''}`);
    if (r === 'failed') await new Promise((res) => setTimeout(res, 250));
  }
}

export interface UpstreamVerdict {
  /** What the upstream's reconciliation paired across the terminals. */
  transfers: number;
  completed: number;
  reversed: number;
  open: number;
  disagreements: number;
  /** Alarms standing at the upstream after its reconciliation (of any kind but the set-up's credential changes). */
  alarms: number;
  /** Per table: the upstream's head beside its ledger's. */
  heads: Record<string, { upstream: number; ledger: number }>;
  problems: string[];
}

/**
 * The upstream's verdict on what it ingested: it holds every table's ledger to its last entry
 * (same sequence and hash, its stored chain re-hashed from genesis), its own reconciliation pairs
 * every transfer with nothing open, no disagreement, nothing unreadable, no alarm of any kind
 * standing (but the set-up's credential changes, setUpsCredential), and it counts the same transfers, completed and reversed, as the soak's check of the
 * ledgers (`local`).
 */
/**
 * A credential change the floor's set-up makes on purpose: each host's first start adopts its peer
 * files (enrolFloor) and enrols the soak's stations, and the upstream alarms every such change for
 * a person to confirm (upstream/ingest/credential-changes.ts). Meant here, so not a finding; an
 * adoption after other credential entries (`late`) never is the set-up's and still counts.
 */
function setUpsCredential(a: { kind: string; detail: unknown }): boolean {
  if (a.kind !== PEER_CREDENTIAL_ALARM && a.kind !== STATION_CREDENTIAL_ALARM) return false;
  if (typeof a.detail !== 'object' || a.detail === null || 'late' in a.detail) return false;
  // Only what the set-up does: a first start's adoption of the peer files, a station's first
  // enrolment. A revocation, a withdrawal, an issue or a replacement during the soak (a review of
  // 1 December: every change without `late` was set aside) is a finding.
  const action = 'action' in a.detail ? a.detail.action : undefined;
  return action === 'adopt' || (a.kind === STATION_CREDENTIAL_ALARM && action === 'enrol');
}

export async function upstreamVerdict(
  up: RunningUpstream,
  ledgers: readonly { table: string; ledger: Ledger }[],
  local: { transfers: number; completed: number; reversed: number },
): Promise<UpstreamVerdict> {
  const problems: string[] = [];
  const heads: UpstreamVerdict['heads'] = {};
  for (const { table, ledger } of ledgers) {
    const mine = ledger.headOf();
    const theirs = (await up.db.query<{ seq: number; hash: string }>('SELECT seq, hash FROM heads WHERE terminal_id = $1', [table])).rows[0];
    heads[table] = { upstream: Number(theirs?.seq ?? -1), ledger: mine.seq };
    if (!theirs) problems.push(`upstream: ${table} is not enrolled`);
    else if (Number(theirs.seq) !== mine.seq || theirs.hash !== mine.hash)
      problems.push(
        `upstream: holds ${table} to seq ${theirs.seq}, its ledger is at seq ${mine.seq}${Number(theirs.seq) === mine.seq ? ' with another hash' : ''}`,
      );
    const chain = await verifyChain(up.db, table);
    if (!chain.ok) problems.push(...chain.problems.map((p) => `upstream: ${table}'s chain: ${p}`));
  }
  // Every transfer closed before the hosts stopped: anything still open at the upstream is one
  // it never saw closed, whatever its age.
  const r = await reconcileTransfers(up.db, { openAfterSeconds: 0 });
  for (const o of r.open) problems.push(`upstream: transfer ${o.transfer.id.origin}#${o.transfer.id.serial} open (receiver ${o.receiver})`);
  for (const d of r.disagreements)
    problems.push(`upstream: transfer ${d.id.origin}#${d.id.serial}: ${d.disagreements.join(', ')} (${d.sender} / ${d.receiver}, net ${d.net})`);
  // None can be pending with no wait allowed, unless a clock ran backwards: named all the same.
  for (const p of r.pending)
    problems.push(`upstream: transfer ${p.id.origin}#${p.id.serial}: ${p.disagreements.join(', ')} pending ${p.awaiting}'s sync (${p.sender} / ${p.receiver})`);
  for (const u of r.unreadable) problems.push(`upstream: unreadable ${u}`);
  if (r.transfers !== local.transfers || r.completed !== local.completed || r.reversed !== local.reversed)
    problems.push(
      `upstream: ${r.transfers} transfers (${r.completed} completed, ${r.reversed} reversed), the ledgers ${local.transfers} (${local.completed} completed, ${local.reversed} reversed)`,
    );
  const standing = (await alarms(up.db, undefined, 1000)).filter((a) => a.clearedAt === null && !setUpsCredential(a));
  for (const a of standing.slice(0, 20))
    problems.push(`upstream: alarm ${a.kind} at ${a.terminalId ?? 'the service'}: ${JSON.stringify(a.detail).slice(0, 300)}`);
  return {
    transfers: r.transfers,
    completed: r.completed,
    reversed: r.reversed,
    open: r.open.length,
    disagreements: r.disagreements.length,
    alarms: standing.length,
    heads,
    problems,
  };
}
