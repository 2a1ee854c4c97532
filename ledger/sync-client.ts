import type { Ledger } from './ledger.js';
import { AckMismatchError, outboxStats, readBatch, recordAck, recordSyncError, syncAnchor } from './outbox.js';
import { signRequest, SIGNATURE_HEADERS, type Credentials } from './sign.js';

export interface SyncLimits {
  /** Stop new bets when more entries than this are unacknowledged (default 50 000). */
  maxUnsyncedEntries?: number;
  /** … or when the oldest unacknowledged entry is older than this (default 4 h). */
  maxUnsyncedSeconds?: number;
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
  /** Divergence or refusal by the upstream: a technician must look; syncing holds at that point. */
  onAlarm?: (alarm: { kind: string; message: string }) => void;
  random?: () => number;
  now?: () => Date;
  fetch?: typeof fetch;
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
  lastError: string | null;
  lastErrorAt: string | null;
  lastSuccessAt: string | null;
  consecutiveFailures: number;
  stopNewBets: boolean;
}

/**
 * "Full jitter": uniform in [0, min(cap, base·2^failures)). Spreads the retries of many kiosks
 * coming back after an outage instead of synchronising them.
 */
export function backoffDelay(failures: number, baseMs: number, capMs: number, random: () => number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(failures, 30));
  return Math.floor(random() * ceiling);
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(`upstream answered ${status}: ${typeof body.error === 'string' ? body.error : ''} ${typeof body.message === 'string' ? body.message : ''}`.trim());
  }
}

/**
 * Sends the journal upstream, in order, in batches bounded by count and bytes; stores each
 * acknowledgement `(acked_seq, hash)` locally and resends from it after any failure. Nothing is
 * ever dropped: a refusal holds the stream at that point and raises an alarm.
 */
export class SyncClient {
  private readonly ledger: Ledger;
  private readonly o: Required<Omit<SyncOptions, 'onStopNewBets' | 'onAlarm' | 'limits'>> & Pick<SyncOptions, 'onStopNewBets' | 'onAlarm'>;
  private readonly limits: Required<SyncLimits>;
  private readonly key: Buffer;
  private readonly path = '/v1/ingest';
  private state: SyncStatus['state'] = 'stopped';
  private failures = 0;
  private stopSignal = false;
  private running: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private abort: AbortController | null = null;

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
    this.limits = { maxUnsyncedEntries: 50_000, maxUnsyncedSeconds: 4 * 3600, ...options.limits };
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
    this.running = this.loop().finally(() => {
      this.running = null;
      this.state = 'stopped';
    });
  }

  async stop(): Promise<void> {
    const r = this.running;
    this.state = 'stopped';
    this.abort?.abort();
    this.wake?.();
    await r;
  }

  /** New entries were journalled: send them now rather than at the next poll. */
  kick(): void {
    this.wake?.();
  }

  status(): SyncStatus {
    const anchor = syncAnchor(this.ledger);
    const stats = outboxStats(this.ledger);
    const now = this.o.now().getTime();
    const lagSeconds = stats.oldestQueuedAt ? Math.max(0, Math.floor((now - Date.parse(stats.oldestQueuedAt)) / 1000)) : 0;
    const s: SyncStatus = {
      state: this.state,
      terminalId: this.ledger.terminalId,
      upstream: this.o.url,
      ackedSeq: anchor.ackedSeq,
      headSeq: this.ledger.headOf().seq,
      lagEntries: stats.pending,
      lagSeconds,
      lastError: anchor.lastError,
      lastErrorAt: anchor.lastErrorAt,
      lastSuccessAt: anchor.lastSuccessAt,
      consecutiveFailures: this.failures,
      stopNewBets: stats.pending > this.limits.maxUnsyncedEntries || lagSeconds > this.limits.maxUnsyncedSeconds,
    };
    return s;
  }

  private checkLimits(): void {
    const s = this.status();
    if (s.stopNewBets !== this.stopSignal) {
      this.stopSignal = s.stopNewBets;
      this.o.onStopNewBets?.(s.stopNewBets, s);
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
    return backoffDelay(this.failures, this.o.backoffBaseMs, this.o.backoffCapMs, this.o.random);
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
      if (result === 'sent') continue;
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
    const batch = readBatch(this.ledger, anchor.ackedSeq, this.o.maxBatchEntries, this.o.maxBatchBytes);
    if (batch.entries.length === 0) return 'empty';
    if (!this.stopped()) this.state = 'sending';
    const body = JSON.stringify({ terminalId: this.ledger.terminalId, prevHash: batch.prevHash, entries: batch.entries });
    try {
      const ack = await this.post(body);
      recordAck(this.ledger, ack.ackedSeq, ack.headHash, this.o.now());
      this.failures = 0;
      if (!this.stopped()) this.state = 'idle';
      return 'sent';
    } catch (err) {
      this.failures++;
      let message = err instanceof Error ? err.message : String(err);
      if (
        err instanceof HttpError &&
        err.status === 409 &&
        // 'replay': a path that delivered our request twice; the upstream refused the copy and
        // says where its head is, exactly as for a gap.
        (err.body.error === 'gap' || err.body.error === 'replay') &&
        typeof err.body.ackedSeq === 'number' &&
        typeof err.body.headHash === 'string'
      ) {
        // The upstream holds less than we thought (restored from a backup): resend from its head,
        // provided its head is a point of our own chain.
        try {
          recordAck(this.ledger, err.body.ackedSeq, err.body.headHash, this.o.now());
          this.failures = 0;
          return 'sent';
        } catch (e) {
          message = e instanceof Error ? e.message : String(e);
        }
      }
      const fatal =
        err instanceof AckMismatchError || (err instanceof HttpError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429);
      if (fatal) {
        if (!this.stopped()) this.state = 'blocked';
        this.o.onAlarm?.({ kind: err instanceof HttpError ? `upstream-${err.status}` : 'ack-mismatch', message });
      }
      try {
        recordSyncError(this.ledger, message, this.o.now());
      } catch {
        // The journal itself is what matters; a failed error note must not stop the loop.
      }
      return 'failed';
    }
  }

  private async post(body: string): Promise<{ ackedSeq: number; headHash: string }> {
    const ts = this.o.now().getTime();
    const sig = signRequest(this.key, 'POST', this.path, this.ledger.terminalId, ts, body);
    this.abort = new AbortController();
    const timer = setTimeout(() => this.abort?.abort(), this.o.requestTimeoutMs);
    try {
      const res = await this.o.fetch(`${this.o.url}${this.path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADERS.terminal]: this.ledger.terminalId,
          [SIGNATURE_HEADERS.timestamp]: String(ts),
          [SIGNATURE_HEADERS.signature]: sig,
        },
        body,
        signal: this.abort.signal,
      });
      const text = await res.text();
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        json = { error: 'not-json', message: text.slice(0, 200) };
      }
      if (res.status !== 200) throw new HttpError(res.status, json);
      if (typeof json.ackedSeq !== 'number' || typeof json.headHash !== 'string') throw new Error('upstream answered without an acknowledgement');
      return { ackedSeq: json.ackedSeq, headHash: json.headHash };
    } finally {
      clearTimeout(timer);
    }
  }
}
