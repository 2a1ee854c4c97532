import type { KeyObject } from 'node:crypto';
import net from 'node:net';
import { sha256Hex } from './canonical.js';
import type { z } from 'zod';
import { checkpointStatement, headStatement, importPublicKey, keyIdOf, statementSigned } from '../witness/statement.js';
import {
  Answer,
  CheckpointAnswer,
  FoldAnswer,
  FoldedAnswer,
  HeadAnswer,
  HelloAnswer,
  MAX_LINE_BYTES,
  WitnessAnswer,
  type Head,
  type RefusalReason,
  type Request,
  type SignedHead,
} from '../witness/wire.js';

/**
 * The witness did not answer: no socket, a connection lost, a time-out, an answer out of protocol,
 * or a `failed` answer (an error of the witness's own, which a try after it is mended may pass).
 */
export class WitnessUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WitnessUnreachable';
  }
}

/**
 * The witness answered out of protocol: a line that is not the protocol's, an answer to nothing
 * asked, a key that is not one, a signature that does not verify with the key it gave at `hello`,
 * or a signature of something not asked. Nothing of it is believed (like a witness gone, the link
 * tries again), and unlike a witness gone someone must look: the link raises `witness-protocol`.
 */
export class WitnessProtocolError extends WitnessUnreachable {
  constructor(message: string) {
    super(message);
    this.name = 'WitnessProtocolError';
  }
}

/** The witness answered, and refused (witness/wire.ts `REFUSALS`, but `failed`); `head` is its own head, when it has one. */
export class WitnessRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly head: SignedHead | null,
  ) {
    super(`the ledger witness refused: ${reason}: ${message}`);
    this.name = 'WitnessRefused';
  }
}

/** Who the witness says it is: the key its signatures verify with. */
export interface WitnessIdentity {
  publicKey: KeyObject;
  keyId: string;
  keyStore: 'tpm' | 'file';
}

type Pending = { resolve: (a: Answer) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> };

/**
 * The kiosk's end of the witness's socket (witness/wire.ts): one connection, requests answered in
 * order, each answer parsed against the protocol and every signature in it checked against the key
 * the witness gave at `hello` — a witness that answers out of protocol, or signs what was not
 * asked, is never believed (WitnessProtocolError). A lost connection fails what was
 * waiting and is made again at the next request.
 */
export class WitnessClient {
  private socket: net.Socket | null = null;
  private connecting: Promise<net.Socket> | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private buffer = '';
  private identity: WitnessIdentity | null = null;
  private closed = false;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly socketPath: string,
    /**
     * `idleCloseMs`: the connection is closed once nothing has been asked for this long (default
     * 60 s), well before the witness ends an idle one itself (10 min, witness/server.ts), so the two
     * never cross; the next request connects again.
     */
    private readonly o: { timeoutMs?: number; idleCloseMs?: number } = {},
  ) {}

  /** The witness's key (asked once per client; every signature after is checked with it). */
  async hello(): Promise<WitnessIdentity> {
    if (this.identity) return this.identity;
    const a = await this.ask({ op: 'hello' }, HelloAnswer);
    let publicKey: KeyObject;
    try {
      publicKey = importPublicKey(a.publicKey);
    } catch (e) {
      throw new WitnessProtocolError(`the witness's key is not an Ed25519 key: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (keyIdOf(publicKey) !== a.keyId) throw new WitnessProtocolError("the witness's key id does not name its key");
    this.identity = { publicKey, keyId: a.keyId, keyStore: a.keyStore };
    return this.identity;
  }

  /** The newest head the witness signed for `terminal` (null: none yet), its signature checked. */
  async head(terminal: string): Promise<SignedHead | null> {
    const { publicKey } = await this.hello();
    const a = await this.ask({ op: 'head', terminal }, HeadAnswer);
    if (a.head) this.checkHead(publicKey, a.head, terminal);
    return a.head;
  }

  /** Asks the witness to sign `to`, reached from `from` through `links`; the signed head, checked. */
  async witness(terminal: string, from: Head, links: readonly string[], to: Head): Promise<SignedHead> {
    const { publicKey } = await this.hello();
    const a = await this.ask({ op: 'witness', terminal, from, links: [...links], to }, WitnessAnswer);
    this.checkHead(publicKey, a.head, terminal);
    if (a.head.seq !== to.seq || a.head.hash !== to.hash) throw new WitnessProtocolError(`the witness signed entry ${a.head.seq}, not ${to.seq}`);
    return a.head;
  }

  /** Where the witness's fold of this terminal's entries' effects stands. */
  async folded(terminal: string): Promise<Head> {
    await this.hello();
    return (await this.ask({ op: 'folded', terminal }, FoldedAnswer)).folded;
  }

  /** Has the witness fold the bodies of the entries after `from` up to `to`; where its fold then stands. */
  async fold(terminal: string, from: Head, bodies: readonly string[], to: Head): Promise<Head> {
    await this.hello();
    const a = await this.ask({ op: 'fold', terminal, from, bodies: [...bodies], to }, FoldAnswer);
    if (a.folded.seq !== to.seq || a.folded.hash !== to.hash) throw new WitnessProtocolError(`the witness folded up to entry ${a.folded.seq}, not ${to.seq}`);
    return a.folded;
  }

  /** The witness's signature (base64) of a checkpoint of `state` (its exact text) at its head, checked. */
  async checkpoint(terminal: string, seq: number, hash: string, state: string): Promise<string> {
    const { publicKey } = await this.hello();
    const a = await this.ask({ op: 'checkpoint', terminal, seq, hash, state }, CheckpointAnswer);
    if (!statementSigned(publicKey, checkpointStatement(terminal, seq, hash, sha256Hex(state)), a.signature)) {
      throw new WitnessProtocolError("the witness's checkpoint signature does not verify with its key");
    }
    return a.signature;
  }

  close(): void {
    this.closed = true;
    this.drop(new WitnessUnreachable('the witness client was closed'));
  }

  /**
   * The head a refusal carries, checked like any other: a `stale` answer's head is where the link
   * goes on from, so an unsigned one would move it with no key at all (a process on the socket).
   */
  private refusalHead(head: SignedHead, request: DistributiveOmit<Request, 'id'>): SignedHead {
    if (!this.identity || !('terminal' in request)) throw new WitnessProtocolError(`a refusal of ${request.op} carries a head`);
    this.checkHead(this.identity.publicKey, head, request.terminal);
    return head;
  }

  private checkHead(publicKey: KeyObject, head: SignedHead, terminal: string): void {
    if (head.terminal !== terminal) throw new WitnessProtocolError(`the witness answered with a head of ${head.terminal}, not ${terminal}`);
    if (!statementSigned(publicKey, headStatement(head), head.signature))
      throw new WitnessProtocolError("a head's signature does not verify with the witness's key");
  }

  private async ask<S extends z.ZodType>(request: DistributiveOmit<Request, 'id'>, schema: S): Promise<z.infer<S>> {
    if (this.closed) throw new WitnessUnreachable('the witness client was closed');
    const socket = await this.connect();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const id = this.nextId++;
    const answer = await new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new WitnessUnreachable(`the witness at ${this.socketPath} did not answer within ${this.o.timeoutMs ?? 10_000} ms`));
        // Answers come in order: a connection that missed one cannot be trusted to pair the next.
        this.drop(new WitnessUnreachable('the witness stopped answering'));
      }, this.o.timeoutMs ?? 10_000);
      this.pending.set(id, { resolve, reject, timer });
      socket.write(`${JSON.stringify({ ...request, id })}\n`);
    });
    // `failed` is the witness's own fault (its disk, a file it cannot read), logged on its side: the
    // same request may succeed once mended, so it is waited out like a witness gone, never a refusal.
    if (answer.ok === false && answer.error === 'failed') throw new WitnessUnreachable(`the witness failed (its own fault): ${answer.message}`);
    if (answer.ok === false) throw new WitnessRefused(answer.error, answer.message, answer.head && this.refusalHead(answer.head, request));
    const r = schema.safeParse(answer);
    if (!r.success) throw new WitnessProtocolError(`the witness answered ${request.op} out of protocol`);
    return r.data;
  }

  private connect(): Promise<net.Socket> {
    if (this.socket) return Promise.resolve(this.socket);
    this.connecting ??= new Promise<net.Socket>((resolve, reject) => {
      const s = net.createConnection(this.socketPath);
      s.setEncoding('utf8');
      s.once('connect', () => {
        this.socket = s;
        this.connecting = null;
        resolve(s);
      });
      s.on('data', (chunk: string) => this.receive(chunk));
      s.on('error', (e) => {
        if (this.socket !== s) {
          this.connecting = null;
          reject(new WitnessUnreachable(`the witness at ${this.socketPath} cannot be reached: ${e.message}`));
        }
      });
      s.on('close', () => {
        if (this.socket === s) this.drop(new WitnessUnreachable(`the connection to the witness at ${this.socketPath} was lost`));
      });
    });
    return this.connecting;
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    for (;;) {
      const nl = this.buffer.indexOf('\n');
      if (nl < 0) break;
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      let parsed: Answer;
      try {
        parsed = Answer.parse(JSON.parse(line));
      } catch {
        this.drop(new WitnessProtocolError('the witness sent a line out of protocol'));
        return;
      }
      const waiting = parsed.id === null ? undefined : this.pending.get(parsed.id);
      if (!waiting) {
        // An answer to nothing asked (or a refusal of the connection itself): the pairing is lost.
        this.drop(new WitnessProtocolError(parsed.ok ? 'the witness answered a request never sent' : `the witness refused: ${parsed.message}`));
        return;
      }
      this.pending.delete(parsed.id as number);
      clearTimeout(waiting.timer);
      waiting.resolve(parsed);
    }
    if (this.pending.size === 0) this.closeWhenIdle();
    if (this.buffer.length > MAX_LINE_BYTES) this.drop(new WitnessProtocolError('the witness sent a line longer than the protocol allows'));
  }

  /** Closes the connection once nothing is asked for `idleCloseMs` (nothing is waiting then: nothing fails). */
  private closeWhenIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.pending.size === 0) this.drop(new WitnessUnreachable('the connection to the witness was idle'));
    }, this.o.idleCloseMs ?? 60_000);
    this.idleTimer.unref();
  }

  /** Fails everything waiting and forgets the connection (the next request connects again). */
  private drop(e: Error): void {
    const s = this.socket;
    this.socket = null;
    this.buffer = '';
    s?.destroy();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(e);
      this.pending.delete(id);
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
