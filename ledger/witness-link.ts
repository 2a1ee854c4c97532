import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, type Backoff } from '../engine/backoff.js';
import { MAX_LINKS, type RefusalReason, type SignedHead } from '../witness/wire.js';
import { genesisHash } from './canonical.js';
import { latestCheckpoint } from './checkpoint.js';
import { connectionOf, internalsOf, type Ledger } from './ledger.js';
import { UnwitnessedAges } from './unwitnessed-ages.js';
import { WitnessProtocolError, WitnessRefused, WitnessUnreachable, type WitnessClient, type WitnessIdentity } from './witness-client.js';

/** The bodies one `fold` request carries at most, in characters (the witness takes 4 MiB a line). */
const FOLD_CHARS = 1024 * 1024;

/**
 * The witness's refusals of the host's own checkpoint that say the ledger is not what its journal
 * makes: the state it holds is not the entries' (`not-derived`: balances, meters or open bets
 * edited beside the journal), an entry's effects do not add up (`bad-entry`), the witness
 * signed another state at that entry before (`checkpoint-conflict`), or the bodies sent to its fold
 * do not lead to the hashes it signed (`bad-chain`, `diverging`: a body rewritten under its hash
 * columns, which a review found let the balance edit above pass unseen). Each is a refusal of the
 * ledger like a diverging head; the others (`not-at-head`, `fold-behind`: the witness's head or
 * fold moved meanwhile) only cost the checkpoint.
 */
const CHECKPOINT_INTEGRITY: ReadonlySet<RefusalReason> = new Set(['not-derived', 'bad-entry', 'checkpoint-conflict', 'bad-chain', 'diverging']);

export type WitnessAlarmKind = 'witness-refused' | 'witness-protocol' | 'witness-backwards';

/**
 * A witness alarm: its kind and its text (the log's), with what a screen words it by: the
 * refusal's reason (`witness-refused`), the head it went back from and to (`witness-backwards`).
 */
export type WitnessAlarm =
  | { kind: 'witness-refused'; message: string; refusal: RefusalReason }
  | { kind: 'witness-protocol'; message: string }
  | { kind: 'witness-backwards'; message: string; from: number; to: number };

export interface WitnessLimits {
  /** Stop new bets when more entries than this are not yet witnessed (default 1,000)… */
  maxUnwitnessedEntries?: number;
  /** … or when the oldest of them was journalled longer ago than this (default 60 s). */
  maxUnwitnessedSeconds?: number;
}

export interface WitnessLinkOptions {
  limits?: WitnessLimits;
  /** Called when the stop-new-bets signal changes: new bets stop, rounds in play finish, cash-outs go on. */
  onStopNewBets?: (stop: boolean, status: WitnessStatus) => void;
  /**
   * The witness refused the journal (`diverging`, `lower`: it was rewritten or lost entries since
   * the witness signed them) or the host's own checkpoint (`not-derived`, `bad-entry`,
   * `checkpoint-conflict`: the state the ledger holds is not its entries'), or answers out of
   * protocol (`witness-protocol`: a signature that does not verify with its key, a line not of the
   * protocol; raised once until a request passes, the link trying again meanwhile), or its head went
   * back below one it had signed, or it holds none of this terminal any more (`witness-backwards`,
   * the link going on from its head, or from genesis): someone must look.
   */
  onAlarm?: (alarm: WitnessAlarm) => void;
  /** A callback above threw (the host's fault refused by a full journal): caught so the loop goes on, told here (the host logs it). */
  onCallbackError?: (err: unknown) => void;
  /** Waits between tries while the witness does not answer: doubling from this (default 250 ms) up to 10 s. */
  retryMs?: number;
  /**
   * At most one head is sent per this many ms (default 100): the heads committed meanwhile go in the
   * next request. Each answer costs the witness an fsync on the disk the journal's own commits
   * fsync on; at a table's pace (a few commits a second) every commit still goes alone, and in a
   * burst this bounds the witness's share of the disk. 0: send as soon as the last answer came.
   */
  batchMs?: number;
  /** How long the loop waits with nothing to send before it looks again (default 1 s); an append wakes it at once. */
  idleMs?: number;
  /**
   * Milliseconds on a clock that only moves forward, for the age of what waits (default
   * `performance.now`): on the wall clock, a step back (NTP, a technician setting the time) hid a
   * witness gone for the step's length, and a step forward stopped new bets at once.
   */
  monotonic?: () => number;
}

export interface WitnessStatus {
  state: 'idle' | 'sending' | 'offline' | 'refused' | 'stopped';
  address: string;
  keyId: string;
  keyStore: 'tpm' | 'file';
  /** The newest entry the witness signed. */
  witnessedSeq: number;
  headSeq: number;
  lagEntries: number;
  /** How long the oldest entry not yet witnessed has waited (0 when none waits). */
  lagSeconds: number;
  lastError: string | null;
  stopNewBets: boolean;
}

/**
 * The waits between tries while the witness does not answer: doubling from `retryMs` up to 10 s.
 * No jitter: the witness serves this one host on its own machine, no crowd comes back with it.
 */
function witnessRetry(o: WitnessLinkOptions): Backoff {
  return { baseMs: o.retryMs ?? 250, capMs: 10_000 };
}

/**
 * The host's link to the ledger witness. At start (`attach`) it asks the witness for its key and
 * the newest head it signed of this terminal, which the start's verification checks the journal
 * against (ledger/witness-check.ts); the witness also signs this ledger's checkpoints from then on.
 * Then (`start`) it sends every new head after its commit, with the content hash of each entry in
 * between so the witness can check the chain: one request in flight at a time, the heads committed
 * meanwhile going in the next one. It never holds a commit back: what it adds to a journal commit
 * is an array push and a wake-up (`npm run bench -- ledger` measures it).
 *
 * When the witness does not answer, the journal goes on (nothing a player is owed depends on the
 * witness) and the link tries again; past the limits (`WitnessLimits`) new bets stop until the
 * witness has caught up, so the stretch of journal nobody outside the host has seen stays short.
 */
export class WitnessLink {
  private witnessed: { seq: number; hash: string };
  private signed: SignedHead | null;
  private state: WitnessStatus['state'] = 'stopped';
  private lastError: string | null = null;
  /** The refusal that stopped the link (state `refused`), rethrown by `flush`. */
  private refusal: WitnessRefused | null = null;
  private failures = 0;
  /** The `witness-protocol` alarm was raised since the last request that passed (once per stretch). */
  private protocolAlarmed = false;
  private stopSignal = false;
  /** When the entries not yet witnessed were journalled, oldest first (`UnwitnessedAges`). */
  private readonly ages = new UnwitnessedAges();
  private running: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** Work came while the loop was not waiting (a request in flight, or just started): its next wait is skipped. */
  private poked = false;
  private stopping = false;
  private lastSentAt = 0;
  private unsubscribe: (() => void) | null = null;
  /** Where the witness's fold of the entries' effects stands, as last heard (null: ask). */
  private folded: { seq: number; hash: string } | null = null;
  private pendingCheckpoint: {
    seq: number;
    hash: string;
    state: string;
    resolve: (s: string) => void;
    reject: (e: Error) => void;
  } | null = null;
  private readonly monotonic: () => number;

  private constructor(
    private readonly ledger: Ledger,
    private readonly client: WitnessClient,
    private readonly identity: WitnessIdentity,
    head: SignedHead | null,
    private readonly o: WitnessLinkOptions,
  ) {
    this.signed = head;
    this.witnessed = head ? { seq: head.seq, hash: head.hash } : { seq: 0, hash: genesisHash(ledger.terminalId) };
    this.monotonic = o.monotonic ?? (() => performance.now());
  }

  /**
   * Asks the witness at `client` who it is and the newest head it signed of this ledger's
   * terminal, and hands both to the ledger: its verification then checks the journal against
   * them, and its checkpoints are the witness's to sign. Tries again while the witness does not
   * answer, for up to `waitMs` (default 60 s), then throws WitnessUnreachable: the host does not
   * start on a journal nobody outside it can vouch for.
   */
  static async attach(ledger: Ledger, client: WitnessClient, o: WitnessLinkOptions & { waitMs?: number } = {}): Promise<WitnessLink> {
    const until = performance.now() + (o.waitMs ?? 60_000);
    const retry = witnessRetry(o);
    for (let attempt = 0; ; attempt++) {
      try {
        const identity = await client.hello();
        const head = await client.head(ledger.terminalId);
        const link = new WitnessLink(ledger, client, identity, head, o);
        internalsOf(ledger).useWitness({
          ...identity,
          address: client.socketPath,
          head,
          firstUse: true,
          signCheckpoint: (seq, hash, state) => link.signCheckpoint(seq, hash, state),
        });
        return link;
      } catch (e) {
        const delay = backoffDelay(attempt, retry);
        if (!(e instanceof WitnessUnreachable) || performance.now() + delay > until) throw e;
        await sleep(delay);
      }
    }
  }

  /** Starts sending heads: those already journalled past the witness's, then each new one. */
  start(): void {
    if (this.running) return;
    this.state = 'idle';
    this.unsubscribe = this.ledger.onAppended((entries) => {
      const first = entries[0];
      if (first) this.ages.appended(first.seq, this.monotonic());
      this.poke();
    });
    if (this.ledger.headOf().seq > this.witnessed.seq) this.ages.appended(this.witnessed.seq + 1, this.monotonic());
    this.behindItsCheckpoint();
    this.running = this.loop().finally(() => {
      this.running = null;
      this.state = 'stopped';
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.wake?.();
    await this.running;
    this.pendingCheckpoint?.reject(new WitnessUnreachable('the witness link stopped'));
    this.pendingCheckpoint = null;
    this.client.close();
  }

  /**
   * Resolves once the witness has signed the head as it stands now, and the checkpoint asked for
   * before, if any (tests, the bench's strict mode, a clean stop).
   */
  async flush(timeoutMs = 10_000): Promise<void> {
    const target = this.ledger.headOf().seq;
    const until = performance.now() + timeoutMs;
    while (this.witnessed.seq < target || this.pendingCheckpoint !== null) {
      if (this.state === 'refused') throw this.refusal ?? new WitnessRefused('diverging', this.lastError ?? 'refused', this.signed);
      if (performance.now() > until)
        throw new WitnessUnreachable(`the witness did not reach entry ${target} within ${timeoutMs} ms (${this.lastError ?? 'no answer'})`);
      this.wake?.();
      await sleep(1);
    }
  }

  /** The newest head the witness signed through this link (or at attach). */
  newestSigned(): SignedHead | null {
    return this.signed;
  }

  status(): WitnessStatus {
    const headSeq = this.ledger.headOf().seq;
    const lagEntries = Math.max(0, headSeq - this.witnessed.seq);
    const since = lagEntries > 0 ? this.ages.oldest() : null;
    const lagSeconds = since !== null ? Math.max(0, Math.floor((this.monotonic() - since) / 1000)) : 0;
    const limits = { maxUnwitnessedEntries: 1000, maxUnwitnessedSeconds: 60, ...this.o.limits };
    return {
      state: this.state,
      address: this.client.socketPath,
      keyId: this.identity.keyId,
      keyStore: this.identity.keyStore,
      witnessedSeq: this.witnessed.seq,
      headSeq,
      lagEntries,
      lagSeconds,
      lastError: this.lastError,
      stopNewBets: this.state === 'refused' || lagEntries > limits.maxUnwitnessedEntries || lagSeconds > limits.maxUnwitnessedSeconds,
    };
  }

  /**
   * The witness's signature of a checkpoint of `state` (its exact text) at (seq, hash): sent once
   * the witness's head stands there (the link stops its next request at that entry), after the
   * bodies of the entries since its fold (the witness signs only the state it derives itself). A
   * newer checkpoint asked for before an older one was signed replaces it.
   */
  signCheckpoint(seq: number, hash: string, state: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      if (seq < this.witnessed.seq) {
        reject(new WitnessUnreachable(`the witness's head is already past entry ${seq}`));
        return;
      }
      this.pendingCheckpoint?.reject(new WitnessUnreachable(`checkpoint ${this.pendingCheckpoint.seq} superseded by ${seq}`));
      this.pendingCheckpoint = { seq, hash, state, resolve, reject };
      this.poke();
    });
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

  /** The alarm, raised from the loop's catch: a receiver's throw there is caught and told, as a signal's (checkLimits). */
  private alarm(alarm: WitnessAlarm): void {
    try {
      this.o.onAlarm?.(alarm);
    } catch (e) {
      this.o.onCallbackError?.(e);
    }
  }

  /** Wakes the loop's wait, or, when it is not waiting, has it skip its next one (an entry appended right after `start`). */
  private poke(): void {
    if (this.wake) this.wake();
    else this.poked = true;
  }

  /**
   * Sleeps `ms`, or until woken (new entries, a checkpoint, a stop), at once when work came since
   * the last step began; `hold`: only a stop wakes it.
   */
  private waitForWork(ms: number, hold = false): Promise<void> {
    if (!hold && this.poked) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.wake = null;
        resolve();
      };
      const t = setTimeout(done, ms);
      this.wake = hold
        ? () => {
            if (this.stopping) done();
          }
        : done;
    });
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let waitMs = this.o.idleMs ?? 1000;
      let hold = false;
      this.poked = false;
      try {
        const did = await this.step();
        this.failures = 0;
        if (did) {
          this.protocolAlarmed = false;
          // The next head waits out the batch interval; what is committed meanwhile goes with it.
          waitMs = Math.max(0, (this.o.batchMs ?? 100) - (performance.now() - this.lastSentAt));
          hold = true;
        }
      } catch (e) {
        waitMs = this.failed(e);
      }
      this.checkLimits();
      if (this.stopping) break;
      if (this.state === 'refused') waitMs = 60_000;
      if (waitMs > 0) await this.waitForWork(waitMs, hold);
    }
  }

  /**
   * What a failed request leaves: a refusal stops the link (the alarm); a witness gone, or failing
   * on its own side, is tried again after a wait (returned, ms); one that answers out of protocol
   * too, and raises the alarm once until a request passes. Every cause stays in `lastError`.
   */
  private failed(e: unknown): number {
    this.lastError = e instanceof Error ? e.message : String(e);
    if (e instanceof WitnessRefused) {
      this.state = 'refused';
      this.refusal = e;
      this.alarm({ kind: 'witness-refused', message: this.lastError, refusal: e.reason });
      this.pendingCheckpoint?.reject(e);
      this.pendingCheckpoint = null;
      return 1000;
    }
    if (e instanceof WitnessProtocolError && !this.protocolAlarmed) {
      this.protocolAlarmed = true;
      this.alarm({ kind: 'witness-protocol', message: this.lastError });
    }
    this.state = 'offline';
    this.failures++;
    return backoffDelay(this.failures - 1, witnessRetry(this.o));
  }

  /** One request: a head or a checkpoint. Returns whether there was anything to send. */
  private async step(): Promise<boolean> {
    // Refused once, the link asks again only after a restart's checks (the table is held by then).
    if (this.state === 'refused') return false;
    const head = this.ledger.headOf();
    const c = this.pendingCheckpoint;
    // A checkpoint at the witness's head goes first: the head must not pass it before it is signed.
    if (c && c.seq === this.witnessed.seq) {
      this.pendingCheckpoint = null;
      try {
        await this.foldTo(c.seq, c.hash);
        c.resolve(await this.client.checkpoint(this.ledger.terminalId, c.seq, c.hash, c.state));
      } catch (e) {
        // Asked again at the next checkpoint: the witness's fold may have moved (a restart, another client).
        this.folded = null;
        c.reject(e instanceof Error ? e : new Error(String(e)));
        if (e instanceof WitnessUnreachable) throw e;
        // The state the host holds is not its journal's: refused like a rewritten journal (the alarm).
        if (e instanceof WitnessRefused && CHECKPOINT_INTEGRITY.has(e.reason)) throw e;
        // Refused as the witness's head or fold moved meanwhile: the next checkpoint is asked for again.
        this.lastError = e instanceof Error ? e.message : String(e);
      }
      return true;
    }
    const target = c && c.seq > this.witnessed.seq ? Math.min(head.seq, c.seq) : head.seq;
    if (target > this.witnessed.seq) {
      this.state = 'sending';
      const to = Math.min(target, this.witnessed.seq + MAX_LINKS);
      const rows = connectionOf(this.ledger)
        .prepare('SELECT seq, content_hash, hash FROM journal WHERE seq >= ? AND seq <= ? ORDER BY seq')
        .raw(true)
        .all(Math.max(1, this.witnessed.seq), to) as [number, string, string][];
      // The journal must still hold the witness's head as it signed it before going on from there.
      const at = this.witnessed.seq === 0 ? null : rows.shift();
      if (at && (at[0] !== this.witnessed.seq || at[2] !== this.witnessed.hash)) {
        throw new WitnessRefused('diverging', `entry ${this.witnessed.seq} of the journal is no longer the one the witness signed`, this.signed);
      }
      const last = rows[rows.length - 1];
      if (!last || last[0] !== to || rows.length !== to - this.witnessed.seq)
        throw new WitnessUnreachable(`entries ${this.witnessed.seq + 1}–${to} cannot be read`);
      this.lastSentAt = performance.now();
      try {
        const signed = await this.client.witness(
          this.ledger.terminalId,
          this.witnessed,
          rows.map((r) => r[1]),
          { seq: to, hash: last[2] },
        );
        this.accept(signed);
      } catch (e) {
        if (!(e instanceof WitnessRefused) || e.reason !== 'stale') throw e;
        if (!e.head && this.witnessed.seq > 0) {
          // It holds no head of this terminal (its folder wiped or swapped mid-run): its head went
          // back to genesis, and is handled as any head gone back (a review of 7 December: before,
          // a refusal that stopped the link, where a head merely lower raised the alarm and went on).
          this.wentBack(0);
          this.fromGenesis();
        } else {
          // The witness is further on than this link thought (another link of this terminal), or
          // behind it: go on from its head, provided the journal holds it.
          if (!e.head || !this.onOurChain(e.head)) throw e;
          if (e.head.seq < this.witnessed.seq) this.wentBack(e.head.seq);
          this.accept(e.head);
        }
      }
      this.state = 'idle';
      return true;
    }
    if (c && c.seq < this.witnessed.seq) {
      this.pendingCheckpoint = null;
      c.reject(new WitnessUnreachable(`the witness's head passed entry ${c.seq} before its checkpoint was signed`));
    }
    this.state = 'idle';
    return false;
  }

  /**
   * Brings the witness's fold of the entries' effects up to entry `seq`: the bodies of the entries
   * after where it stands, at most 1 MiB of them a request. Once per checkpoint, so a commit costs
   * the witness nothing more; the first checkpoint of a journal the witness never folded sends
   * every body from the first entry, once (docs/ledger.md, "The witness").
   */
  private async foldTo(seq: number, hash: string): Promise<void> {
    const terminal = this.ledger.terminalId;
    let at = this.folded ?? (await this.client.folded(terminal));
    const read = connectionOf(this.ledger).prepare('SELECT seq, hash, body FROM journal WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?').raw(true);
    while (at.seq < seq) {
      const bodies: string[] = [];
      let size = 0;
      let last: { seq: number; hash: string } | null = null;
      for (const [s, h, body] of read.iterate(at.seq, seq, MAX_LINKS) as Iterable<[number, string, string]>) {
        if (bodies.length > 0 && size + body.length > FOLD_CHARS) break;
        bodies.push(body);
        size += body.length;
        last = { seq: s, hash: h };
      }
      if (!last || last.seq !== at.seq + bodies.length) throw new WitnessUnreachable(`entries ${at.seq + 1}–${seq} cannot be read`);
      at = await this.client.fold(terminal, at, bodies, last);
      this.folded = at;
    }
    if (at.seq !== seq || at.hash !== hash) throw new WitnessUnreachable(`the witness's fold stands at entry ${at.seq}, past the checkpoint ${seq}`);
  }

  /**
   * The witness no longer holds heads it signed (its folder restored from an older copy, or
   * swapped): the journal they vouched for could be rewritten there unseen. The link still goes on
   * from its head, so it signs those entries again, but someone must look (as the upstream's
   * `ack-backwards`).
   */
  private wentBack(to: number): void {
    this.alarm({
      kind: 'witness-backwards',
      message: `the witness's head went back from entry ${this.witnessed.seq} to ${to}: it lost heads it had signed; they are signed again from there`,
      from: this.witnessed.seq,
      to,
    });
  }

  /**
   * At the start: a witness head below a checkpoint the witness signed (the ledger keeps them,
   * under its key) went back while the host was stopped. The witness signs a checkpoint only at an
   * entry its fold reached, never past its head, so an honest witness is never behind its own;
   * a head merely behind the journal (a kill before the last heads reached it) is not a sign.
   */
  private behindItsCheckpoint(): void {
    const c = latestCheckpoint(this.ledger);
    if (c.status !== 'ok' || c.checkpoint.seq <= this.witnessed.seq) return;
    this.alarm({
      kind: 'witness-backwards',
      message: `the witness's head is entry ${this.witnessed.seq}, but it signed the checkpoint at entry ${c.checkpoint.seq}: it lost heads it had signed (its folder restored from an older copy or swapped, or this terminal forgotten); they are signed again from there`,
      from: c.checkpoint.seq,
      to: this.witnessed.seq,
    });
  }

  private onOurChain(head: SignedHead): boolean {
    return this.ledger.entry(head.seq)?.hash === head.hash;
  }

  /** The witness holds no head of this terminal: the chain goes to it again from genesis. */
  private fromGenesis(): void {
    this.signed = null;
    this.witnessed = { seq: 0, hash: genesisHash(this.ledger.terminalId) };
    this.ages.witnessedThrough(0, this.ledger.headOf().seq);
  }

  private accept(signed: SignedHead): void {
    this.signed = signed;
    this.witnessed = { seq: signed.seq, hash: signed.hash };
    this.ages.witnessedThrough(signed.seq, this.ledger.headOf().seq);
  }
}

/**
 * For `etg ledger verify --witness SOCKET`: the witness's key and newest head handed to the ledger,
 * so that its verification checks the journal against them; a witness holding no head of this
 * terminal is a problem here (the start would give it the chain; a verify has nothing to compare).
 */
export async function useWitnessForVerify(ledger: Ledger, client: WitnessClient): Promise<void> {
  const identity = await client.hello();
  const head = await client.head(ledger.terminalId);
  internalsOf(ledger).useWitness({ ...identity, address: client.socketPath, head, firstUse: false });
}
