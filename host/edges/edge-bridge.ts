import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { decodeClientMessage, encode, protocolError, stationOf, stationView, type HostMessage, type ViewName } from '../../protocol/index.js';
import type { ViewHub, ViewSink } from '../screens/view-hub.js';
import { INCOMING_LIMITS } from '../screens/screen-session.js';
import { TokenBucket } from '../limits/token-bucket.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import { checkStationProof, newNonce } from '../stadium/station-proof.js';
import { holdWrites, writeNow } from './nats-flush.js';
import { WHOLE_EVERY } from './own-chain.js';
import { Attach, ChallengeRequest, edgeInbox, encodeUpdate, stationInSubject, tableSubjects, type TableSubjects } from './subjects.js';

export interface EdgeBridgeDeps {
  hub: ViewHub;
  stations: RemoteStations;
  nc: NatsConnection;
  tableId: string;
  log: Logger;
}

/** What the bridge counts (the stadium bench prints them). */
export interface BridgeCounters {
  published: number;
  bytes: number;
  /** Stations' own parts published to their edges as the patch alone, and whole (with the patch, if any). */
  ownPatches: number;
  ownWholes: number;
  commands: number;
  /** Commands, challenges and attachments refused: a station its edge does not hold, a wrong proof, a malformed message. */
  refused: number;
}

const utf8 = new TextEncoder();
/** Nonces outstanding at once per edge (each greets one connection; a flood of them costs the host that many). */
const MAX_NONCES_PER_EDGE = 2048;
/** How long a nonce is good for once issued. */
const NONCE_MS = 10_000;
const text = new TextDecoder();
/** What the host's NATS client may hold of one change before writing it (a settlement at 2,000 stations is about 400 KiB). */
const CHANGE_BYTES = 1 << 20;
/** An edge's asks for the last values (at its start and after each reconnection to NATS): at once, and sustained. */
const CATCH_UPS = { burst: 8, perSecond: 1 } as const;
/**
 * An edge's asks for a held station's own part whole (`resend.<edge>.<N>`), per station: one at
 * each of its catch-ups and at most one a second for patches that do not follow (Edge.askOwn).
 */
const OWN_ASKS = { burst: 4, perSecond: 1 } as const;

/**
 * The table host's side of the edges (issue 55): the hub's updates go to NATS instead of to
 * sockets, each once. The public parts (the round, the panel) are published once per change on
 * the table's public subjects, whatever the number of stations; each remote station's own part
 * (and its recall, when asked for) on its own subject. The bridge keeps the last of each public part.
 *
 * A station attaches at an edge by proving its secret on a nonce this bridge issued to that edge
 * (host/stadium/station-proof.ts; the edge greets each new connection with one): the edge relays
 * the proof and never sees the secret. A nonce is good once, at the edge it was issued to, for
 * 10 s; the proof names the station, and the first attachment that spends the nonce binds it to
 * that station, so a proof is good once for one station at one edge. The station's own parts then go to that edge's subjects only
 * (and `gone` to the edge that held it before), so an edge reads the own parts of the stations it
 * holds and no other's. Commands come back on `cmd.<edge>.<station>`: the host takes one only from
 * the edge that attached that station, so an edge cannot act for a station it does not hold, and
 * NATS lets each edge's user publish under its own name only. Each command is then checked by the
 * hub and the table's state machine exactly as a screen's: the edges decide nothing.
 *
 * An edge that starts, or comes back to NATS, asks this bridge for the last values (`last.<edge>`)
 * and is sent them on its own subjects. It is given no other responder than this bridge, which
 * answers on the edge's own inbox only: NATS bounds the subjects an edge publishes on, never the
 * reply subject it names, and JetStream's API (which the edges once read the last values from)
 * writes its answer wherever that says, the table's enrolment and another edge's subjects included.
 */
export class EdgeBridge {
  /** A new one at each start: an edge that sees it change forgets what it had (versions start again). */
  readonly epoch = randomBytes(9).toString('base64url');
  readonly counters: BridgeCounters = { published: 0, bytes: 0, ownPatches: 0, ownWholes: 0, commands: 0, refused: 0 };
  private readonly subjects: TableSubjects;
  /** Which edge holds each station (the last one that attached it with its secret). */
  private readonly held = new Map<number, string>();
  /** The number of each station's hold (`held`): a `gone` names the one it ended, an attachment's answer the one it made. */
  private readonly holdNo = new Map<number, number>();
  private holds = 0;
  private readonly buckets = new Map<number, TokenBucket>();
  /** Each station's own part asked for whole by its edge (OWN_ASKS): the edge's, not the station's message rate (`buckets`). */
  private readonly ownAsks = new Map<number, TokenBucket>();
  /** Each edge's refusals answered and logged (its NATS user names it: as many as the edges configured). */
  private readonly refusals = new Map<string, TokenBucket>();
  /** Each edge's asks for the last values. */
  private readonly catchUps = new Map<string, TokenBucket>();
  /** The last message published on each public subject and on the enrolment: sent an edge that asks, and again to all after NATS restarts. */
  private readonly last = new Map<string, Uint8Array>();
  /** Each station's last recall as encoded: sent again after NATS restarts. */
  private readonly lastRecall = new Map<number, Uint8Array>();
  /**
   * Per station, the own part's version last sent to the edge that holds it, and how many patches
   * alone since its last whole: absent when that edge has none of it (it attached, it asked for it
   * whole, NATS came back), so the next goes whole.
   */
  private readonly ownSent = new Map<number, { version: number; chained: number }>();
  /** The nonces issued and not yet used: to which edge, until when (ms, performance.now()); spent by its own edge's try (another edge's is refused and spends nothing). */
  private readonly nonces = new Map<string, { edge: string; until: number }>();
  /** How many of them each edge has outstanding. */
  private readonly outstanding = new Map<string, number>();
  private readonly stops: (() => void)[] = [];
  private readonly subs: Subscription[] = [];
  private closed = false;
  /** Published in the hub's change under way and not yet written (`changeDone` writes it). */
  private unwritten = false;
  /** A public part among it: written before the change's first own part (`send`). */
  private publicUnwritten = false;

  private constructor(private readonly deps: EdgeBridgeDeps) {
    this.subjects = tableSubjects(deps.tableId);
    holdWrites(deps.nc, CHANGE_BYTES);
  }

  static start(deps: EdgeBridgeDeps): Promise<EdgeBridge> {
    const bridge = new EdgeBridge(deps);
    bridge.open();
    return Promise.resolve(bridge);
  }

  private open(): void {
    const { hub, stations, nc } = this.deps;
    this.stops.push(hub.subscribeParts(this.sink((slot) => this.subjects.publicPart(slot.slice('public:'.length)))));
    for (const view of hub.remoteViews()) {
      const station = stationOf(view);
      if (station === null) continue;
      this.stops.push(hub.subscribe(view, `edge:${station}`, this.stationSink(station), false));
    }
    this.publishEnrolment();
    this.stops.push(stations.onChange(() => this.publishEnrolment()));
    // A revoked (or enrolled again) station is held by no edge until it attaches again.
    this.stops.push(
      stations.onRevoked((s) => {
        this.held.delete(s);
        this.holdNo.delete(s);
        this.ownSent.delete(s);
      }),
    );
    this.subs.push(nc.subscribe(this.subjects.challengeAll, { callback: this.guarded('challenge', (m) => this.challenge(m)) }));
    this.subs.push(nc.subscribe(this.subjects.attachAll, { callback: this.guarded('attachment', (m) => this.attach(m)) }));
    this.subs.push(nc.subscribe(this.subjects.commandAll, { callback: this.guarded('command', (m) => this.command(m)) }));
    this.subs.push(nc.subscribe(this.subjects.resendAll, { callback: this.guarded('ask for an own part', (m) => this.resendOwn(m)) }));
    this.subs.push(nc.subscribe(this.subjects.lastAll, { callback: this.guarded('ask for the last values', (m) => this.catchUp(m)) }));
    void this.watchStatus();
  }

  /**
   * A subscription's callback that never throws: nats.js catches a throw out of one and stops
   * reading the connection without closing it, so every edge would hear nothing more from the host
   * until the ping check reconnects (minutes). Logged instead.
   */
  private guarded(what: string, handle: (m: Msg) => void): (err: Error | null, m: Msg) => void {
    return (err, m) => {
      if (err) return;
      try {
        handle(m);
      } catch (e) {
        this.deps.log.error({ err: e, subject: m.subject }, `an edge's ${what} could not be handled`);
      }
    };
  }

  /**
   * After NATS comes back: every last value and each held station's own part whole at once, live
   * (an edge back before the host had its own ask for them fall on nobody: a table waiting for
   * bets would change nothing more); an edge back after the host asks for them (`catchUp`).
   */
  private async watchStatus(): Promise<void> {
    for await (const s of this.deps.nc.status()) {
      if (this.closed) return;
      if (s.type !== 'reconnect') continue;
      for (const [subject, data] of this.last) this.deps.nc.publish(subject, data);
      for (const station of this.held.keys()) this.sendOwn(station, true);
      writeNow(this.deps.nc);
      this.deps.log.info({ subjects: this.last.size }, 'NATS reconnected: last values published again');
    }
  }

  /**
   * `last.<edge>`: the last value of each public part and the enrolment, on that edge's own
   * subjects (an edge that starts, or came back to NATS, is whole at once), then the answer on its
   * inbox, which comes after them, naming the stations the edge holds. At most `CATCH_UPS` an edge:
   * each costs the host every part.
   */
  private catchUp(m: Msg): void {
    const edge = m.subject.split('.').at(-1) ?? '';
    let bucket = this.catchUps.get(edge);
    if (!bucket) this.catchUps.set(edge, (bucket = new TokenBucket(CATCH_UPS.burst, CATCH_UPS.perSecond, () => performance.now())));
    if (!bucket.take()) {
      if (this.refused(edge, {}, 'an edge asked for the last values too often: not sent')) this.answer(m, edge, JSON.stringify({ ok: false }));
      return;
    }
    for (const [subject, data] of this.last)
      this.deps.nc.publish(subject === this.subjects.enrol ? this.subjects.edgeEnrol(edge) : this.subjects.edgePublic(edge), data);
    this.answer(m, edge, JSON.stringify({ ok: true, held: this.heldAt(edge) }));
    writeNow(this.deps.nc);
  }

  /**
   * The public parts' sink. What a change of the hub published goes to NATS in two writes at most:
   * its public parts (the round, the panel) together, before the change's first own part is
   * published (`send`), and the own parts of every station it moved together at the change's end
   * (`changeDone`). Not at the end of the task, which may go on to a durable commit (a settling
   * card's round would wait for the settlement), nor part by part: an edge sends each station what
   * one read from NATS brings in one write, and the settlement's round and panel written apart were
   * two writes to every station, its own parts in 32 KiB pieces more turns of the edge.
   */
  private sink(subjectOf: (slot: string) => string): ViewSink {
    return {
      deliver: (slot, update) => this.publish(subjectOf(slot), encodeUpdate(this.epoch, slot, update)),
      changeDone: () => {
        if (!this.unwritten || this.closed) return;
        this.unwritten = false;
        this.publicUnwritten = false;
        writeNow(this.deps.nc);
      },
    };
  }

  /**
   * A station's own part and recall, published to the edge that holds it, if one does. The own
   * part goes as its patch alone when that edge was sent the version before (it makes the whole
   * itself if a connection needs it, host/edges/own-chain.ts), whole with its patch otherwise: the
   * first to an edge, after a version it missed, when the host made no patch, and every
   * `WHOLE_EVERY` versions. The recall (never patched) is kept to send again.
   */
  private stationSink(station: number): ViewSink {
    return {
      deliver: (slot, update) => {
        if (this.closed) return;
        const edge = this.held.get(station);
        if (slot.startsWith('recall:')) {
          const data = encodeUpdate(this.epoch, slot, update);
          this.lastRecall.set(station, data);
          if (edge !== undefined) this.send(this.subjects.recall(edge, station), data);
          return;
        }
        if (edge === undefined) return;
        const sent = this.ownSent.get(station);
        const patchOnly = update.patch !== null && sent !== undefined && sent.version === update.version - 1 && sent.chained < WHOLE_EVERY;
        this.send(this.subjects.own(edge, station), encodeUpdate(this.epoch, slot, update, !patchOnly));
        if (patchOnly) this.counters.ownPatches++;
        else this.counters.ownWholes++;
        this.ownSent.set(station, { version: update.version, chained: patchOnly && sent ? sent.chained + 1 : 0 });
      },
    };
  }

  /** The station's own part as it stands (and its last recall, `withRecall`) to the edge that holds it, whole. */
  private sendOwn(station: number, withRecall: boolean): void {
    const edge = this.held.get(station);
    if (edge === undefined) return;
    this.ownSent.delete(station);
    const view = stationView(station);
    this.deps.hub.resend(view, `edge:${station}`, this.stationSink(station), ['own']);
    const recall = this.lastRecall.get(station);
    if (withRecall && recall) this.send(this.subjects.recall(edge, station), recall);
  }

  private send(subject: string, data: Uint8Array): void {
    // The change's public parts leave first, together, while its own parts are made.
    if (this.publicUnwritten) {
      this.publicUnwritten = false;
      writeNow(this.deps.nc);
    }
    this.counters.published++;
    this.counters.bytes += data.byteLength;
    this.deps.nc.publish(subject, data);
    this.unwritten = true;
  }

  /** A public part, kept as its subject's last value; written with the change's other public parts (`sink`). */
  private publish(subject: string, data: Uint8Array): void {
    if (this.closed) return;
    this.last.set(subject, data);
    this.counters.published++;
    this.counters.bytes += data.byteLength;
    this.deps.nc.publish(subject, data);
    this.unwritten = true;
    this.publicUnwritten = true;
  }

  private publishEnrolment(): void {
    const data = utf8.encode(JSON.stringify({ stations: this.deps.stations.proofKeys() }));
    this.last.set(this.subjects.enrol, data);
    this.deps.nc.publish(this.subjects.enrol, data);
  }

  /** Short JSON requests only (a challenge, an attachment): anything longer is not parsed. */
  private json(m: Msg): unknown {
    if (m.data.byteLength > 512) throw new Error('too long');
    return JSON.parse(text.decode(m.data));
  }

  /**
   * `challenge.<edge>` {count}: that many nonces for the edge to greet its new connections with,
   * each good once for 10 s, bound to a station by the attachment that spends it. An edge has at
   * most `MAX_NONCES_PER_EDGE` outstanding: a flood of asks costs the host that.
   */
  private challenge(m: Msg): void {
    const edge = m.subject.split('.').at(-1) ?? '';
    const issued: string[] = [];
    try {
      const c = ChallengeRequest.parse(this.json(m));
      const now = performance.now();
      if ((this.outstanding.get(edge) ?? 0) + c.count > MAX_NONCES_PER_EDGE) for (const [n, x] of this.nonces) if (x.until < now) this.spend(n);
      const room = Math.min(c.count, MAX_NONCES_PER_EDGE - (this.outstanding.get(edge) ?? 0));
      for (let i = 0; i < room; i++) {
        const nonce = newNonce();
        this.nonces.set(nonce, { edge, until: now + NONCE_MS });
        issued.push(nonce);
      }
      this.outstanding.set(edge, (this.outstanding.get(edge) ?? 0) + Math.max(0, room));
      if (room < c.count && !this.refused(edge, { asked: c.count, issued: room }, 'an edge asked more nonces than its share: not all issued')) return;
    } catch {
      if (!this.refused(edge, {}, 'an edge sent a malformed challenge: refused')) return;
    }
    this.answer(m, edge, JSON.stringify({ nonces: issued }));
  }

  /**
   * `attach.<edge>` {station, nonce, proof}: the edge holds that station from now on, if the
   * nonce is one issued to this edge, unused and in time, and the proof is the station's on it.
   * A nonce issued to this edge is spent whatever the outcome; another edge's is left alone.
   */
  private attach(m: Msg): void {
    const edge = m.subject.split('.').at(-1) ?? '';
    let ok = false;
    let answered = true;
    let station = 0;
    try {
      const a = Attach.safeParse(this.json(m));
      const issued = a.success ? this.nonces.get(a.data.nonce) : undefined;
      // Spent by its own edge's try only: a nonce is no secret (an edge greets every connection
      // with one, and gives an unproved connection's back to greet the next), and another edge
      // spending it had the station greeted with it next refused. No other edge can attach with it.
      if (a.success && issued?.edge === edge) this.spend(a.data.nonce);
      const key = a.success ? this.deps.stations.proofKey(a.data.station) : null;
      ok =
        a.success &&
        issued !== undefined &&
        issued.edge === edge &&
        issued.until >= performance.now() &&
        key !== null &&
        this.deps.hub.hasView(stationView(a.data.station)) &&
        checkStationProof(key, this.deps.tableId, a.data.station, a.data.nonce, a.data.proof);
      if (a.success && ok) this.hold((station = a.data.station), edge);
      else
        answered = this.refused(
          edge,
          { station: a.success ? a.data.station : null },
          'an edge attached a station without its proof on a nonce of its own: refused',
        );
    } catch {
      answered = this.refused(edge, {}, 'an edge sent a malformed attachment: refused');
    }
    if (answered) this.answer(m, edge, JSON.stringify(ok ? { ok, hold: this.holdNo.get(station) } : { ok }));
    // After the answer: the edge's copy of the station's part, whole.
    if (ok) this.sendOwn(station, false);
  }

  private spend(nonce: string): void {
    const x = this.nonces.get(nonce);
    if (!x) return;
    this.nonces.delete(nonce);
    this.outstanding.set(x.edge, (this.outstanding.get(x.edge) ?? 1) - 1);
  }

  /** `edge` holds `station` now; the edge that held it before is told it is gone (it closes its connections). */
  private hold(station: number, edge: string): void {
    const was = this.held.get(station);
    const ended = this.holdNo.get(station);
    this.held.set(station, edge);
    this.holdNo.set(station, ++this.holds);
    this.ownSent.delete(station);
    // Naming the hold it ends: the old edge keeps an attachment of its own the host took after this (`Edge.takeMine`).
    if (was !== undefined && was !== edge) this.deps.nc.publish(this.subjects.gone(was, station), utf8.encode(JSON.stringify({ hold: ended })));
  }

  /**
   * `resend.<edge>.<station>`: the edge that holds a station asks for its own part whole (it
   * reconnected, or a patch did not follow what it holds). Before (a review, 7 December) it asked on
   * the station's command subject, and each ask spent the station's message rate: an edge asking
   * 40 times had the station's next bet refused `rate-limited`.
   */
  private resendOwn(m: Msg): void {
    const [, , , edge = '', st] = m.subject.split('.');
    const station = stationInSubject(st);
    if (station === null || this.held.get(station) !== edge) {
      this.refused(edge, { station: st }, 'an edge asked for the own part of a station it does not hold: refused');
      return;
    }
    let bucket = this.ownAsks.get(station);
    if (!bucket) this.ownAsks.set(station, (bucket = new TokenBucket(OWN_ASKS.burst, OWN_ASKS.perSecond, () => performance.now())));
    if (!bucket.take()) return void this.refused(edge, { station }, "an edge asked for a station's own part too often: not sent");
    this.sendOwn(station, false);
  }

  /** `cmd.<edge>.<station>`: a station's message through the edge that holds it, checked as a screen's. */
  private command(m: Msg): void {
    const [, , , edge = '', st] = m.subject.split('.');
    const station = stationInSubject(st);
    const answer = (reply: HostMessage) => this.answer(m, edge, encode(reply));
    if (station === null) {
      // Read with Number before (a review, 7 December): `0x65` or `101e0` was station 101.
      if (this.refused(edge, { station: st }, 'a command on a subject that names no station: refused'))
        answer(protocolError('unauthorized', 'this edge does not hold that station'));
      return;
    }
    if (this.held.get(station) !== edge) {
      if (this.refused(edge, { station: st }, 'a command for a station this edge does not hold: refused'))
        answer(protocolError('unauthorized', 'this edge does not hold that station'));
      return;
    }
    let bucket = this.buckets.get(station);
    if (!bucket) this.buckets.set(station, (bucket = new TokenBucket(INCOMING_LIMITS.burst, INCOMING_LIMITS.perSecond, () => performance.now())));
    if (!bucket.take()) return void answer(protocolError('rate-limited', 'too many messages from this station'));
    const decoded = decodeClientMessage(text.decode(m.data));
    if (!decoded.ok) return void answer(decoded.error);
    const c = decoded.message;
    const view: ViewName = stationView(station);
    if (c.type === 'resync') {
      // The edge resends the public parts itself; the recall is made here, and the own part is the
      // last one sent again for an edge before 7 December, which asked for it here, on the station's
      // message rate (it asks on `resend` now, `resendOwn`, and forwards a screen's resync with the
      // recall alone since 8 December). Kept while such an edge may still be running: an edge is
      // upgraded on its own machine, and without it that edge's stations would wait for the part
      // whole until the host's next (at most WHOLE_EVERY versions).
      if (c.view === view && c.parts.includes('recall')) this.deps.hub.resend(view, `edge:${station}`, this.stationSink(station), ['recall']);
      if (c.view === view && c.parts.includes('own')) this.sendOwn(station, false);
      return;
    }
    if (c.type !== 'command')
      return void answer(protocolError('invalid-message', `${c.type} is the edge's to answer`, { ...('id' in c ? { ref: c.id } : {}) }));
    if (c.view !== view) return void answer(protocolError('forbidden-view', `this station may not act for ${c.view}`, { ref: c.id, view: c.view }));
    this.counters.commands++;
    // A command the table could not take (its journal refused a write: a full disk) is refused, as a screen's is.
    const failed = (err: unknown) => {
      this.deps.log.error({ err, station, edge }, 'a command through an edge failed: refused');
      answer(protocolError('internal', 'the table could not take this command', { ref: c.id }));
    };
    let result: ReturnType<typeof this.deps.hub.commands.submit>;
    try {
      result = this.deps.hub.commands.submit(view, c.version, c.command);
    } catch (err) {
      return failed(err);
    }
    const reply = (r: Awaited<typeof result>) => answer(r.ok ? { type: 'ack', ref: c.id, view, version: r.version } : { ...r.error, ref: c.id });
    if (result instanceof Promise) void result.then(reply, failed);
    else reply(result);
  }

  /**
   * Answers a request on the asking edge's own inbox only. The reply subject is the one field of a
   * message its NATS permissions do not bound, and the host's user may publish anywhere: answered
   * as given, an edge could have the host write on the enrolment or a station's kept subject, or
   * call JetStream's API.
   */
  private answer(m: Msg, edge: string, reply: string): void {
    if (!m.reply) return;
    if (!m.reply.startsWith(`${edgeInbox(edge)}.`))
      return void this.deps.log.warn({ edge, reply: m.reply }, 'an edge asked to be answered outside its inbox: not answered');
    m.respond(utf8.encode(reply));
  }

  /**
   * Counts a refusal; logs and answers it (true) within the edge's refusal rate, a screen's
   * (`INCOMING_LIMITS.refused`): past it an edge's flood of wrong attachments or of commands for
   * stations it does not hold costs the host a count, not a log line and an answer each.
   */
  private refused(edge: string, fields: object, line: string): boolean {
    this.counters.refused++;
    let bucket = this.refusals.get(edge);
    if (!bucket) this.refusals.set(edge, (bucket = new TokenBucket(INCOMING_LIMITS.refused.burst, INCOMING_LIMITS.refused.perSecond, () => performance.now())));
    if (!bucket.take()) return false;
    this.deps.log.warn({ edge, ...fields }, line);
    return true;
  }

  /** The stations `edge` holds (the edge closes its connections of any other: a `gone` it never heard). */
  private heldAt(edge: string): number[] {
    return [...this.held].filter(([, e]) => e === edge).map(([s]) => s);
  }

  /** Which edge holds a station (tests, the bench). */
  holder(station: number): string | null {
    return this.held.get(station) ?? null;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.stops.splice(0)) stop();
    for (const s of this.subs.splice(0)) s.unsubscribe();
  }
}
