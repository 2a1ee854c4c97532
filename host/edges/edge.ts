import type { Logger } from 'pino';
import type { Msg, NatsConnection, Subscription } from 'nats';
import type { Update } from '../screens/outbox.js';
import { checkStationProof } from '../stadium/station-proof.js';
import { NoncePool } from './nonce-pool.js';
import { ChainedOwn, MAX_CHAIN } from './own-chain.js';
import {
  AttachAnswer,
  ChallengeAnswer,
  decodeUpdate,
  Gone,
  LastAnswer,
  PublishedEnrolment,
  stationInSubject,
  tableSubjects,
  type PublishedUpdate,
  type TableSubjects,
} from './subjects.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();

/** What the edge hands a station's connection: an update for a slot of its outbox, or a forget (a new epoch of the host). */
export interface EdgeHolder {
  readonly station: number;
  deliver(slot: string, update: Update): void;
  /** The host started again (its versions too): every slot's next update goes whole. */
  forgetAll(): void;
  /** The station's credential is no longer in force, or it attached at another edge: the connection is closed. */
  revoked(why?: string): void;
}

interface Held {
  /**
   * The station's welcomed connections here, each with whether it subscribed (only those are sent
   * its parts): the one record of them, so a revocation or a `gone` closes every one, and the
   * station is forgotten when the last one goes, subscribed or not (`forgetIfUnheld`).
   */
  readonly connections: Map<EdgeHolder, boolean>;
  own: PublishedUpdate | null;
  recall: PublishedUpdate | null;
  /** When the edge last asked the host for the own part whole (a patch that did not follow what it held), ms. */
  askedAt: number;
  /** The number of the host's latest hold of the station here (its attachment's answer), and the latest a `gone` ended while an attachment was under way (0: none). */
  hold: number;
  ended: number;
}

/** How long an ask for a station's own part whole stands before a patch that does not follow asks again. */
const ASK_AGAIN_MS = 1000;

/** The waits before an ask for the last values the host did not answer is made again: the first, doubled after each, at most `maxMs`. */
export interface CatchUpRetry {
  readonly firstMs: number;
  readonly maxMs: number;
}
const CATCH_UP_RETRY: CatchUpRetry = { firstMs: 1000, maxMs: 30_000 };

export interface EdgeCounters {
  /** Messages taken from NATS, and those dropped as older than what the edge holds or malformed. */
  received: number;
  dropped: number;
  commands: number;
  /** A held station's own part taken as its patch alone, and the wholes the edge made from such patches for a connection that needed one. */
  chained: number;
  made: number;
}

/**
 * An edge (issue 55): it holds remote stations' connections for a table whose host publishes on
 * NATS. It keeps the last of each public part and of each held station's own part (as published,
 * patch and whole: each connection's outbox picks), relays a station's proof of its secret on a
 * nonce the host issued (checking it first against the public key the host publishes: a stranger
 * costs the host nothing), and forwards the station's commands to the host, whose answer it
 * passes back. It never sees a station's secret, and reads the own parts of the stations it holds only. It decides nothing and holds no money:
 * everything a station is shown or told comes from the host.
 */
export class Edge {
  readonly counters: EdgeCounters = { received: 0, dropped: 0, commands: 0, chained: 0, made: 0 };
  private readonly subjects: TableSubjects;
  private enrolled = new Map<number, string>();
  private readonly parts = new Map<string, PublishedUpdate>();
  private readonly held = new Map<number, Held>();
  /** Attachments asked of the host and not yet answered, per station: its entry in `held` is kept for them (`forgetIfUnheld`). */
  private readonly attaching = new Map<number, number>();
  private epoch: string | null = null;
  private readonly subs: Subscription[] = [];
  /** Nonces from the host, asked for in batches, to greet new connections with. */
  private readonly pool: NoncePool;
  /** The series of asks for the last values under way (a newer one ends the one before), and its next ask's timer. */
  private catchUps = 0;
  private askAgain: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  private constructor(
    readonly name: string,
    private readonly nc: NatsConnection,
    private readonly tableId: string,
    private readonly log: Logger,
    private readonly retry: CatchUpRetry,
  ) {
    this.subjects = tableSubjects(tableId);
    this.pool = new NoncePool(async (count) => {
      try {
        const r = await this.nc.request(this.subjects.challenge(this.name), utf8.encode(JSON.stringify({ count })), { timeout: 5000 });
        return ChallengeAnswer.parse(JSON.parse(text.decode(r.data))).nonces;
      } catch (err) {
        this.log.warn({ err }, 'the host did not answer an ask for nonces');
        return [];
      }
    });
  }

  /** `nc`'s `inboxPrefix` must be `edgeInbox(name)`: the host answers an edge on its own inbox only. */
  static async start(options: { name: string; tableId: string; nc: NatsConnection; log: Logger; catchUpRetry?: CatchUpRetry }): Promise<Edge> {
    const edge = new Edge(options.name, options.nc, options.tableId, options.log, options.catchUpRetry ?? CATCH_UP_RETRY);
    await edge.open();
    return edge;
  }

  private async open(): Promise<void> {
    // Live first, then the last values: an update that came meanwhile is newer and is kept.
    this.subs.push(this.nc.subscribe(this.subjects.publicAll, { callback: (err, m) => err || this.takeData(m.data) }));
    this.subs.push(this.nc.subscribe(this.subjects.enrol, { callback: (err, m) => err || this.takeEnrolment(m.data) }));
    this.subs.push(this.nc.subscribe(this.subjects.edgeAll(this.name), { callback: (err, m) => err || this.takeMine(m) }));
    await this.catchUp();
    void this.watchStatus();
  }

  /**
   * The last value of every public part and the enrolment, from the host (at start, after NATS
   * came back, and when the host started again): it sends them on this edge's own subjects, then
   * answers, naming the stations it holds here (`dropNotHeld`). A host not there yet publishes them
   * to every edge itself once it is back; but only the answer says which stations it holds here,
   * so an ask that failed (no responder: the host restarting; a timeout) or was refused (asked too
   * often) is made again, 1 s later, then 2, 4… 30 s at most, until the host answers (`askLast`).
   * Resolves after the first ask. A new catch-up (a reconnection, a new epoch) replaces the series
   * of asks under way, and closing the edge stops it.
   */
  private async catchUp(): Promise<void> {
    if (this.closed) return;
    const series = ++this.catchUps;
    clearTimeout(this.askAgain);
    await this.askLast(series, this.retry.firstMs);
  }

  /** One ask for the last values of the series `series`; if unanswered, the next one `wait` ms later (twice as long after it). */
  private async askLast(series: number, wait: number): Promise<void> {
    // The connections held as the ask goes: the host's answer follows every attachment asked before it.
    const asked = [...this.held].map(([station, h]) => [station, [...h.connections.keys()]] as const).filter(([, hs]) => hs.length > 0);
    let answered = false;
    try {
      const r = await this.nc.request(this.subjects.last(this.name), new Uint8Array(0), { timeout: 5000 });
      const answer = this.lastAnswer(r.data, wait);
      answered = answer?.ok ?? false;
      if (answer?.ok === false) this.log.warn({ askAgainMs: wait }, 'the host sent no last values: asked too often');
      if (answer?.held) this.dropNotHeld(asked, new Set(answer.held));
    } catch (err) {
      this.log.warn({ err, askAgainMs: wait }, 'the host did not answer an ask for the last values');
    }
    // The own parts, the host sends again when asked: each station's it still holds here (one that did not answer would not hear).
    if (answered) for (const station of this.held.keys()) this.askOwn(station);
    if (answered || this.closed || series !== this.catchUps) return;
    this.askAgain = setTimeout(() => void this.askLast(series, Math.min(2 * wait, this.retry.maxMs)), wait);
    this.askAgain.unref();
  }

  /** The host's answer to an ask for the last values, or null (logged) when malformed: nothing in it is acted on, and the ask is made again. */
  private lastAnswer(data: Uint8Array, wait: number): LastAnswer | null {
    try {
      return LastAnswer.parse(JSON.parse(text.decode(data)));
    } catch (err) {
      this.log.warn({ err, askAgainMs: wait }, "the host's answer to an ask for the last values is malformed: asked again");
      return null;
    }
  }

  /**
   * The connections of the stations the host no longer holds at this edge, closed: moved to another
   * edge while this one was away from NATS (the host's `gone` is a plain NATS message, never kept
   * for an absent edge), or held by a host that started again since (it holds none). Left open, such
   * a connection was shown the public parts but never its own part, and each of its commands was
   * answered `unauthorized`. Only those held when the edge asked (`asked`): one attached since is
   * not in the answer and is the host's.
   */
  private dropNotHeld(asked: readonly (readonly [number, readonly EdgeHolder[]])[], held: ReadonlySet<number>): void {
    for (const [station, holders] of asked) {
      if (held.has(station)) continue;
      const h = this.held.get(station);
      // Those still held (one closed meanwhile, or by an answer before this one, is not again).
      const dropped = holders.filter((holder) => h?.connections.delete(holder));
      if (!h || dropped.length === 0) continue;
      this.forgetIfUnheld(station);
      this.log.info({ station, connections: dropped.length }, 'the host does not hold this station at this edge: its connections closed');
      for (const holder of dropped) holder.revoked('not attached here at the table');
    }
  }

  /** Asks the host for a held station's own part whole (after a reconnection, or a patch that did not follow). */
  private askOwn(station: number): void {
    const h = this.held.get(station);
    if (h) h.askedAt = performance.now();
    // On a subject of its own: on the station's command subject it spent the station's message rate at the host.
    this.nc.publish(this.subjects.resend(this.name, station), new Uint8Array(0));
  }

  /** What the host publishes for this edge: a held station's own part or recall, that it attached elsewhere, or the last values asked for. */
  private takeMine(m: Msg): void {
    if (m.subject === this.subjects.edgeEnrol(this.name)) return this.takeEnrolment(m.data);
    if (!m.subject.endsWith('.gone')) return this.takeData(m.data);
    // Read as a command's subject is (`stationInSubject`): with Number, `0x65` or `0101` named station 101.
    const token = m.subject.split('.').at(-2);
    const station = stationInSubject(token);
    if (station === null) return void this.log.warn({ station: token }, 'a `gone` whose subject names no station: ignored');
    const h = this.held.get(station);
    if (!h) return;
    const ended = goneHold(m.data);
    // A hold before the one taken here since (never from an honest host, whose answer comes after its `gone`).
    if (ended < h.hold) return;
    // Every connection held now is of a hold it ended; an attachment under way keeps the station
    // (the host may have taken it after this `gone`: its answer says, `attach`).
    h.ended = Math.max(h.ended, ended);
    const holders = [...h.connections.keys()];
    h.connections.clear();
    this.forgetIfUnheld(station);
    for (const holder of holders) holder.revoked('attached at another edge');
  }

  private async watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === 'reconnect') await this.catchUp();
    }
  }

  private takeData(data: Uint8Array): void {
    this.counters.received++;
    // A copy of NATS's bytes (its buffer is its own), handed to the stations as they came.
    const u = decodeUpdate(data.slice());
    if (!u) {
      this.counters.dropped++;
      return;
    }
    if (u.epoch !== this.epoch) {
      const again = this.epoch !== null;
      this.newEpoch(u.epoch);
      // The host started again and holds no station: asked which (its answer closes the connections it does not hold).
      if (again) void this.catchUp();
    }
    if (u.slot.startsWith('public:')) {
      if (!this.newer(this.parts.get(u.slot), u)) return;
      this.parts.set(u.slot, u);
      for (const h of this.held.values()) for (const holder of subscribed(h)) holder.deliver(u.slot, u.update);
      return;
    }
    const token = u.slot.slice(u.slot.indexOf('/') + 1);
    const station = stationInSubject(token);
    if (station === null) {
      this.counters.dropped++;
      return void this.log.warn({ station: token, slot: u.slot }, "a station's part whose slot names no station: dropped");
    }
    const h = this.held.get(station);
    if (!h) return;
    const recall = u.slot.startsWith('recall:');
    if (!this.newer(recall ? h.recall : h.own, u)) return;
    const taken = u.patchOnly ? this.chain(station, h, u) : u;
    if (taken === null) return;
    if (recall) h.recall = taken;
    else h.own = taken;
    for (const holder of subscribed(h)) holder.deliver(taken.slot, taken.update);
  }

  /**
   * A station's own part published as its patch alone: chained on the version the edge holds (its
   * whole made only if a connection needs it), or, when it does not follow that version, dropped
   * and the part asked for whole.
   */
  private chain(station: number, h: Held, u: PublishedUpdate): PublishedUpdate | null {
    const had = h.own;
    const patch = u.update.patch;
    const follows = had !== null && had.epoch === u.epoch && had.update.version === u.update.version - 1;
    if (!follows || patch === null || (had.update instanceof ChainedOwn && had.update.depth >= MAX_CHAIN)) {
      this.counters.dropped++;
      if (performance.now() - h.askedAt >= ASK_AGAIN_MS) this.askOwn(station);
      return null;
    }
    this.counters.chained++;
    const update = new ChainedOwn(u.update.version, patch, had.update, `station/${station}`, {
      made: () => this.counters.made++,
      failed: () => this.askOwn(station),
    });
    return { ...u, update };
  }

  private newer(had: PublishedUpdate | null | undefined, u: PublishedUpdate): boolean {
    if (had && had.epoch === u.epoch && had.update.version >= u.update.version) {
      this.counters.dropped++;
      return false;
    }
    return true;
  }

  private newEpoch(epoch: string): void {
    if (this.epoch !== null) this.log.info({ from: this.epoch, to: epoch }, 'the host started again: every station is sent its parts whole');
    this.epoch = epoch;
    this.parts.clear();
    for (const h of this.held.values()) {
      h.own = null;
      h.recall = null;
      for (const holder of subscribed(h)) holder.forgetAll();
    }
  }

  private takeEnrolment(data: Uint8Array): void {
    let parsed: PublishedEnrolment;
    try {
      parsed = PublishedEnrolment.parse(JSON.parse(text.decode(data)));
    } catch (err) {
      this.log.warn({ err }, 'the published enrolment is malformed: kept the one before');
      return;
    }
    const next = new Map(parsed.stations.map((s) => [s.station, s.proofKey]));
    const revoked = new Set<EdgeHolder>();
    for (const [station, h] of this.held) {
      const was = this.enrolled.get(station);
      const now = next.get(station);
      if (now && (!was || was === now)) continue;
      // Welcomed and not yet subscribed too: before (a review, 7 December) such a connection
      // stayed open with the revoked credential, and one that never subscribes is never evicted.
      for (const holder of h.connections.keys()) revoked.add(holder);
    }
    this.enrolled = next;
    for (const holder of revoked) holder.revoked();
  }

  /** Whether `proof` is the station's on `nonce`, by the public key the host published. */
  verify(station: number, nonce: string, proof: string): boolean {
    const key = this.enrolled.get(station);
    return key !== undefined && checkStationProof(key, this.tableId, station, nonce, proof);
  }

  /** A nonce from the host to greet a new connection with (its station proves its secret on it), or null (the host gave none). */
  nonce(): Promise<string | null> {
    return this.pool.take();
  }

  /** A nonce a connection was greeted with and never proved a station on: offered again while fresh (NoncePool.giveBack). */
  giveBack(nonce: string): void {
    this.pool.giveBack(nonce);
  }

  /** A nonce for a station enrolled for edges, or null (tests: what a hostile edge can have). */
  async challenge(station: number): Promise<string | null> {
    return this.enrolled.has(station) ? this.pool.take() : null;
  }

  /**
   * Asks the host to take this station's commands from this edge, with the station's proof on
   * the host's nonce (the host checks it itself). From the asking on, the station's own part the
   * host sends here is kept for its connections. True: taken; false: refused; throws
   * `AttachUnanswered` when the host gave no answer (no responder, NATS away, 5 s gone): nothing
   * was refused, and the station is to try again, never told its credential is unknown. An
   * attachment answered after the published enrolment dropped or changed the key the station's
   * proof was checked against is refused (the host took it just before the revocation). Taken,
   * `holder` is one of the station's welcomed connections from then on (closed at a revocation)
   * until it is released.
   */
  async attach(station: number, nonce: string, proof: string, holder?: EdgeHolder): Promise<boolean> {
    const key = this.enrolled.get(station);
    if (!this.held.has(station)) this.held.set(station, { connections: new Map(), own: null, recall: null, askedAt: -Infinity, hold: 0, ended: 0 });
    this.attaching.set(station, (this.attaching.get(station) ?? 0) + 1);
    let ok = false;
    let unanswered: unknown = null;
    this.pool.spent(nonce);
    try {
      const r = await this.nc.request(this.subjects.attach(this.name), utf8.encode(JSON.stringify({ station, nonce, proof })), { timeout: 5000 });
      try {
        const a = AttachAnswer.parse(JSON.parse(text.decode(r.data)));
        ok = a.ok && this.notEnded(station, a.hold);
      } catch (err) {
        this.log.warn({ err, station }, "the host's answer to an attachment is malformed: taken as a refusal");
      }
    } catch (err) {
      this.log.warn({ err, station }, 'the host did not answer an attachment');
      unanswered = err;
    }
    if (ok && this.enrolled.get(station) !== key) {
      this.log.info({ station }, 'an attachment the host took was answered after the station was revoked: refused');
      ok = false;
    }
    if (ok && holder) this.held.get(station)?.connections.set(holder, false);
    const left = (this.attaching.get(station) ?? 1) - 1;
    if (left > 0) this.attaching.set(station, left);
    else {
      this.attaching.delete(station);
      // What a `gone` ended is for the attachments under way then only: kept, it would refuse the
      // holds of a host started since, whose numbers start again.
      const h = this.held.get(station);
      if (h) h.ended = 0;
    }
    if (!ok) this.forgetIfUnheld(station);
    if (unanswered !== null) throw new AttachUnanswered(unanswered);
    return ok;
  }

  /**
   * Whether the hold an attachment was answered with still stands: a `gone` read before the
   * answer was acted on (both came in one read from NATS) may have ended it, the station attached
   * at another edge since. When it stands it is the hold here (the host's answers come in the
   * order it took them; a host started again numbers from 1 again).
   */
  private notEnded(station: number, hold: number | undefined): boolean {
    const h = this.held.get(station);
    if (hold === undefined || !h) return true;
    if (hold <= h.ended) {
      this.log.info({ station, hold }, 'an attachment the host took was ended since (the station attached at another edge)');
      return false;
    }
    h.hold = hold;
    return true;
  }

  /**
   * A station forgotten once no connection holds it here and no attachment of it is under way.
   * One under way keeps it (its old connection closed, another attachment refused, or an answer
   * to the last values asked before it dropped the old one meanwhile): the host's answer, and the
   * own part it sends right after (often read before the attachment's answer is acted on), are
   * for that station here. Forgotten, the new connection was closed 'attached at another edge' as
   * it subscribed (`hold`), and its own part was dropped.
   */
  private forgetIfUnheld(station: number): void {
    if (this.held.get(station)?.connections.size === 0 && !this.attaching.has(station)) this.held.delete(station);
  }

  /** A connection of `holder.station`, attached, subscribed: it is sent what the edge holds now, then every update. */
  hold(holder: EdgeHolder): void {
    const h = this.held.get(holder.station);
    // Attached elsewhere meanwhile: this connection is not the station's any more.
    if (!h) return holder.revoked('attached at another edge');
    h.connections.set(holder, true);
    for (const [slot, u] of this.parts) holder.deliver(slot, u.update);
    if (h.own) holder.deliver(h.own.slot, h.own.update);
  }

  /**
   * A connection gone, subscribed or not: its station forgotten if it was the last. Before (a review,
   * 7 December) only a subscribed one's going forgot it: a station that dialled, proved itself and
   * hung up again and again stayed held here, its own part kept and asked for at each reconnection.
   */
  release(holder: EdgeHolder): void {
    if (this.held.get(holder.station)?.connections.delete(holder)) this.forgetIfUnheld(holder.station);
  }

  /** What the edge holds for a slot, whole (a screen's resync of a part the edge keeps). */
  resend(holder: EdgeHolder, slot: string): void {
    const u = slot.startsWith('public:') ? this.parts.get(slot) : this.held.get(holder.station)?.own;
    if (u && u.slot === slot) holder.deliver(slot, u.update);
  }

  /** A station's message for the host (a command, a resync of its recall): the host's answer's text, if it gives one. */
  async forward(station: number, message: string, answered: boolean): Promise<string | null> {
    const subject = this.subjects.command(this.name, station);
    if (!answered) {
      this.nc.publish(subject, utf8.encode(message));
      return null;
    }
    this.counters.commands++;
    const r = await this.nc.request(subject, utf8.encode(message), { timeout: 5000 });
    return text.decode(r.data);
  }

  /** Stations held now (tests). */
  stations(): number[] {
    return [...this.held.keys()];
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.askAgain);
    for (const s of this.subs.splice(0)) s.unsubscribe();
    this.held.clear();
  }
}

/** The host did not answer an attachment: the station's connection is closed to be tried again, not refused. */
export class AttachUnanswered extends Error {
  constructor(cause: unknown) {
    super('the host did not answer the attachment', { cause });
    this.name = 'AttachUnanswered';
  }
}

/** The connections of a held station that subscribed: those sent its parts. */
function* subscribed(h: Held): Iterable<EdgeHolder> {
  for (const [holder, isSubscribed] of h.connections) if (isSubscribed) yield holder;
}

/** The hold a `gone` ended: every hold, for one that names none (a host before 6 December). */
function goneHold(data: Uint8Array): number {
  try {
    return Gone.parse(JSON.parse(text.decode(data))).hold;
  } catch {
    return Infinity;
  }
}
