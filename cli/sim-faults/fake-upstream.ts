import { chainHash, genesisHash, sha256Hex, SIGNATURE_HEADERS, type WireEntry } from '../../ledger/index.js';

/** What can happen to one request on the upstream link. */
export type LinkFault =
  /** The upstream fails before storing anything: 500. */
  | 'http-500'
  /** The connection resets mid-batch: the upstream's transaction never commits. */
  | 'reset-mid-batch'
  /** The upstream stores the batch, and its answer is lost. */
  | 'lost-ack'
  /** The answer comes after the client's timeout: stored, but the client gave up. */
  | 'slow'
  /** The request is delivered twice: the copy is refused as a replay. */
  | 'duplicate'
  /** The request is held back in the network and delivered after a later one. */
  | 'reorder'
  /** The upstream was restored from a backup and lost its newest entries: 409 gap. */
  | 'restored-backup';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The casino's ingest as a model in memory, with the rules of upstream/ingest.ts: entries at or
 * below the head must carry the stored hash, a batch past head+1 is a gap (409 with the head),
 * new entries must chain over SHA-256 of their bodies; a signed request seen before is a replay
 * (409 with the head). Tested against the real one by the sync tests (tests/sync/); here it lets
 * one seed decide every answer.
 */
export class FakeUpstream {
  readonly entries: WireEntry[] = [];
  private readonly seen = new Set<string>();
  private held: { key: string; body: string }[] = [];
  /** Answers by status, and the refusals that would be alarms (divergence, bad chain). */
  readonly stats = { requests: 0, stored: 0, alarms: [] as string[] };

  constructor(private readonly terminalId: string) {}

  private head(): { ackedSeq: number; headHash: string } {
    const last = this.entries.at(-1);
    return { ackedSeq: last?.seq ?? 0, headHash: last?.hash ?? genesisHash(this.terminalId) };
  }

  ingest(key: string, text: string): Answer {
    this.stats.requests++;
    if (this.seen.has(key)) return { status: 409, body: { error: 'replay', ...this.head() } };
    this.seen.add(key);
    const batch = JSON.parse(text) as { prevHash: string; entries: WireEntry[] };
    const first = batch.entries[0];
    if (!first) return { status: 200, body: this.head() };
    const head = this.head();
    if (first.seq > head.ackedSeq + 1) return { status: 409, body: { error: 'gap', ...head } };
    for (const e of batch.entries) {
      if (e.seq > head.ackedSeq) break;
      if (this.entries[e.seq - 1]?.hash !== e.hash) {
        this.stats.alarms.push(`divergence at ${e.seq}`);
        return { status: 409, body: { error: 'divergence', seq: e.seq, ...head } };
      }
    }
    let prev = head.headHash;
    if (first.seq === head.ackedSeq + 1 && batch.prevHash !== prev) {
      this.stats.alarms.push(`bad prevHash at ${first.seq}`);
      return { status: 422, body: { error: 'bad-chain' } };
    }
    const fresh = batch.entries.filter((e) => e.seq > head.ackedSeq);
    for (const e of fresh) {
      if (chainHash(prev, sha256Hex(e.body)) !== e.hash) {
        this.stats.alarms.push(`bad chain at ${e.seq}`);
        return { status: 422, body: { error: 'bad-chain', seq: e.seq } };
      }
      prev = e.hash;
    }
    for (const e of fresh) this.entries.push({ seq: e.seq, hash: e.hash, body: e.body });
    this.stats.stored += fresh.length;
    return { status: 200, body: this.head() };
  }

  /** Loses the newest `n` entries (a restore from an older backup). */
  restoreBackup(n: number): void {
    this.entries.splice(Math.max(0, this.entries.length - n));
  }

  /** A request held back by `reorder` arrives now (after the ones sent since). */
  deliverHeld(): number {
    const held = this.held;
    this.held = [];
    for (const h of held) this.ingest(h.key, h.body);
    return held.length;
  }

  /**
   * The `fetch` the sync client is given: each request meets the fault `pick()` draws for it
   * (null: none). A request's identity for replays is its signature, as the real upstream's guard.
   */
  fetchWith(pick: () => LinkFault | null): typeof fetch {
    return async (_url, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      const headers = new Headers(init?.headers);
      const key = `${headers.get(SIGNATURE_HEADERS.signature) ?? ''}|${headers.get(SIGNATURE_HEADERS.timestamp) ?? ''}|${sha256Hex(body)}`;
      const fault = pick();
      const answer = (a: Answer) => new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json' } });
      switch (fault) {
        case 'http-500':
          return answer({ status: 500, body: { error: 'internal' } });
        case 'reset-mid-batch':
          throw new TypeError('fetch failed: socket hang up (ECONNRESET)');
        case 'lost-ack':
          this.ingest(key, body);
          throw new TypeError('fetch failed: socket hang up (ECONNRESET)');
        case 'slow': {
          this.ingest(key, body);
          const e = new Error('This operation was aborted');
          e.name = 'AbortError';
          throw e;
        }
        case 'duplicate': {
          const first = this.ingest(key, body);
          this.ingest(key, body);
          return answer(first);
        }
        case 'reorder':
          this.held.push({ key, body });
          throw new TypeError('fetch failed: connect ETIMEDOUT');
        case 'restored-backup':
          this.restoreBackup(1 + (this.entries.length % 7));
          return answer(this.ingest(key, body));
        case null:
          return answer(this.ingest(key, body));
      }
    };
  }
}
