// The tickets' test kit: tickets as a table issues them, and a table's journal batch holding ticket
// entries as the host's integration will journal them (terms/ticket-terms.ts), hashed and chained
// as the ledger does (upstream/chain.ts states the same chain), for the upstream's ingest.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before } from 'node:test';
import type { RedeemRequest, TicketAuthority } from '../../host/tickets/authority.js';
import { guardAuthority, type GuardEvent } from '../../host/tickets/guard.js';
import { UpstreamAuthority } from '../../host/tickets/upstream-authority.js';
import type { Credentials } from '../../ledger/sign.js';
import { RequestId, TICKET_PAYLOADS, type TicketEntryType, type TicketTerms } from '../../terms/ticket-terms.js';
import { validationNumber, type ValidationNumber } from '../../terms/validation-number.js';
import { chainHash, genesisHash, sha256Hex } from '../../upstream/chain.js';
import type { IngestBatch } from '../../upstream/ingest.js';
import { enrolTerminal, migrateUpstream, openPglite, startUpstream, type Db, type RunningUpstream } from '../../upstream/index.js';
import { ticketByNumber } from '../../upstream/ticket-queries.js';

export const DAY = 86_400_000;

/** A ticket of `machineId`'s table, its `sequence`-th, issued now (or `issuedAt`) and valid `days`. */
export function ticket(
  machineId: number,
  sequence: number,
  amount: number,
  options: { station?: number; currency?: string; issuedAt?: number; days?: number } = {},
): TicketTerms {
  const issued = options.issuedAt ?? Date.now();
  return TICKET_PAYLOADS['ticket.issue'].parse({
    validation: validationNumber(machineId, sequence),
    machineId,
    sequence,
    station: options.station ?? 1,
    amount,
    currency: options.currency ?? 'MOP',
    issuedAt: new Date(issued).toISOString(),
    expiresAt: new Date(issued + (options.days ?? 30) * DAY).toISOString(),
  });
}

export const requestId = (): string => randomUUID();

/** A terminal's journal as the upstream sees it: entries appended, each batch chained from the last. */
export class FakeJournal {
  private seq = 0;
  private prev: string;
  constructor(readonly terminal: string) {
    this.prev = genesisHash(terminal);
  }

  /**
   * A batch of entries of these types and payloads (each payload checked by its schema first), each
   * journalled now or at its `ts`, under its transaction id `txId` if given (a ledger's entries carry one).
   */
  batch(entries: readonly { type: TicketEntryType | 'bill.credit'; payload: unknown; ts?: Date; txId?: string }[]): IngestBatch {
    const prevHash = this.prev;
    const out = entries.map(({ type, payload, ts, txId }) => {
      if (type !== 'bill.credit') TICKET_PAYLOADS[type].parse(payload);
      this.seq++;
      const at = (ts ?? new Date()).toISOString();
      const body = JSON.stringify({ v: 1, terminal: this.terminal, seq: this.seq, ts: at, type, ...(txId ? { txId } : {}), payload, postings: [], meters: [] });
      const hash = chainHash(this.prev, sha256Hex(body));
      this.prev = hash;
      return { seq: this.seq, hash, body };
    });
    return { terminalId: this.terminal, prevHash, entries: out };
  }
}

/** One table of the floor: its credentials, its raw client of the upstream, and that client behind the guard. */
export interface FloorTable {
  readonly id: string;
  readonly credentials: Credentials;
  readonly raw: UpstreamAuthority;
  readonly authority: TicketAuthority;
  machineId: number;
  sequence: number;
}

/**
 * An upstream on `db` (its ticket rate limit lifted: every table of a test shares one loopback
 * address) and `count` tables enrolled on it, each with its guarded client. `url` is where the
 * tables reach it (a hostile proxy in front, say); default the upstream itself.
 */
export async function startFloor(
  db: Db,
  count: number,
  o: { deadlineMs?: number; timeoutMs?: number; url?: (upstream: string) => string; onEvent?: (e: GuardEvent) => void } = {},
): Promise<{ up: RunningUpstream; tables: FloorTable[] }> {
  const up = await startUpstream({ db, limits: { tickets: 1_000_000, ingest: 1_000_000 } });
  const tables: FloorTable[] = [];
  for (let i = 1; i <= count; i++) {
    const enrolled = await enrolTerminal(db, `T-${i}`);
    const credentials: Credentials = { terminalId: enrolled.terminalId, key: enrolled.key };
    const raw = new UpstreamAuthority({ url: o.url ? o.url(up.url) : up.url, credentials, timeoutMs: o.timeoutMs ?? 60_000 });
    const authority = guardAuthority(raw, { deadlineMs: o.deadlineMs ?? 60_000, wordDeadlineMs: 60_000, ...(o.onEvent ? { onEvent: o.onEvent } : {}) });
    const m = await authority.machineId();
    if (!m.ok) throw new Error(`no machine id for T-${i}: ${m.detail}`);
    tables.push({ id: enrolled.terminalId, credentials, raw, authority, machineId: m.machineId, sequence: 0 });
  }
  return { up, tables };
}

/** A ticket `table` issues and prints (registered through its guarded client): redeemable. */
export async function printed(table: FloorTable, amount: number, o: { station?: number; currency?: string } = {}): Promise<TicketTerms> {
  const t = ticket(table.machineId, ++table.sequence, amount, o);
  const issued = await table.authority.registerIssue(t);
  const done = await table.authority.registerPrinted({ validation: t.validation, station: t.station });
  if (!issued.ok || !done.ok) throw new Error(`ticket ${t.validation} not registered: ${JSON.stringify([issued, done])}`);
  return t;
}

/** A redemption request at `station` of a table playing in `currency`. */
export function redemption(t: { validation: ValidationNumber }, station = 1, o: { currency?: string; limit?: number } = {}): RedeemRequest {
  return { requestId: RequestId.parse(requestId()), validation: t.validation, station, currency: o.currency ?? 'MOP', limit: o.limit ?? 10_000_000 };
}

/** The ticket's state at the upstream once it is `want`, or as it stands after 5 s of asking (the table tells the upstream asynchronously). */
export async function stateOf(db: Db, validation: string, want: string): Promise<string | undefined> {
  let state: string | undefined;
  for (let i = 0; i < 500; i++) {
    state = (await ticketByNumber(db, validation)).ticket?.state;
    if (state === want) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return state;
}

/**
 * A floor for a suite: an upstream on PGlite and two enrolled tables, the first issuing tickets
 * and the second redeeming them, made before the suite's tests and closed after them.
 */
export function floorOfTwo(): { readonly db: Db; readonly issuer: FloorTable; readonly redeemer: FloorTable } {
  let made: { db: Db; up: RunningUpstream; issuer: FloorTable; redeemer: FloorTable } | undefined;
  before(async () => {
    const db = await openPglite();
    await migrateUpstream(db);
    const floor = await startFloor(db, 2);
    const [issuer, redeemer] = floor.tables;
    if (!issuer || !redeemer) throw new Error('the floor has not two tables');
    made = { db, up: floor.up, issuer, redeemer };
  });
  after(async () => {
    await made?.up.close();
    await made?.db.close();
  });
  const ready = () => made ?? assert.fail('the floor is made before the suite’s tests');
  return {
    get db() {
      return ready().db;
    },
    get issuer() {
      return ready().issuer;
    },
    get redeemer() {
      return ready().redeemer;
    },
  };
}
