import { hash as digest } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { chainHash, genesisHash } from './chain.js';
import { Effects, EffectsError } from './effects.js';
import { HeadLost, HeadSlots, readSlots } from './head-slots.js';
import type { WitnessKey } from './keys.js';
import { RECORD_FILE, WitnessRecord, type RecordLine } from './record.js';
import { Carry, clearUnfinishedRotation, KEEP_ARCHIVES, ROTATE_BYTES, ROTATE_RETRY_MS, rotateRecord, type Rotated } from './rotation.js';
import { checkpointStatement, exportPublicKey, headStatement, keyIdOf, signStatement } from './statement.js';
import { Id, MAX_MESSAGE_CHARS, Request, TerminalId, type Answer, type Head, type RefusalReason, type SignedHead } from './wire.js';

export interface WitnessOptions {
  /** The witness's own folder (its head slots and record); nobody else may write it. */
  dir: string;
  key: WitnessKey;
  /** The terminals it serves; any other is refused. Default: any terminal, up to `maxTerminals`. */
  terminals?: readonly string[];
  /**
   * Without `terminals`: at most this many terminals get a head (a head file and a record line
   * each); the first head of another is refused `unknown-terminal`. Default 64.
   */
  maxTerminals?: number;
  /** The wall clock: the times the witness writes (a head's, a line's). */
  clock?: () => Date;
  /**
   * The monotonic clock, in ms, its limits are measured on (a head's and a refusal's interval, the
   * failures' log limit, a failed rotation's retry): on the wall clock a step back (NTP at boot, a
   * technician) kept every refusal out of the record for the step's length. Default `performance.now`.
   */
  monotonic?: () => number;
  /** A head goes into the record at most this often (the newest is always in its slots). Default 60 s. */
  headEveryMs?: number;
  /** Refusals of each reason go into the record at most this often (the rest are counted). Default 10 s. */
  refusalEveryMs?: number;
  /** The record is rotated once it holds this many bytes (witness/rotation.ts). Default 64 MiB. */
  rotateBytes?: number;
  /** Rotated records kept, the oldest removed first. Default 8. */
  keepArchives?: number;
  /**
   * Where refusals and failures are logged (`etg witness serve`: one JSON line each on stderr, for
   * the journal), at most once per `refusalEveryMs` for refusals and once a second for failures,
   * with the count of those not logged since.
   */
  log?: (line: Record<string, unknown>) => void;
}

class Refused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly head: SignedHead | null,
  ) {
    super(message);
  }
}

/**
 * The ledger witness: for each terminal it keeps the newest head of the journal it signed, and
 * signs a new one only when the journal's chain, link by link, leads from that head to the new one
 * (the host sends the content hash of every entry in between). So every head it ever signed for a
 * terminal lies on one chain: a journal that was rewritten at or before its newest head, or lost
 * entries up to it, no longer matches what it signed, whatever the data folder's files say. It
 * signs checkpoints too, at its own head only, one state per entry, and only a state that holds
 * the effects (balances, meters, open bets) it folded itself from the bodies of the entries up to
 * there (witness/effects.ts): it signs no state it did not derive. Its key is its own
 * (a file only it reads, or sealed in a TPM); docs/security.md says what that defends.
 */
export class Witness {
  private readonly heads = new Map<string, HeadSlots>();
  private readonly newest = new Map<string, SignedHead | null>();
  /**
   * terminal → the newest checkpoint signed, and its state's digest. Only the newest is kept: a
   * checkpoint is signed at the witness's head alone, which only moves on (but for a `forget`),
   * so no older entry can be asked for again.
   */
  private readonly checkpoints = new Map<string, { seq: number; stateSha256: string }>();
  /** What a rotation carries into the next record (witness/rotation.ts). */
  private readonly carry = new Carry();
  /**
   * The rotation's state: what the record carried when it began (it rotates once it has grown
   * `rotateBytes` past that), the archive it names, and when a rotation that failed is tried again.
   */
  private readonly rotation = { carriedBytes: 0, archive: null as string | null, retryAt: -Infinity };
  /** terminal → its entries' effects, folded up to a head it signed (witness/effects.ts). */
  private readonly folds = new Map<string, Effects>();
  /** terminal → a stretch being folded that has not reached its head yet (`fold` in several requests). */
  private readonly pendingFolds = new Map<string, Effects>();
  private readonly lastRecorded = new Map<string, number>();
  /** terminal → the newest head its record shows signed (a head or checkpoint line since its last `forget`): its head file may not hold less. */
  private readonly recorded = new Map<string, { seq: number; at: string }>();
  /** The terminals with a head file or a head in the record: those `maxTerminals` counts. */
  private readonly held = new Set<string>();
  // -Infinity: the first refusal and failure are recorded however soon after the start they come.
  /**
   * One allowance per reason (a closed set, so bounded): with one for all, a peer sending a bad
   * request every second kept a `diverging` refusal out of the record and the log for good.
   */
  private readonly refusals = new Map<RefusalReason, { at: number; unrecorded: number }>();
  private failures = { at: -Infinity, unlogged: 0 };
  private readonly record: WitnessRecord;
  private readonly clock: () => Date;
  private readonly monotonic: () => number;
  private readonly publicKey: string;
  private readonly keyId: string;

  constructor(private readonly o: WitnessOptions) {
    mkdirSync(path.join(o.dir, 'heads'), { recursive: true, mode: 0o700 });
    this.clock = o.clock ?? (() => new Date());
    this.monotonic = o.monotonic ?? (() => performance.now());
    this.publicKey = exportPublicKey(o.key.publicKey);
    this.keyId = keyIdOf(o.key.publicKey);
    this.record = new WitnessRecord(path.join(o.dir, RECORD_FILE), o.log ? { log: o.log } : {});
    for (const f of clearUnfinishedRotation(o.dir))
      o.log?.({ level: 'warn', at: this.clock().toISOString(), message: `${f}: left by a rotation a power cut stopped; removed (the record is whole)` });
    for (const line of this.record.lines()) this.load(line);
    this.rotation.carriedBytes = this.carry.bytes();
    // Every terminal with a head file or a head in the record: one whose head is lost or damaged is
    // logged now, and its requests fail, answered; the others are served.
    const terminals = new Set([...readdirSync(path.join(o.dir, 'heads')).filter((f) => TerminalId.safeParse(f).success), ...this.recorded.keys()]);
    for (const t of terminals) {
      this.held.add(t);
      try {
        this.headOf(t);
      } catch (e) {
        const message = e instanceof Error ? `${(e as NodeJS.ErrnoException).code ?? e.name}: ${e.message}` : String(e);
        o.log?.({ level: 'error', at: this.clock().toISOString(), error: 'failed', id: null, terminal: t, message, notLogged: 0 });
      }
    }
  }

  /** One line of the record, read back at start. */
  private load(line: RecordLine): void {
    this.carry.take(line);
    if (line.k === 'carried') this.rotation.archive = line.archive;
    // A loss accepted by hand starts the terminal's chain again: its earlier checkpoints, fold and heads go too.
    if (line.k === 'forget') {
      this.checkpoints.delete(line.terminal);
      this.folds.delete(line.terminal);
      this.recorded.delete(line.terminal);
    }
    if (line.k === 'head') this.recordedHead(line.head.terminal, line.head.seq, line.head.at);
    if (line.k === 'fold') this.folds.set(line.terminal, Effects.of(line.terminal, line.effects));
    if (line.k !== 'checkpoint') return;
    this.recordedHead(line.terminal, line.seq, line.at);
    this.checkpoints.set(line.terminal, { seq: line.seq, stateSha256: line.stateSha256 });
  }

  /** Appends a line to the record, and to what a rotation carries. */
  private append(line: RecordLine): void {
    this.record.append(line);
    this.carry.take(line);
  }

  /**
   * Rotates the record once it is past its size. A rotation that fails (a full disk) is logged and
   * tried again after the next line: the record as it stands is whole, so nothing is lost meanwhile.
   */
  private rotateWhenFull(): void {
    if (this.monotonic() < this.rotation.retryAt) return;
    const now = this.clock();
    let r: Rotated;
    try {
      if (this.record.length() < (this.o.rotateBytes ?? ROTATE_BYTES) + this.rotation.carriedBytes) return;
      r = rotateRecord(this.o.dir, this.carry.lines(), now, { keepArchives: this.o.keepArchives ?? KEEP_ARCHIVES, after: this.rotation.archive });
    } catch (e) {
      // Nothing took (rotateRecord undid what it made); tried again later, not at every line (each try reads the whole record).
      this.rotation.retryAt = this.monotonic() + ROTATE_RETRY_MS;
      const message = e instanceof Error ? `${(e as NodeJS.ErrnoException).code ?? e.name}: ${e.message}` : String(e);
      this.o.log?.({ level: 'error', at: now.toISOString(), message: `${RECORD_FILE} could not be rotated: ${message}`, retryInMs: ROTATE_RETRY_MS });
      return;
    }
    // The record's file was replaced: the next line goes into the new one.
    this.record.close();
    this.rotation.carriedBytes = r.carriedBytes;
    this.rotation.archive = r.archive;
    const { archive, bytes, removed, problems } = r;
    this.o.log?.({ level: problems.length > 0 ? 'warn' : 'info', at: now.toISOString(), message: `${RECORD_FILE} rotated`, archive, bytes, removed, problems });
  }

  private recordedHead(terminal: string, seq: number, at: string): void {
    if ((this.recorded.get(terminal)?.seq ?? -1) < seq) this.recorded.set(terminal, { seq, at });
  }

  /**
   * The head file's newest head. One with bytes but no slot that even parses, for a terminal the
   * record shows no head of, is a first write a power cut left unwritten (the file grew to its slot,
   * the bytes never landed; the record's line comes after the slot's fsync, so no answer was given):
   * no head yet, logged. Slots that parse but do not verify (another key), or any such file once the
   * record shows a head, stay `HeadLost`.
   */
  private readSlots(slots: HeadSlots, terminal: string, recorded: boolean): SignedHead | null {
    try {
      return slots.read();
    } catch (e) {
      if (!(e instanceof HeadLost) || recorded || readSlots(slots.file).length > 0) throw e;
      this.o.log?.({
        level: 'warn',
        at: this.clock().toISOString(),
        terminal,
        message: `${slots.file}: a first head never written (no slot parses, none recorded): no head yet`,
      });
      return null;
    }
  }

  /** The newest head signed for `terminal` (null: none). Throws when its head file cannot be read. */
  headOf(terminal: string): SignedHead | null {
    if (!this.newest.has(terminal)) {
      const slots = this.slots(terminal);
      const recorded = this.recorded.get(terminal);
      const head = this.readSlots(slots, terminal, recorded !== undefined);
      if (recorded && (head === null || head.seq < recorded.seq)) {
        const holds = head === null ? 'holds no head' : `holds head ${head.seq}`;
        throw new HeadLost(slots.file, `${holds}, but ${RECORD_FILE} shows head ${recorded.seq} of ${terminal} signed at ${recorded.at}`);
      }
      // None, and no file: nothing is kept for it (asking after any number of ids holds no memory).
      if (head === null && !existsSync(slots.file)) {
        this.heads.delete(terminal);
        return null;
      }
      this.newest.set(terminal, head);
    }
    return this.newest.get(terminal) ?? null;
  }

  /**
   * Answers one request (already parsed from JSON, not yet checked): an answer or a refusal, never
   * a throw. An error of the witness's own (a file it cannot read or write, a full disk) is
   * answered `failed` and logged: one terminal's fault never ends the service of the others.
   */
  handle(raw: unknown): Answer {
    const parsed = Request.safeParse(raw);
    if (!parsed.success) {
      const id = Id.safeParse(typeof raw === 'object' && raw !== null && 'id' in raw ? raw.id : null);
      const why = parsed.error.issues[0];
      const message = `not a witness request: ${why ? `${why.path.join('.')}: ${why.message}` : ''}`.slice(0, 500);
      return this.refusal(id.success ? id.data : null, new Refused('bad-request', message, null), null);
    }
    const r = parsed.data;
    try {
      return this.answer(r);
    } catch (e) {
      const terminal = 'terminal' in r ? r.terminal : null;
      if (e instanceof Refused) return this.refusal(r.id, e, terminal);
      this.logFailure(r.id, terminal, e);
      // A lost head says so (which file, what to do): trying again later will not mend it.
      if (e instanceof HeadLost) return { id: r.id, ok: false, error: 'failed', message: e.message.slice(0, MAX_MESSAGE_CHARS), head: null };
      return { id: r.id, ok: false, error: 'failed', message: 'the witness could not do it (its own fault, logged): try again later', head: null };
    }
  }

  private answer(r: Request): Answer {
    switch (r.op) {
      case 'hello':
        return { id: r.id, ok: true, op: 'hello', publicKey: this.publicKey, keyId: this.keyId, keyStore: this.o.key.store };
      case 'head':
        this.serves(r.terminal);
        return { id: r.id, ok: true, op: 'head', head: this.headOf(r.terminal) };
      case 'witness':
        return { id: r.id, ok: true, op: 'witness', head: this.witness(r.terminal, r.from, r.links, r.to) };
      case 'folded': {
        this.serves(r.terminal);
        const f = this.foldOf(r.terminal);
        return { id: r.id, ok: true, op: 'folded', folded: { seq: f.seq, hash: f.hash } };
      }
      case 'fold':
        return { id: r.id, ok: true, op: 'fold', folded: this.fold(r.terminal, r.from, r.bodies, r.to) };
      case 'checkpoint':
        return { id: r.id, ok: true, op: 'checkpoint', signature: this.checkpoint(r.terminal, r.seq, r.hash, r.state) };
    }
  }

  /** A failure of the witness's own, on its log (rate-limited: a loop of the same request cannot flood the journal). */
  private logFailure(id: number | null, terminal: string | null, e: unknown): void {
    const now = this.monotonic();
    if (now - this.failures.at < 1_000) {
      this.failures.unlogged++;
      return;
    }
    const message = e instanceof Error ? `${(e as NodeJS.ErrnoException).code ?? e.name}: ${e.message}` : String(e);
    this.o.log?.({ level: 'error', at: this.clock().toISOString(), error: 'failed', id, terminal, message, notLogged: this.failures.unlogged });
    this.failures = { at: now, unlogged: 0 };
  }

  private serves(terminal: string): void {
    if (this.o.terminals && !this.o.terminals.includes(terminal)) {
      throw new Refused('unknown-terminal', `this witness serves ${this.o.terminals.join(', ')}, not ${terminal}`, null);
    }
  }

  /** A terminal's first head: refused past `maxTerminals` when no terminal is configured (a flood of ids cannot fill the disk). */
  private admits(terminal: string): void {
    const max = this.o.maxTerminals ?? 64;
    if (this.o.terminals || this.held.has(terminal) || this.held.size < max) return;
    throw new Refused(
      'unknown-terminal',
      `this witness serves at most ${max} terminals when none is configured, and holds ${this.held.size}: not ${terminal} (serve a cabinet's own with --terminal ID)`,
      null,
    );
  }

  /**
   * Signs `to` when it extends the newest head signed (or, for a terminal's first, the chain from
   * its genesis): `links` are the content hashes of the entries after `from`, in order.
   */
  witness(terminal: string, from: Head, links: readonly string[], to: Head): SignedHead {
    this.serves(terminal);
    const current = this.headOf(terminal);
    if (current === null) {
      this.admits(terminal);
      if (from.seq !== 0 || from.hash !== genesisHash(terminal)) {
        throw new Refused('stale', `the witness holds no head of ${terminal} yet: send its chain from genesis`, null);
      }
    } else {
      if (to.seq < current.seq) {
        throw new Refused('lower', `head ${to.seq} is below ${current.seq}, which the witness signed at ${current.at}: entries were lost`, current);
      }
      if (to.seq === current.seq) {
        if (to.hash === current.hash) return current;
        throw new Refused('diverging', `entry ${to.seq} has another hash than the one the witness signed at ${current.at}: the journal was rewritten`, current);
      }
      if (from.seq === current.seq && from.hash !== current.hash) {
        throw new Refused(
          'diverging',
          `entry ${from.seq} has another hash than the one the witness signed at ${current.at}: the journal was rewritten`,
          current,
        );
      }
      if (from.seq !== current.seq) throw new Refused('stale', `the witness's head is ${current.seq}, not ${from.seq}: send from it`, current);
    }
    if (to.seq - from.seq !== links.length) {
      throw new Refused('bad-chain', `${links.length} links cannot lead from entry ${from.seq} to entry ${to.seq}`, current);
    }
    let hash = from.hash;
    for (const link of links) hash = chainHash(hash, link);
    if (hash !== to.hash) {
      throw new Refused(
        current === null ? 'bad-chain' : 'diverging',
        `the links from entry ${from.seq} do not lead to the hash given for entry ${to.seq}`,
        current,
      );
    }
    const at = this.clock().toISOString();
    const claim = { terminal, seq: to.seq, hash: to.hash, at };
    const signed: SignedHead = { ...claim, signature: signStatement(this.o.key.privateKey, headStatement(claim)) };
    // Durable before it is answered: a head the witness signed is never forgotten by a power cut.
    this.slots(terminal).write(signed);
    this.newest.set(terminal, signed);
    this.held.add(terminal);
    const now = this.monotonic();
    const last = this.lastRecorded.get(terminal);
    if (current === null || last === undefined || now - last >= (this.o.headEveryMs ?? 60_000)) {
      try {
        this.append({ k: 'head', head: signed });
        this.lastRecorded.set(terminal, now);
        this.rotateWhenFull();
      } catch (e) {
        // The head is signed and durable in its slot: answered all the same (a `failed` answer would
        // deny a head the witness holds). The record's line is logged as lost; the next head tries it again.
        this.logFailure(null, terminal, e);
      }
    }
    return signed;
  }

  /** The effects it folded for `terminal` up to a head it signed (genesis when none yet). */
  private foldOf(terminal: string): Effects {
    // Genesis is not kept: it is made again until a fold reaches a head it signed.
    return this.folds.get(terminal) ?? Effects.genesis(terminal, genesisHash(terminal));
  }

  /**
   * Folds the effects of the entries after `from` (its fold, or the end of a stretch it holds
   * pending), each body hashed and chained: the result counts once the chain reaches the head it
   * signed, and waits as the pending stretch while it ends below it.
   */
  fold(terminal: string, from: Head, bodies: readonly string[], to: Head): Head {
    this.serves(terminal);
    const head = this.headOf(terminal);
    const done = this.foldOf(terminal);
    const pending = this.pendingFolds.get(terminal);
    const base = from.seq === done.seq && from.hash === done.hash ? done : pending && from.seq === pending.seq && from.hash === pending.hash ? pending : null;
    if (!base) throw new Refused('stale', `the witness's fold of ${terminal} stands at entry ${done.seq}, not ${from.seq}: send from it`, head);
    if (to.seq - from.seq !== bodies.length)
      throw new Refused('bad-chain', `${bodies.length} bodies cannot lead from entry ${from.seq} to entry ${to.seq}`, head);
    if (!head || to.seq > head.seq)
      throw new Refused('not-at-head', `entry ${to.seq} is past the witness's head (${head?.seq ?? 'none'}): witness it first`, head);
    const next = base.copy();
    try {
      for (const body of bodies) next.apply(body);
    } catch (e) {
      if (e instanceof EffectsError) throw new Refused(e.reason === 'not-derived' ? 'bad-entry' : e.reason, e.message, head);
      throw e;
    }
    if (next.hash !== to.hash) throw new Refused('bad-chain', `the bodies from entry ${from.seq} do not lead to the hash given for entry ${to.seq}`, head);
    if (to.seq === head.seq) {
      if (to.hash !== head.hash) throw new Refused('diverging', `entry ${to.seq} has another hash than the one the witness signed at ${head.at}`, head);
      this.folds.set(terminal, next);
      this.pendingFolds.delete(terminal);
    } else this.pendingFolds.set(terminal, next);
    return { seq: next.seq, hash: next.hash };
  }

  /**
   * Signs the state after the witness's own head, once per entry (the same state if asked again),
   * and only when the state holds the effects it folded itself up to there.
   */
  checkpoint(terminal: string, seq: number, hash: string, state: string): string {
    this.serves(terminal);
    const current = this.headOf(terminal);
    if (!current || current.seq !== seq || current.hash !== hash) {
      throw new Refused(
        'not-at-head',
        `a checkpoint is signed at the witness's head only (${current ? `entry ${current.seq}` : 'none yet'}), not at entry ${seq}`,
        current,
      );
    }
    const effects = this.foldOf(terminal);
    if (effects.seq !== seq || effects.hash !== hash) {
      throw new Refused('fold-behind', `the witness folded the entries' effects up to entry ${effects.seq}: send the bodies from there (fold)`, current);
    }
    try {
      effects.check(state);
    } catch (e) {
      if (e instanceof EffectsError) throw new Refused('not-derived', `the state at entry ${seq} is not the entries': ${e.message}`, current);
      throw e;
    }
    const stateSha256 = digest('sha256', state, 'hex');
    const last = this.checkpoints.get(terminal);
    const signed = last?.seq === seq ? last.stateSha256 : undefined;
    if (signed !== undefined && signed !== stateSha256) {
      throw new Refused('checkpoint-conflict', `the witness signed another state at entry ${seq}`, current);
    }
    const signature = signStatement(this.o.key.privateKey, checkpointStatement(terminal, seq, hash, stateSha256));
    if (signed === undefined) {
      this.append({ k: 'fold', terminal, effects: effects.snapshot() });
      this.append({ k: 'checkpoint', terminal, seq, hash, stateSha256, signature, at: this.clock().toISOString() });
      this.checkpoints.set(terminal, { seq, stateSha256 });
      this.rotateWhenFull();
    }
    return signature;
  }

  close(): void {
    for (const s of this.heads.values()) s.close();
    this.record.close();
  }

  private slots(terminal: string): HeadSlots {
    let s = this.heads.get(terminal);
    if (!s) {
      s = new HeadSlots(path.join(this.o.dir, 'heads', terminal), this.o.key.publicKey, terminal);
      this.heads.set(terminal, s);
    }
    return s;
  }

  private refusal(id: number | null, e: Refused, terminal: string | null): Answer {
    // Cut to the protocol's length: a message quotes the request (a body's terminal, a state's keys),
    // which a hostile peer makes megabytes long; whole, the answer was out of protocol and each
    // recorded refusal pushed the archives out by megabytes.
    const message = e.message.slice(0, MAX_MESSAGE_CHARS);
    const now = this.monotonic();
    const last = this.refusals.get(e.reason) ?? { at: -Infinity, unrecorded: 0 };
    if (now - last.at >= (this.o.refusalEveryMs ?? 10_000)) {
      const line = { k: 'refused', at: this.clock().toISOString(), terminal, error: e.reason, message, repeated: last.unrecorded } as const;
      this.o.log?.({ level: 'warn', ...line });
      this.refusals.set(e.reason, { at: now, unrecorded: 0 });
      try {
        this.append(line);
        this.rotateWhenFull();
      } catch (err) {
        // The refusal is answered all the same; that the record could not take it is logged.
        this.logFailure(id, terminal, err);
      }
    } else last.unrecorded++; // the map's own entry: a reason never recorded always takes the branch above
    return { id, ok: false, error: e.reason, message, head: e.head };
  }
}
