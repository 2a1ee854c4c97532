import type { Logger } from 'pino';
import {
  PROTOCOL_VERSION,
  decodeClientMessage,
  encode,
  protocolError,
  type ClientMessage,
  type HostMessage,
  type ProtocolError,
  type ViewName,
} from '../../protocol/index.js';
import type { LaunchTokens } from './launch-tokens.js';
import type { ViewHub } from './view-hub.js';

/** What a session needs from its transport: WebSocket, MessagePort or a test double. */
export interface ScreenTransport {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** After this many refused messages a connection is closed: a screen that keeps sending garbage is broken. */
export const MAX_PROTOCOL_ERRORS = 20;

let nextSession = 1;

/**
 * The server side of one screen connection, independent of the transport. Every frame is
 * validated; anything wrong gets a typed error reply and a log line, never an exception.
 */
export class ScreenSession {
  readonly id = `s${nextSession++}`;
  private granted: ViewName | null = null;
  private readonly subscribed = new Set<ViewName>();
  private errors = 0;
  private closed = false;
  private readonly unlisten: () => void;

  constructor(
    private readonly host: ViewHub,
    private readonly tokens: LaunchTokens,
    private readonly transport: ScreenTransport,
    private readonly log: Logger,
    /** Told when the session ends (the metrics' count of connected screens). */
    private readonly onDispose?: (session: ScreenSession) => void,
  ) {
    this.unlisten = host.onChange((view, conn) => {
      if (this.subscribed.has(view) && (conn === undefined || conn === this.id)) this.sendSnapshot(view);
    });
  }

  receive(raw: unknown): void {
    if (this.closed) return;
    try {
      const decoded = decodeClientMessage(raw);
      if (!decoded.ok) return this.refuse(decoded.error);
      this.handle(decoded.message);
    } catch (e) {
      // A bug of ours must not take the host down with it; the screen is told and can retry.
      this.log.error({ session: this.id, err: e }, 'screen message handler failed');
      this.refuse(protocolError('internal', 'the host could not handle this message'));
    }
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.unlisten();
    for (const view of this.subscribed) this.host.screenClosed(view, this.id);
    this.log.info({ session: this.id, view: this.granted }, 'screen disconnected');
    this.onDispose?.(this);
  }

  /** The view this session's launch token granted; null before its hello. */
  view(): ViewName | null {
    return this.granted;
  }

  private handle(m: ClientMessage): void {
    if (m.type === 'hello') {
      if (this.granted) return this.refuse(protocolError('already-greeted', 'hello was already accepted', { ref: m.id }));
      if (m.protocol !== PROTOCOL_VERSION) {
        return this.refuse(protocolError('protocol-version', `host speaks protocol ${PROTOCOL_VERSION}, screen sent ${m.protocol}`, { ref: m.id }), true);
      }
      const view = this.tokens.viewOf(m.token);
      if (!view) return this.refuse(protocolError('unauthorized', 'unknown launch token', { ref: m.id }), true);
      this.granted = view;
      this.log.info({ session: this.id, view }, 'screen connected');
      return this.send({ type: 'welcome', ref: m.id, protocol: PROTOCOL_VERSION, session: this.id, view });
    }
    if (!this.granted) return this.refuse(protocolError('hello-required', `${m.type} before hello`, { ref: m.id }));

    if (m.type === 'subscribe') {
      if (m.view !== this.granted || !this.host.hasView(m.view)) {
        return this.refuse(protocolError('forbidden-view', `this screen may not subscribe to ${m.view}`, { ref: m.id, view: m.view }));
      }
      this.subscribed.add(m.view);
      this.host.screenOpened(m.view, this.id);
      return this.sendSnapshot(m.view);
    }

    if (!this.subscribed.has(m.view)) {
      return this.refuse(protocolError('not-subscribed', `command for ${m.view} before subscribing`, { ref: m.id, view: m.view }));
    }
    const result = this.host.apply(m.view, m.version, m.command, this.id);
    if (!result.ok) return this.refuse({ ...result.error, ref: m.id });
    this.send({ type: 'ack', ref: m.id, view: m.view, version: result.version });
  }

  private sendSnapshot(view: ViewName): void {
    // The same text for every screen showing the view: encoded once per version by the hub.
    if (!this.closed) this.transport.send(this.host.snapshot(view, this.id));
  }

  private refuse(error: ProtocolError, fatal = false): void {
    // A stale or refused command is an ordinary race between screen and host, not a broken screen.
    if (error.code !== 'stale-version' && error.code !== 'rejected') this.errors++;
    this.log.warn({ session: this.id, view: this.granted, code: error.code, detail: error.detail }, 'screen message refused');
    this.send(error);
    if (fatal || this.errors >= MAX_PROTOCOL_ERRORS) {
      this.transport.close(1008, fatal ? error.code : 'too many protocol errors');
      this.dispose();
    }
  }

  private send(message: HostMessage): void {
    if (!this.closed) this.transport.send(encode(message));
  }
}
