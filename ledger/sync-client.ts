import { backoffDelay } from '../engine/backoff.js';
import type { Ledger } from './ledger.js';
import { AckMismatchError, outboxStats, readBatch, recordAck, recordSyncError, syncAnchor } from './outbox.js';
import { signRequest, SIGNATURE_HEADERS, type Credentials } from './sign.js';
import { keepReceipt, readReceipt, RECEIPT_FILE } from './receipts.js';
import { receiptProblem, type SyncAlarm } from './sync-alarm.js';
import { AnswerTooLarge, boundedText } from './bounded-answer.js';
export { ANSWER_BYTES_MAX } from './bounded-answer.js';
import { checkAnswer, ErrorAnswer, HeartbeatAck, IngestAck, IngestGap, WireError } from './wire.js';
import { UnsyncedAges } from './unsynced-ages.js';

export interface SyncLimits {
  /** Stop new bets when more entries than this are unacknowledged (default 50 000). */
  maxUnsyncedEntries?: number;
  /** … or when the oldest unacknowledged entry is older than this (default 4 h). */
  maxUnsyncedSeconds?: number;
  /**
   * Milliseconds on a clock that only moves forward (default `performance.now`), that age is
   * counted on for the entries journalled while the client runs: a wall clock set back does not
   * make them young again (ledger/unsynced-ages.ts).
   */
  monotonic?: () => number;
}

export interface SyncOptions {
  /** The upstream's base URL, e.g. `https://ledger.casino.example` (HTTP only on loopback). */
  url: string;
  credentials: Credentials;
  maxBatchEntries?: number;
  maxBatchBytes?: number;
  /** Full-jitter exponential backoff: wait uniform(0, min(cap, base·2^failures)). */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** How often to look for new entries when caught up (appends can also call `kick()`). */
  idleMs?: number;
  requestTimeoutMs?: number;
  limits?: SyncLimits;
  /** Called when the stop-new-bets signal changes. Players may still finish rounds and cash out. */
  onStopNewBets?: (stop: boolean, status: SyncStatus) => void;
  /**
   * Every failed sync: the error's text (for the log), its reason as codes (for a screen), and how
   * many syncs in a row have failed with it (1: the first since a success).
   */
  onError?: (message: string, reason: SyncErrorReason, streak: number) => void;
  /** Divergence or refusal by the upstream: a technician must look; syncing holds at that point. */
  onAlarm?: (alarm: SyncAlarm) => void;
  /** A callback above threw (the host's fault refused by a full journal): caught so the loop goes on, told here (the host logs it). */
  onCallbackError?: (err: unknown) => void;
  /**
   * The kiosk's heartbeat: every `intervalMs` (default 30 s) its health snapshot goes to
   * `POST /v1/heartbeat`, signed like a batch, whether or not there is anything to sync, so the
   * upstream tells an idle table from a dead one.
   */
  heartbeat?: { snapshot: () => unknown; intervalMs?: number };
  /**
   * The back office's configuration orders (issue 49 item 6): after each heartbeat acknowledged,
   * `POST /v1/config-orders` (signed like a batch), and its answer handed over as it came. The
   * client checks nothing of it: the table checks every order's signature and content itself.
   */
  configOrders?: (answer: unknown) => void;
  /**
   * The upstream's time as it said it: its heartbeat's `serverTime`, or the one its refusal of a
   * heartbeat as `clock-skew` carries, and how long that answer took (the table's clock is held to
   * it: host/tickets/floor-clock.ts).
   */
  onServerTime?: (serverTime: string, rttMs: number) => void;
  random?: () => number;
  now?: () => Date;
  fetch?: typeof fetch;
  /**
   * Where to keep the upstream's newest receipt (the kiosk's data folder, ledger/receipts.ts). A
   * receipt is kept only when it names the head acknowledged and verifies with the upstream's
   * receipt key from the credentials (none there: none kept); otherwise `onAlarm` hears `bad-receipt`.
   */
  receiptsDir?: string;
}

export interface SyncStatus {
  state: 'stopped' | 'idle' | 'sending' | 'backoff' | 'blocked';
  terminalId: string;
  upstream: string;
  ackedSeq: number;
  headSeq: number;
  lagEntries: number;
  /** Age of the oldest unacknowledged entry, 0 when in sync. */
  lagSeconds: number;
  /** The last failure's text (the ledger's sync anchor keeps it across restarts): for the log, not a screen. */
  lastError: string | null;
  /** Why it failed, as codes a screen words; null before the first failure of this run (or none). */
  lastErrorReason: SyncErrorReason | null;
  lastErrorAt: string | null;
  lastSuccessAt: string | null;
  consecutiveFailures: number;
  stopNewBets: boolean;
  /** The last heartbeat sent, when heartbeats are on. */
  heartbeat?: { at: string; ok: boolean; error: string | null } | null;
}

/**
 * Why a sync failed, as codes: the upstream not reached, not answering in time, refusing (its HTTP
 * status and its error code), answering what the table cannot read, acknowledging entries that are
 * not the table's; else `other`.
 */
export type SyncErrorReason =
  { reason: 'unreachable' | 'timeout' | 'badAnswer' | 'ackMismatch' | 'other' } | { reason: 'refused'; status: number; error?: string };

/** The reason of a failed sync's error. */
export function syncErrorReason(err: unknown): SyncErrorReason {
  if (err instanceof HttpError) {
    const code = typeof err.body.error === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(err.body.error) ? { error: err.body.error } : {};
    return { reason: 'refused', status: err.status, ...code };
  }
  if (err instanceof AckMismatchError) return { reason: 'ackMismatch' };
  if (err instanceof WireError || err instanceof ShortAck || err instanceof NotJsonAnswer || err instanceof AnswerTooLarge) return { reason: 'badAnswer' };
  if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) return { reason: 'timeout' };
  // fetch's own failure (refused, reset, no route, a name not found): the upstream was not reached.
  if (err instanceof TypeError && err.message === 'fetch failed') return { reason: 'unreachable' };
  return { reason: 'other' };
}

/**
 * A 200 acknowledging less than the batch sent: an honest upstream answers its head, at or past the
 * batch's last entry, once it stored them all. Recorded (it may go backwards, which is an alarm),
 * then a failed sync, waited out: taken as 'sent', a liar alternating it with a whole
 * acknowledgement had the batch sent again at once, as fast as it answered.
 */
class ShortAck extends Error {
  constructor(acked: number, first: number, last: number) {
    super(`the upstream acknowledged entry ${acked} of a batch of entries ${first}–${last}: it answered 200 for entries it does not hold`);
    this.name = 'ShortAck';
  }
}

/** An upstream's 200 answer that is not JSON. */
class NotJsonAnswer extends Error {
  constructor(path: string) {
    super(`upstream answered ${path} with something that is not JSON`);
    this.name = 'NotJsonAnswer';
  }
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    // Cut: the refusal's words are the upstream's, up to the answer's 4 MiB, and the host logs them at every retry.
    const said = (v: unknown, max: number) => (typeof v === 'string' ? (v.length > max ? `${v.slice(0, max)}…` : v) : '');
    super(`upstream answered ${status}: ${said(body.error, 64)} ${said(body.message, 300)}`.trim());
  }
}

/**
 * Sends the journal upstream, in order, in batches bounded by count and bytes; stores each
 * acknowledgement `(acked_seq, hash)` locally and resends from it after any failure. Nothing is
 * ever dropped: a refusal holds the stream at that point and raises an alarm.
 */
export class SyncClient {
  private readonly ledger: Ledger;
  private readonly o: Required<
    Omit<SyncOptions, 'onStopNewBets' | 'onAlarm' | 'onError' | 'onCallbackError' | 'limits' | 'heartbeat' | 'receiptsDir' | 'configOrders' | 'onServerTime'>
  > &
    Pick<SyncOptions, 'onStopNewBets' | 'onAlarm' | 'onError' | 'onCallbackError' | 'heartbeat' | 'receiptsDir' | 'configOrders' | 'onServerTime'>;
  private readonly receiptKey: string | undefined;
  private uncheckedSaid = false;
  /** A receipt could not be written (said once until one is kept again). */
  private receiptUnwritten = false;
  private readonly limits: Required<SyncLimits>;
  private readonly key: Buffer;
  private readonly path = '/v1/ingest';
  private state: SyncStatus['state'] = 'stopped';
  private failures = 0;
  /** Why the last sync of this run failed (the anchor keeps only its text). */
  private lastReason: SyncErrorReason | null = null;
  private stopSignal = false;
  /** Gaps followed in this run (the acknowledgement rewound to the upstream's head), and whether the last send was one. */
  private rewinds = 0;
  private rewound = false;
  private running: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private abort: AbortController | null = null;
  private heartbeatTimer: ReturnType<typeof setTimeout> | null = null;
  /** The heartbeats under way (each with its orders), aborted and waited for by `stop`. */
  private readonly beats = new Set<{ abort: AbortController; done: Promise<boolean> }>();
  private lastHeartbeat: { at: string; ok: boolean; error: string | null } | null = null;
  /** When the entries not yet acknowledged were journalled, on the monotonic clock (the age limit; unsynced-ages.ts). */
  private readonly ages: UnsyncedAges;

  constructor(ledger: Ledger, options: SyncOptions) {
    if (options.credentials.terminalId !== ledger.terminalId) {
      throw new Error(`credentials are for terminal ${options.credentials.terminalId}, the ledger is ${ledger.terminalId}`);
    }
    const url = new URL(options.url);
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
      throw new Error(`upstream must be https:// (plain http only on loopback), not ${options.url}`);
    }
    this.ledger = ledger;
    this.key = Buffer.from(options.credentials.key, 'base64');
    this.receiptKey = options.credentials.receiptKey;
    this.limits = { maxUnsyncedEntries: 50_000, maxUnsyncedSeconds: 4 * 3600, monotonic: () => performance.now(), ...options.limits };
    this.ages = new UnsyncedAges(ledger, () => this.o.now(), this.limits.monotonic);
    this.o = {
      maxBatchEntries: 500,
      maxBatchBytes: 512 * 1024,
      backoffBaseMs: 250,
      backoffCapMs: 60_000,
      idleMs: 1000,
      requestTimeoutMs: 15_000,
      random: Math.random,
      now: () => new Date(),
      fetch: globalThis.fetch.bind(globalThis),
      ...options,
      url: options.url.replace(/\/+$/, ''),
    };
  }

  start(): void {
    if (this.running) return;
    this.state = 'idle';
    this.ages.start();
    this.running = this.loop().finally(() => {
      this.running = null;
      this.state = 'stopped';
    });
    if (this.o.heartbeat) this.scheduleHeartbeat(0);
  }

  private scheduleHeartbeat(ms: number): void {
    this.heartbeatTimer = setTimeout(() => {
      void this.sendHeartbeat().finally(() => {
        if (!this.stopped()) this.scheduleHeartbeat(this.o.heartbeat?.intervalMs ?? 30_000);
      });
    }, ms);
    this.heartbeatTimer.unref?.();
  }

  /**
   * One heartbeat now: true when the upstream acknowledged it. Never throws; the outcome is in
   * status(). Each is kept while under way, so `stop` aborts it and waits for it: an answer that
   * came after the stop would ask for orders and hand them to a host that has closed its ledger.
   */
  async sendHeartbeat(): Promise<boolean> {
    const abort = new AbortController();
    const beat = { abort, done: this.heartbeatOnce(abort) };
    this.beats.add(beat);
    try {
      return await beat.done;
    } finally {
      this.beats.delete(beat);
    }
  }

  private async heartbeatOnce(abort: AbortController): Promise<boolean> {
    const at = this.o.now().toISOString();
    const sent = performance.now();
    try {
      const health = this.o.heartbeat?.snapshot() ?? {};
      const body = JSON.stringify({ terminalId: this.ledger.terminalId, at, health });
      const ack = checkAnswer(HeartbeatAck, 'heartbeat acknowledgement', await this.signedPost('/v1/heartbeat', body, abort));
      this.serverTime(ack.serverTime, sent);
      this.lastHeartbeat = { at, ok: true, error: null };
      await this.askOrders(abort);
      return true;
    } catch (e) {
      // Refused for this table's clock: the refusal says the upstream's.
      if (e instanceof HttpError && e.status === 401 && e.body.error === 'clock-skew' && typeof e.body.serverTime === 'string')
        this.serverTime(e.body.serverTime, sent);
      this.lastHeartbeat = { at, ok: false, error: e instanceof Error ? e.message : String(e) };
      return false;
    }
  }

  /** The upstream's time handed on, with the answer's round trip since `sent`; a throw of the taker is caught (the heartbeat goes on). */
  private serverTime(serverTime: string, sent: number): void {
    try {
      this.o.onServerTime?.(serverTime, performance.now() - sent);
    } catch (err) {
      this.o.onCallbackError?.(err);
    }
  }

  /** The upstream's public key from the credentials (its receipts' and its orders' signatures), if the enrolment gave one. */
  get upstreamKey(): string | undefined {
    return this.receiptKey;
  }

  /** The back office's orders for this terminal, handed to `configOrders`; a failure waits for the next heartbeat. */
  private async askOrders(abort: AbortController): Promise<void> {
    const take = this.o.configOrders;
    // Stopped while the heartbeat was answered: nothing is asked, nor handed over.
    if (!take || abort.signal.aborted) return;
    try {
      const body = JSON.stringify({ terminalId: this.ledger.terminalId });
      const answer = await this.signedPost('/v1/config-orders', body, abort);
      if (!abort.signal.aborted) take(answer);
    } catch {
      // An older service has no such route, or the request failed: asked again after the next heartbeat.
    }
  }

  async stop(): Promise<void> {
    const r = this.running;
    this.state = 'stopped';
    this.ages.stop();
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.abort?.abort();
    const beats = [...this.beats];
    for (const b of beats) b.abort.abort();
    this.wake?.();
    await Promise.all([r, ...beats.map((b) => b.done)]);
  }

  /** New entries were journalled: send them now rather than at the next poll. */
  kick(): void {
    this.wake?.();
  }

  status(): SyncStatus {
    const anchor = syncAnchor(this.ledger);
    const stats = outboxStats(this.ledger);
    const now = this.o.now().getTime();
    const wallLag = stats.oldestQueuedAt ? Math.max(0, Math.floor((now - Date.parse(stats.oldestQueuedAt)) / 1000)) : 0;
    const lagSeconds = this.ages.lagSeconds(wallLag, stats.pending);
    const s: SyncStatus = {
      state: this.state,
      terminalId: this.ledger.terminalId,
      upstream: this.o.url,
      ackedSeq: anchor.ackedSeq,
      headSeq: this.ledger.headOf().seq,
      lagEntries: stats.pending,
      lagSeconds,
      lastError: anchor.lastError,
      lastErrorReason: this.lastReason,
      lastErrorAt: anchor.lastErrorAt,
      lastSuccessAt: anchor.lastSuccessAt,
      consecutiveFailures: this.failures,
      stopNewBets: stats.pending > this.limits.maxUnsyncedEntries || lagSeconds > this.limits.maxUnsyncedSeconds,
      ...(this.o.heartbeat ? { heartbeat: this.lastHeartbeat } : {}),
    };
    return s;
  }

  /**
   * Outside the loop's try: a receiver's throw rejected the loop, whose promise no one handles (the
   * host process ended; a review of 2 December, H4). Caught, the signal counts as not given, and is
   * given again at the loop's next pass.
   */
  private checkLimits(): void {
    const s = this.status();
    if (s.stopNewBets === this.stopSignal) return;
    try {
      this.o.onStopNewBets?.(s.stopNewBets, s);
      this.stopSignal = s.stopNewBets;
    } catch (e) {
      this.o.onCallbackError?.(e);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  /** The state is changed by stop() while a request is awaited, so read it through a call. */
  private stopped(): boolean {
    return this.state === 'stopped';
  }

  private backoffMs(): number {
    // "Full jitter" (all of the wait random): spreads the retries of many kiosks coming back
    // after an upstream outage instead of synchronising them.
    return backoffDelay(this.failures, { baseMs: this.o.backoffBaseMs, capMs: this.o.backoffCapMs, jitter: { share: 1, random: this.o.random } });
  }

  private async loop(): Promise<void> {
    while (!this.stopped()) {
      let result: 'sent' | 'empty' | 'failed';
      try {
        result = await this.syncOnce();
      } catch {
        result = 'failed';
      }
      this.checkLimits();
      if (this.stopped()) break;
      if (result === 'sent' && !this.rewound) continue;
      if (result === 'sent') {
        // A gap followed: the next send waits, longer at each rewind of this run (an honest restore
        // rewinds once; a liar alternating a gap below with an acknowledgement past it was followed at once).
        this.rewound = false;
        await this.sleep(
          backoffDelay(this.rewinds - 1, { baseMs: this.o.backoffBaseMs, capMs: this.o.backoffCapMs, jitter: { share: 1, random: this.o.random } }),
        );
        continue;
      }
      if (result === 'empty') {
        this.state = 'idle';
        await this.sleep(this.o.idleMs);
      } else {
        if (this.state !== 'blocked') this.state = 'backoff';
        await this.sleep(this.backoffMs());
      }
    }
  }

  /** One batch: 'sent' (acknowledged), 'empty' (in sync) or 'failed' (will retry after backoff). */
  async syncOnce(): Promise<'sent' | 'empty' | 'failed'> {
    const anchor = syncAnchor(this.ledger);
    try {
      // A journal without the entry acknowledged (its tail cut) is an AckMismatchError: an alarm, not a throw out of the loop.
      const batch = readBatch(this.ledger, anchor.ackedSeq, this.o.maxBatchEntries, this.o.maxBatchBytes);
      if (batch.entries.length === 0) return 'empty';
      if (!this.stopped()) this.state = 'sending';
      const body = JSON.stringify({ terminalId: this.ledger.terminalId, prevHash: batch.prevHash, entries: batch.entries });
      const ack = await this.post(body);
      // Recorded first: an acknowledgement naming a hash this journal does not hold is refused there
      // (ack-mismatch) before it could be called a loss that is sent again.
      recordAck(this.ledger, ack.ackedSeq, ack.headHash, this.o.now());
      this.backwards(anchor.ackedSeq, ack.ackedSeq);
      this.ages.acknowledged(anchor.ackedSeq, ack.ackedSeq);
      this.keep(ack);
      const last = batch.entries[batch.entries.length - 1]!;
      if (ack.ackedSeq < last.seq) throw new ShortAck(ack.ackedSeq, batch.entries[0]!.seq, last.seq);
      this.failures = 0;
      this.lastReason = null;
      if (!this.stopped()) this.state = 'idle';
      return 'sent';
    } catch (err) {
      this.failures++;
      let message = err instanceof Error ? err.message : String(err);
      let cause: unknown = err;
      // 'replay': a path that delivered our request twice; the upstream refused the copy and says
      // where its head is, exactly as for a gap.
      const gap = err instanceof HttpError && err.status === 409 ? IngestGap.safeParse(err.body) : null;
      // A gap or a copy answered at the head already acknowledged moves nothing: a failure, waited out
      // (taken as 'sent', the loop asked again at once, as fast as the upstream answered).
      if (gap?.success && gap.data.ackedSeq === anchor.ackedSeq) {
        message = `the upstream answered ${gap.data.error} at entry ${gap.data.ackedSeq}, where this table's acknowledgement already stands: nothing moved`;
      } else if (gap?.success) {
        // The upstream holds less than we thought (restored from a backup): resend from its head,
        // provided its head is a point of our own chain.
        try {
          recordAck(this.ledger, gap.data.ackedSeq, gap.data.headHash, this.o.now());
          this.backwards(anchor.ackedSeq, gap.data.ackedSeq);
          this.ages.acknowledged(anchor.ackedSeq, gap.data.ackedSeq);
          this.rewinds++;
          this.rewound = true;
          this.failures = 0;
          this.lastReason = null;
          return 'sent';
        } catch (e) {
          message = e instanceof Error ? e.message : String(e);
          cause = e;
        }
      }
      this.lastReason = syncErrorReason(cause);
      this.o.onError?.(message, this.lastReason, this.failures);
      const fatal =
        cause instanceof AckMismatchError || (err instanceof HttpError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429);
      if (fatal) {
        if (!this.stopped()) this.state = 'blocked';
        // A gap naming a hash this journal does not hold is a mismatch, as a 200 naming one is.
        this.o.onAlarm?.({ kind: err instanceof HttpError && !(cause instanceof AckMismatchError) ? `upstream-${err.status}` : 'ack-mismatch', message });
      }
      try {
        recordSyncError(this.ledger, message, this.o.now());
      } catch {
        // The journal itself is what matters; a failed error note must not stop the loop.
      }
      return 'failed';
    }
  }

  private async post(body: string): Promise<IngestAck> {
    this.abort = new AbortController();
    return checkAnswer(IngestAck, 'acknowledgement', await this.signedPost(this.path, body, this.abort));
  }

  /**
   * An acknowledgement below the one recorded before: the upstream no longer holds entries it
   * acknowledged (restored from a backup, or lying). The entries go again (recordAck queues them),
   * and it is an alarm, never followed silently: someone must ask why the casino's copy lost them.
   */
  private backwards(before: number, acked: number): void {
    if (acked >= before) return;
    this.o.onAlarm?.({
      kind: 'ack-backwards',
      message: `the upstream acknowledged entry ${acked}, having acknowledged entry ${before} before: its copy lost ${before - acked} entries; they are sent again`,
    });
  }

  /**
   * Keeps the acknowledgement's receipt (after the ack is recorded: a receipt never stops the
   * sync). One that names another head, or does not verify with the upstream's key, is an alarm
   * and is not kept; so is every receipt while the credentials carry no receipt key (an older
   * enrolment): a receipt nobody checked, kept, would be believed by nothing and, once the real
   * key came back, would stop the start until someone deleted it.
   */
  private keep(ack: IngestAck): void {
    const dir = this.o.receiptsDir;
    const r = ack.receipt;
    if (!dir || !r) return;
    const problem = receiptProblem(ack, r, this.receiptKey, this.ledger.terminalId);
    if (problem) {
      // Unchecked receipts come with every acknowledgement: said once per run, not per batch.
      if (this.receiptKey || !this.uncheckedSaid) this.o.onAlarm?.(problem);
      if (!this.receiptKey) this.uncheckedSaid = true;
      return;
    }
    let newer: boolean;
    try {
      newer = (readReceipt(dir)?.seq ?? -1) <= r.seq;
    } catch {
      // A receipt file that is not one (edited, or cut by a power loss) is replaced by this good one.
      newer = true;
    }
    if (!newer) return;
    try {
      keepReceipt(dir, r);
      this.receiptUnwritten = false;
    } catch (e) {
      // The acknowledgement is recorded whatever the disk does: said once until a receipt is kept again.
      if (this.receiptUnwritten) return;
      this.receiptUnwritten = true;
      const why = e instanceof Error ? e.message : String(e);
      this.o.onAlarm?.({
        kind: 'receipt-unwritten',
        message: `the upstream's receipt of entry ${r.seq} could not be written to ${RECEIPT_FILE} (${why.slice(0, 200)}): the sync goes on; the kept receipt is older until the disk takes one`,
      });
    }
  }

  /** A signed POST; the parsed JSON of a 200, else an HttpError carrying the refusal (checked as one). */
  private async signedPost(path: string, body: string, abort: AbortController): Promise<unknown> {
    const ts = this.o.now().getTime();
    const sig = signRequest(this.key, 'POST', path, this.ledger.terminalId, ts, body);
    const timer = setTimeout(() => abort.abort(), this.o.requestTimeoutMs);
    try {
      const res = await this.o.fetch(`${this.o.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADERS.terminal]: this.ledger.terminalId,
          [SIGNATURE_HEADERS.timestamp]: String(ts),
          [SIGNATURE_HEADERS.signature]: sig,
        },
        body,
        signal: abort.signal,
        // Never followed: a 307/308 would send this body and its signature to wherever it points
        // (http too), and the acknowledgement from there would be believed.
        redirect: 'manual',
      });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        const to = (res.headers.get('location') ?? '').slice(0, 200);
        throw new HttpError(res.status, { error: 'redirect', message: `a redirect${to ? ` to ${to}` : ''}, not followed` });
      }
      const text = await boundedText(res, path);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      if (res.status !== 200) {
        const refusal = ErrorAnswer.safeParse(json);
        throw new HttpError(res.status, refusal.success ? refusal.data : { error: 'not-json', message: text.slice(0, 200) });
      }
      if (json === undefined) throw new NotJsonAnswer(path);
      return json;
    } finally {
      clearTimeout(timer);
    }
  }
}
