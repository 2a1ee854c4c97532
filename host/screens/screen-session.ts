import type { Logger } from 'pino';
import {
  PROTOCOL_VERSION,
  decodeClientMessage,
  encode,
  protocolError,
  stationView,
  type ClientMessage,
  type Command,
  type HostMessage,
  type ProtocolError,
  type Report,
  type ViewName,
} from '../../protocol/index.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import type { LaunchTokens } from './launch-tokens.js';
import { Outbox, SharedMessage, type OutboxLimits } from './outbox.js';
import { RefusalLog } from './refusal-log.js';
import { MessageRate, type RateVerdict } from '../limits/message-rate.js';
import { TokenBucket } from '../limits/token-bucket.js';
import type { ApplyResult, ViewHub, ViewSink } from './view-hub.js';

/**
 * What a session needs from its transport: WebSocket, MessagePort or a test double. `written`,
 * when given, is called once the message has left the process's hands (a WebSocket: written to
 * its socket); a transport that cannot tell calls it at once.
 */
export interface ScreenTransport {
  send(text: string): void;
  close(code: number, reason: string): void;
  /** Sends bytes and says when they were written out: the session's send buffer is bounded by it. */
  write?(message: SharedMessage, written: () => void): void;
  /** Where the connection comes from: the loopback (local windows, tools) or the casino LAN over TLS (remote stations). */
  readonly remote?: boolean;
  /**
   * The client's address, which its log lines are counted under until its hello (then under its
   * view), so one client's flood spends its own log budget only (host/logging/client-budget.ts).
   */
  readonly client?: string;
}

/** After this many refused messages a connection is closed: a screen that keeps sending garbage is broken. */
export const MAX_PROTOCOL_ERRORS = 20;

/** The sessions open per remote station, so a revocation closes them. */
export interface StationConnections {
  opened(station: number, close: StationScreenClose): () => void;
}

/** Closes a station's screen session: its credential revoked, or a newer session of the station over its cap (station-connections.ts). */
export type StationScreenClose = (why: 'revoked' | 'replaced') => void;

/** The close reasons of a station's session closed for its credential: the listener cuts it at once (host/server/lan-server.ts). */
export const STATION_CLOSE_REASONS = { revoked: 'credential revoked', replaced: 'replaced by a newer screen of the station' } as const;

/** How fast one connection may send. */
export interface IncomingLimits {
  /** Messages at once (a reconnect's hello, subscribe and a few quick taps). */
  readonly burst: number;
  /** Messages a second, sustained. */
  readonly perSecond: number;
  /** Messages over the limit in a row, after the screen was told, before it is dropped (1008). */
  readonly dropAfter: number;
  /**
   * Commands refused as stale or rejected (a bet over the credit): `burst` more than were acked,
   * refilled at `perSecond`; a screen past that is dropped (1008). Each acked command gives one
   * back, so a screen that presses again after a stale refusal (as the service screen does, its
   * view changing at every round step) never runs out; a script sending only refused ones does.
   */
  readonly refused: { readonly burst: number; readonly perSecond: number };
}

/**
 * A player taps a few times a second and a screen sends one message per tap: 20 a second with
 * 40 at once is several times what a hand on a touch screen can do, and far below what a
 * flooding script sends (100,000 messages in 10 s once held the whole table up).
 */
export const INCOMING_LIMITS: IncomingLimits = { burst: 40, perSecond: 20, dropAfter: 40, refused: { burst: 40, perSecond: 1 } };

/**
 * The parts a screen may ask for whole (`resync`), each part counted: an honest screen asks for a
 * part at most once a second (protocol/compose.ts, `retryMs`), four parts at most, and a station
 * agent's relay asks for its own besides the browser's recall. Past it a resync is refused
 * (`rate-limited`, a protocol error): held to the message rate alone, one screen could have 80
 * whole parts a second written to it for 60-byte messages.
 */
export const RESYNC_LIMITS = { burst: 24, perSecond: 6 } as const;

let nextSession = 1;

export interface ScreenSessionOptions {
  /** Remote stations' credentials; absent: no remote station may connect. */
  remoteStations?: RemoteStations;
  connections?: StationConnections;
  limits?: OutboxLimits;
  /** The rate limit; null: none (in-process simulated players, which act at a test's speed, not a hand's). */
  incoming?: IncomingLimits | null;
  /** Where refusals are logged, sampled; one per host, shared by its sessions (default: this session's own). */
  refusals?: RefusalLog;
  /** A monotonic clock in milliseconds (the rate limit's); default `performance.now`. */
  now?: () => number;
  /** Told when the session ends (the metrics' count of connected screens). */
  onDispose?: (session: ScreenSession) => void;
}

/**
 * The server side of one screen connection, independent of the transport. Every frame is
 * validated; anything wrong gets a typed error reply and a log line, never an exception. What
 * it sends goes through a bounded outbox (latest snapshot wins), so a slow screen never holds
 * the table or another screen up.
 */
export class ScreenSession {
  readonly id = `s${nextSession++}`;
  private granted: ViewName | null = null;
  private readonly subscribed = new Map<ViewName, () => void>();
  private errors = 0;
  private isClosed = false;
  private releaseStation: (() => void) | null = null;
  /** The message rate (INCOMING_LIMITS); null: none. */
  private readonly rate: MessageRate | null;
  /** Stale and rejected commands, which the protocol-error count does not count. */
  private readonly refusedBucket: TokenBucket | null;
  /** The parts asked for whole (RESYNC_LIMITS). */
  private readonly resyncBucket: TokenBucket | null;
  private readonly incoming: IncomingLimits;
  /** This client's log: under its address until its hello, then under its view (each client has its own log budget). */
  private log: Logger;
  private readonly refusals: RefusalLog;
  /** Messages refused in all (the disconnect line reports it; the warnings are sampled). */
  private refusedCount = 0;
  readonly outbox: Outbox;
  /** Where the hub hands this screen its views' and parts' updates: the outbox, which picks patch or whole. */
  private readonly sink: ViewSink = { deliver: (slot, update) => this.outbox.latest(slot, update) };

  constructor(
    private readonly host: ViewHub,
    private readonly tokens: LaunchTokens,
    private readonly transport: ScreenTransport,
    private readonly hostLog: Logger,
    private readonly options: ScreenSessionOptions = {},
  ) {
    this.log = transport.client === undefined ? hostLog : hostLog.child({ client: transport.client });
    const write =
      transport.write?.bind(transport) ??
      ((m: SharedMessage, written: () => void) => {
        transport.send(m.text);
        written();
      });
    this.incoming = options.incoming ?? INCOMING_LIMITS;
    const now = options.now ?? (() => performance.now());
    this.rate = options.incoming === null ? null : new MessageRate(this.incoming, now);
    this.refusedBucket = options.incoming === null ? null : new TokenBucket(this.incoming.refused.burst, this.incoming.refused.perSecond, now);
    this.resyncBucket = options.incoming === null ? null : new TokenBucket(RESYNC_LIMITS.burst, RESYNC_LIMITS.perSecond, now);
    this.refusals = options.refusals ?? new RefusalLog(hostLog, now);
    this.outbox = new Outbox({ write }, options.limits, () => {
      this.log.warn({ session: this.id, view: this.granted }, 'screen reads none of its replies: closed');
      this.transport.close(1013, 'send buffer full');
      this.dispose();
    });
  }

  receive(raw: unknown): void {
    if (this.isClosed) return;
    // Before anything is parsed: a flood costs a counter per message, not a JSON parse.
    const verdict = this.rate?.judge() ?? 'take';
    if (verdict !== 'take') return this.overRate(verdict);
    let ref: { ref?: string } = {};
    try {
      const decoded = decodeClientMessage(raw);
      if (!decoded.ok) return this.refuse(decoded.error);
      ref = { ref: decoded.message.id };
      this.handle(decoded.message);
    } catch (e) {
      // A bug of ours must not take the host down with it; the screen is told and can retry. Naming
      // the message it answers: a screen says an `internal` with no ref for nothing (error-kind.ts).
      this.log.error({ session: this.id, err: e }, 'screen message handler failed');
      this.refuse(protocolError('internal', 'the host could not handle this message', ref));
    }
  }

  /** Whether the connection is over. */
  closed(): boolean {
    return this.isClosed;
  }

  /** The view this connection was granted (null before hello). */
  view(): ViewName | null {
    return this.granted;
  }

  dispose(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.outbox.close();
    for (const [view, unsubscribe] of this.subscribed) {
      unsubscribe();
      this.host.screenClosed(view, this.id);
    }
    this.subscribed.clear();
    this.releaseStation?.();
    this.log.info({ session: this.id, view: this.granted, ...(this.refusedCount ? { refused: this.refusedCount } : {}) }, 'screen disconnected');
    this.options.onDispose?.(this);
  }

  private handle(m: ClientMessage): void {
    if (m.type === 'hello' || m.type === 'hello-station') {
      if (this.granted) return this.refuse(protocolError('already-greeted', 'hello was already accepted', { ref: m.id }));
      if (m.protocol !== PROTOCOL_VERSION) {
        return this.refuse(protocolError('protocol-version', `host speaks protocol ${PROTOCOL_VERSION}, screen sent ${m.protocol}`, { ref: m.id }), true);
      }
      // The host's own listener takes a station's secret (its pinned TLS is the table's); the proof on a nonce is an edge's way (host/edges/).
      const view = m.type === 'hello' ? this.launchView(m.token) : m.secret === undefined ? null : this.stationView(m.station, m.secret);
      if (!view)
        return this.refuse(protocolError('unauthorized', m.type === 'hello' ? 'unknown launch token' : 'unknown station credential', { ref: m.id }), true);
      this.granted = view;
      // A client that said who it is: its own budget only, not the one all strangers share (host/logger.ts).
      this.log = this.hostLog.child({ client: view, known: true });
      if (m.type === 'hello-station' && this.options.connections)
        this.releaseStation = this.options.connections.opened(m.station, (why) => {
          this.transport.close(1008, STATION_CLOSE_REASONS[why]);
          this.dispose();
        });
      this.log.info({ session: this.id, view }, 'screen connected');
      return this.send({ type: 'welcome', ref: m.id, protocol: PROTOCOL_VERSION, session: this.id, view });
    }
    if (!this.granted) return this.refuse(protocolError('hello-required', `${m.type} before hello`, { ref: m.id }));
    if (m.type === 'report') return this.report(m);

    if (m.type === 'subscribe') {
      if (m.view !== this.granted || !this.host.hasView(m.view)) {
        return this.refuse(protocolError('forbidden-view', `this screen may not subscribe to ${m.view}`, { ref: m.id, view: m.view }));
      }
      if (this.subscribed.has(m.view)) return;
      this.host.screenOpened(m.view, this.id);
      // The hub sends the current snapshot (and a station's public parts) at once, then every new one.
      this.subscribed.set(m.view, this.host.subscribe(m.view, this.id, this.sink));
      return;
    }

    if (!this.subscribed.has(m.view)) {
      return this.refuse(protocolError('not-subscribed', `${m.type} for ${m.view} before subscribing`, { ref: m.id, view: m.view }));
    }
    if (m.type === 'resync') {
      // The screen lost track of these parts: each goes whole now, then patches follow it again.
      // Nothing is answered but the parts, each counted against the screen's resync budget.
      const parts = [...new Set(m.parts)];
      if (this.resyncBucket && !this.resyncBucket.take(parts.length)) {
        const { burst, perSecond } = RESYNC_LIMITS;
        return this.refuse(
          protocolError('rate-limited', `more than ${burst} parts asked for whole at once or ${perSecond} a second`, { ref: m.id, view: m.view }),
        );
      }
      for (const part of parts) this.outbox.forget(part === 'own' ? `view:${m.view}` : part === 'recall' ? `recall:${m.view}` : `public:${part}`);
      return this.host.resend(m.view, this.id, this.sink, parts);
    }
    const result = this.host.commands.submit(m.view, m.version, m.command, this.id);
    // A bet or a decision is answered once its group commit is durable; replies keep the commands' order.
    if (result instanceof Promise || this.answering !== null) {
      const answering: Promise<void> = (this.answering ?? Promise.resolve())
        .then(() => result)
        .then((r) => this.answer(m, r))
        .catch((e: unknown) => this.log.error({ session: this.id, err: e }, 'a command’s answer failed'))
        .finally(() => {
          if (this.answering === answering) this.answering = null;
        });
      this.answering = answering;
      return;
    }
    this.answer(m, result);
  }

  /**
   * What befell the screen, into the kiosk's log (protocol 7): under this client's own log budget,
   * like every line it causes, so a screen reporting in a loop fills no more than its share.
   */
  private report(m: Report): void {
    const at = { session: this.id, view: this.granted };
    if (m.event === 'gpu-context-lost') return this.log.warn(at, 'screen lost its WebGL context: its art is drawn again when the browser restores it');
    const { redrawn, failed, cachedLayers, ms } = m;
    const fields = { ...at, redrawn, failed, cachedLayers, ms };
    if (failed.length > 0) this.log.error(fields, 'screen restored its WebGL context, but some art could not be drawn again');
    else this.log.info(fields, 'screen restored its WebGL context: its art drawn again');
  }

  /** Replies still waiting for a command's commit, in order (null: none waits). */
  private answering: Promise<void> | null = null;

  private answer(m: Command, result: ApplyResult): void {
    if (this.isClosed) return;
    if (!result.ok) return this.refuse({ ...result.error, ref: m.id });
    this.refusedBucket?.give();
    this.send({ type: 'ack', ref: m.id, view: m.view, version: result.version });
  }

  /** A local window's launch token: the view it names. Remote connections (the LAN) present a station credential instead. */
  private launchView(token: string): ViewName | null {
    if (this.transport.remote) return null;
    return this.tokens.viewOf(token);
  }

  /** A remote station's credential: its own view, and nothing else, while the credential is in force. */
  private stationView(station: number, secret: string): ViewName | null {
    const stations = this.options.remoteStations;
    if (!stations || !stations.verify(station, secret)) return null;
    const view = stationView(station);
    return this.host.hasView(view) ? view : null;
  }

  /**
   * A message over the rate limit: dropped unread. The first of a run is answered with a typed
   * `rate-limited` error the screen can show; a screen that keeps on is closed (1008).
   */
  private overRate(verdict: Exclude<RateVerdict, 'take'>): void {
    this.refusedCount++;
    this.refusals.refused(this.granted, 'rate-limited', { session: this.id });
    if (verdict === 'tell') {
      const { burst, perSecond } = this.incoming;
      this.send(protocolError('rate-limited', `more than ${burst} messages at once or ${perSecond} a second`));
    } else if (verdict === 'close') {
      this.transport.close(1008, 'rate limit');
      this.dispose();
    }
  }

  private refuse(error: ProtocolError, fatal = false): void {
    // A stale or refused command is an ordinary race between screen and host, not a broken screen,
    // unless it keeps coming: those have a budget of their own, which refills.
    const race = error.code === 'stale-version' || error.code === 'rejected';
    if (!race) this.errors++;
    const overRefused = race && this.refusedBucket !== null && !this.refusedBucket.take();
    this.refusedCount++;
    this.refusals.refused(this.granted, error.code, { session: this.id, detail: error.detail });
    this.send(error);
    if (fatal || overRefused || this.errors >= MAX_PROTOCOL_ERRORS) {
      const reason = fatal ? error.code : overRefused ? 'too many refused commands' : 'too many protocol errors';
      if (!fatal) this.log.warn({ session: this.id, view: this.granted, refused: this.refusedCount }, `screen closed: ${reason}`);
      this.transport.close(1008, reason);
      this.dispose();
    }
  }

  private send(message: HostMessage): void {
    if (!this.isClosed) this.outbox.reply(new SharedMessage(encode(message)));
  }
}
