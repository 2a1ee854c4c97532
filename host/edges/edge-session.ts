import type { Logger } from 'pino';
import {
  PROTOCOL_VERSION,
  decodeClientMessage,
  encode,
  protocolError,
  stationView,
  type ClientMessage,
  type HostMessage,
  type ProtocolError,
} from '../../protocol/index.js';
import { Outbox, OUTBOX_LIMITS, SharedMessage, type Update } from '../screens/outbox.js';
import { INCOMING_LIMITS, MAX_PROTOCOL_ERRORS, RESYNC_LIMITS, STATION_CLOSE_REASONS, type StationConnections } from '../screens/screen-session.js';
import { MessageRate, type RateVerdict } from '../limits/message-rate.js';
import { TokenBucket } from '../limits/token-bucket.js';
import type { Edge, EdgeHolder } from './edge.js';

let nextSession = 1;

/** A station's connection as its session writes to it (edge-server.ts: its WebSocket, batched per turn). */
export interface EdgeTransport {
  /** A message to the station, with no callback: written out when the socket can. */
  send(message: SharedMessage): void;
  /** Bytes handed over and not yet written out (the socket's `bufferedAmount`). */
  buffered(): number;
  close(code: number, reason: string): void;
}

/**
 * One station's connection at an edge: the same protocol as at the table's own LAN listener
 * (`hello-station`, `subscribe`, commands, resyncs), with the same bounded outbox (latest
 * snapshot wins) and the same rate limit. A station may speak only as itself: it proves its secret
 * on the host's nonce (the challenge the edge greets each connection with, so the proof goes with
 * the station's first frame), checked against the key the host published and then by the host
 * itself (the attachment); every command names its own view and goes to the host, which answers it.
 */
export class EdgeSession implements EdgeHolder {
  readonly id = `e${nextSession++}`;
  station = 0;
  private granted = false;
  /** The nonce this connection was greeted with, to prove its station's secret on once (null: none given, or spent). */
  private offered: Promise<string | null>;
  private subscribed = false;
  private closed = false;
  private errors = 0;
  /** Releases this connection's place among its station's (`screens`). */
  private releaseStation: (() => void) | null = null;
  private readonly rate = new MessageRate(INCOMING_LIMITS, () => performance.now());
  /** The parts asked for whole, as at the table's own listener (RESYNC_LIMITS). */
  private readonly resyncBucket = new TokenBucket(RESYNC_LIMITS.burst, RESYNC_LIMITS.perSecond, () => performance.now());
  /**
   * The host's stale and rejected answers, as at the table's own listener (`INCOMING_LIMITS.refused`):
   * each acknowledged command gives one back. Past it the connection is closed.
   */
  private readonly refusedBucket = new TokenBucket(INCOMING_LIMITS.refused.burst, INCOMING_LIMITS.refused.perSecond, () => performance.now());
  readonly outbox: Outbox;
  private handling: Promise<void> = Promise.resolve();
  /** The host's answers keep the order of the commands. */
  private answering: Promise<void> = Promise.resolve();

  constructor(
    private readonly edge: Edge,
    private readonly transport: EdgeTransport,
    private readonly log: Logger,
    /** Bytes in the socket past which updates wait in their slots (the owner calls `outbox.drained()` on its `drain`). */
    highWater = OUTBOX_LIMITS.highWater,
    /** The welcomed connections of each station at this edge (edge-server.ts): past SCREENS_PER_STATION the oldest is closed. */
    private readonly screens: StationConnections | null = null,
  ) {
    this.outbox = new Outbox({ send: (m) => transport.send(m), buffered: () => transport.buffered() }, { ...OUTBOX_LIMITS, highWater }, () =>
      this.close(1013, 'send buffer full'),
    );
    this.offered = edge.nonce();
    void this.offered.then((nonce) => {
      if (nonce === null) this.close(1013, 'the table gave no nonce; try again');
      else this.reply({ type: 'challenge', nonce });
    });
  }

  /** Whether the station proved its secret and was attached (the server closes a connection that has not within 10 s). */
  welcomed(): boolean {
    return this.granted;
  }

  receive(raw: unknown): void {
    if (this.closed) return;
    // Before anything is parsed: a flood costs a counter per message.
    const verdict = this.rate.judge();
    if (verdict !== 'take') return this.overRate(verdict);
    const decoded = decodeClientMessage(raw);
    if (!decoded.ok) return this.refuse(decoded.error);
    // One at a time, in order: a subscribe waits for the hello's attachment at the host.
    const m = decoded.message;
    this.handling = this.handling
      .then(() => this.handle(m, typeof raw === 'string' ? raw : null))
      .catch((err: unknown) => {
        this.log.error({ err, session: this.id }, 'an edge session could not handle a message');
        // Naming the message it answers: a screen says an `internal` with no ref for nothing (error-kind.ts).
        this.refuse(protocolError('internal', 'the edge could not handle this message', 'id' in m ? { ref: m.id } : {}));
      });
  }

  /** A station's hello: its proof on the nonce this connection was greeted with, checked here then by the host (the attachment). */
  private async greet(m: Extract<ClientMessage, { type: 'hello' | 'hello-station' }>): Promise<void> {
    if (this.granted) return this.refuse(protocolError('already-greeted', 'hello was already accepted', { ref: m.id }));
    if (m.type === 'hello') return this.refuse(protocolError('unauthorized', 'a station proves its credential here', { ref: m.id }), true);
    if (m.protocol !== PROTOCOL_VERSION)
      return this.refuse(protocolError('protocol-version', `edge speaks protocol ${PROTOCOL_VERSION}, screen sent ${m.protocol}`, { ref: m.id }), true);
    // A secret is never taken here (an edge that learnt it could be the station later): the station proves it.
    if (m.secret !== undefined) return this.refuse(protocolError('unauthorized', 'a station proves its secret here, never sends it', { ref: m.id }), true);
    if (m.nonce === undefined || m.proof === undefined)
      return this.refuse(protocolError('unauthorized', 'a station proves its secret on the nonce it was greeted with', { ref: m.id }), true);
    // The proof on the nonce this connection was greeted with, once. Not yet spent: a refusal
    // before the host is asked closes the connection, which gives the nonce back (dispose).
    const offered = await this.offered;
    if (offered === null || offered !== m.nonce)
      return this.refuse(protocolError('unauthorized', 'a proof on a nonce this connection was not given', { ref: m.id }), true);
    this.station = m.station;
    // The published key first (a stranger costs the host nothing), then the host's own check.
    if (!this.edge.verify(m.station, m.nonce, m.proof)) return this.refuse(protocolError('unauthorized', 'unknown station credential', { ref: m.id }), true);
    // Sent to the host with a proof: spent there, whatever its answer.
    this.offered = Promise.resolve(null);
    let attached: boolean;
    try {
      attached = await this.edge.attach(m.station, m.nonce, m.proof, this);
    } catch {
      // No answer is no refusal: said `unauthorized`, the station's screen would stay on it until
      // an attendant came. Closed as a connection the table gave no nonce is, to be tried again.
      return this.close(1013, 'the table did not answer; try again');
    }
    // Gone while the host was asked (the station dialled again, the guard's deadline): taken, it
    // is let go here. Before (a review, 7 December) it was counted among its station's screens
    // after its close, and such dead connections closed the station's live one as 'replaced'.
    if (this.closed) return this.edge.release(this);
    if (!attached) return this.refuse(protocolError('unauthorized', 'unknown station credential', { ref: m.id }), true);
    this.granted = true;
    // As at the host's own listener: a welcomed connection is never evicted by the guard, so one
    // credential's connections are bounded here, the oldest closed past SCREENS_PER_STATION.
    this.releaseStation = this.screens?.opened(m.station, (why) => this.close(1008, STATION_CLOSE_REASONS[why])) ?? null;
    this.log.info({ session: this.id, station: m.station }, 'station connected to the edge');
    return this.reply({ type: 'welcome', ref: m.id, protocol: PROTOCOL_VERSION, session: this.id, view: stationView(m.station) });
  }

  private async handle(m: ClientMessage, raw: string | null): Promise<void> {
    if (m.type === 'hello' || m.type === 'hello-station') return this.greet(m);
    if (!this.granted) return this.refuse(protocolError('hello-required', `${m.type} before hello`, { ref: m.id }));
    if (m.type === 'report') return;
    const view = stationView(this.station);
    if (m.view !== view) return this.refuse(protocolError('forbidden-view', `this screen may not use ${m.view}`, { ref: m.id, view: m.view }));
    if (m.type === 'subscribe') {
      // Closed while it waited its turn (a `gone`, a revocation): released already, never held again.
      if (this.subscribed || this.closed) return;
      this.subscribed = true;
      return this.edge.hold(this);
    }
    if (!this.subscribed) return this.refuse(protocolError('not-subscribed', `${m.type} before subscribing`, { ref: m.id, view: m.view }));
    const text = raw ?? JSON.stringify(m);
    if (m.type === 'resync') {
      const parts = [...new Set(m.parts)];
      if (!this.resyncBucket.take(parts.length))
        return this.refuse(protocolError('rate-limited', 'more parts asked for whole than a screen asks', { ref: m.id, view: m.view }));
      for (const part of parts) {
        const slot = part === 'own' ? `view:${view}` : part === 'recall' ? `recall:${view}` : `public:${part}`;
        this.outbox.forget(slot);
        if (part !== 'recall') this.edge.resend(this, slot);
      }
      // The recall alone is the host's to make: forwarded with the own part too, the host sent it
      // whole over NATS again, after the edge had sent it here from its copy.
      if (parts.includes('recall')) await this.edge.forward(this.station, JSON.stringify({ ...m, parts: ['recall'] }), false);
      return;
    }
    const answer = this.edge.forward(this.station, text, true);
    this.answering = this.answering
      .then(() => answer)
      .then((t) => {
        if (t === null || this.closed) return;
        const kind = answerKind(t);
        // The host does not hold the station here (it started again, or the station attached at
        // another edge, and this edge has not heard yet): closed to be dialled again, as the host's
        // answer to the edge's ask will close it. Passed on, `unauthorized` is fatal on a station's
        // screen: it stayed on the error until an attendant came.
        if (kind === 'unheld') return this.close(1008, 'not attached here at the table');
        this.outbox.reply(new SharedMessage(t));
        this.counted(kind);
      })
      .catch((err: unknown) => {
        // Nobody knows whether the host took it: NATS may still hand it on after the edge's
        // reconnection, or the host answer it late, and apply it. Said `internal` (before, a review
        // of 7 December), the station's screen said "call an attendant" and forgot a cash-out it
        // sends again, for a command the table may have taken. Closed to be dialled again, as an
        // attachment the table did not answer is: the station is whole again from its view as the
        // host has it, which says whether the command was taken.
        this.log.warn({ err, session: this.id, station: this.station }, 'the host did not answer a command: the station is to dial again');
        this.close(1013, 'the table did not answer; try again');
      });
  }

  /**
   * The host's answer to a command, counted as the table's own listener counts its own: a stale or
   * rejected command takes from the refused-command budget, an acknowledged one gives one back.
   * Before (a review), the edge passed the host's refusals on uncounted: a station sending stale
   * commands, or bets after "no more bets", just under the message rate was served for ever, each
   * one a command the table judged and a NATS round trip, where the host's own listener closes it.
   */
  private counted(kind: AnswerKind): void {
    if (kind === 'ack') return this.refusedBucket.give();
    if (kind !== 'refused' || this.refusedBucket.take()) return;
    this.log.warn({ session: this.id, station: this.station }, 'station closed at the edge: too many refused commands');
    this.close(1008, 'too many refused commands');
  }

  deliver(slot: string, update: Update): void {
    if (!this.closed) this.outbox.latest(slot, update);
  }

  forgetAll(): void {
    const view = stationView(this.station);
    for (const slot of ['public:round', 'public:panel', `view:${view}`, `recall:${view}`]) this.outbox.forget(slot);
  }

  revoked(why = 'credential revoked'): void {
    this.close(1008, why);
  }

  /**
   * A message over the rate limit, as at the table's own listener (MessageRate, ScreenSession.overRate): dropped
   * unread, the first of a run answered `rate-limited` (the screen says so), the connection closed
   * past `INCOMING_LIMITS.dropAfter` in a row. Before (a review, 7 December), the first one closed
   * it: a relay's burst after a reconnection (its proof and up to 32 held messages) and a few taps
   * had the station dropped and dialling again.
   */
  private overRate(verdict: Exclude<RateVerdict, 'take'>): void {
    const { burst, perSecond } = INCOMING_LIMITS;
    if (verdict === 'tell') this.reply(protocolError('rate-limited', `more than ${burst} messages at once or ${perSecond} a second`));
    else if (verdict === 'close') {
      this.log.warn({ session: this.id, station: this.station }, 'station closed at the edge: over the message rate');
      this.close(1008, 'rate limit');
    }
  }

  private refuse(error: ProtocolError, fatal = false): void {
    const race = error.code === 'stale-version' || error.code === 'rejected';
    if (!race) this.errors++;
    this.reply(error);
    if (fatal || this.errors >= MAX_PROTOCOL_ERRORS) this.close(1008, fatal ? error.code : 'too many protocol errors');
  }

  private reply(message: HostMessage): void {
    if (!this.closed) this.outbox.reply(new SharedMessage(encode(message)));
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.transport.close(code, reason);
    this.dispose();
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.outbox.close();
    this.releaseStation?.();
    if (this.granted) this.edge.release(this);
    // Never proved a station on it (gone before its hello, or refused before the host was asked): offered again.
    void this.offered.then((nonce) => nonce !== null && this.edge.giveBack(nonce));
  }
}

/**
 * What the host answered a command: acknowledged, refused as stale or rejected (an ordinary race,
 * budgeted), `unauthorized` (the host does not hold the station at this edge), or anything else.
 */
type AnswerKind = 'ack' | 'refused' | 'unheld' | 'other';

function answerKind(answer: string): AnswerKind {
  let m: unknown;
  try {
    m = JSON.parse(answer);
  } catch {
    return 'other';
  }
  if (typeof m !== 'object' || m === null || !('type' in m)) return 'other';
  if (m.type === 'ack') return 'ack';
  const code = 'code' in m ? m.code : undefined;
  if (m.type !== 'error') return 'other';
  if (code === 'unauthorized') return 'unheld';
  return code === 'stale-version' || code === 'rejected' ? 'refused' : 'other';
}
