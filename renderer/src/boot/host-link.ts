import type { CommandBody, ProtocolError, ReportBody, ViewState } from '../../../protocol/index.js';
import type { MessageKey } from '../../../locales/i18n.js';
import { HostClient } from '../connection/host-client.js';
import { Reconnects, type ReconnectSource } from '../connection/reconnects.js';
import { errorKey, errorKind } from '../connection/error-kind.js';
import type { Launch } from '../connection/launch.js';
import type { FrameLoop } from '../pixi/frames.js';
import type { Screen } from '../screens/screen.js';

/** What the link to the host shows on: the screen, its frames, the test hooks' events, and where snapshots go. */
export interface HostLinkDeps {
  readonly launch: Launch;
  readonly shown: Screen;
  readonly frames: FrameLoop;
  readonly emit: (event: string) => void;
  readonly snapshot: (state: ViewState) => void;
  /** The reconnects' clock and random numbers (default the page's); a test passes its own. */
  readonly reconnects?: ReconnectSource;
}

/**
 * The screen's link to the host. It keeps trying to reach the host: after a restart of the host
 * (or a lost socket) it reconnects by itself and resynchronises from the next snapshot.
 */
export class HostLink {
  private client: HostClient | null = null;
  /** A refusal that reconnecting cannot cure stays on screen: it names what the attendant must fix. */
  private fatal: MessageKey | null = null;
  /** The refusal on the banner now (screens without a place of their own for it). */
  private banner = 0;

  /** The waits between tries (connection/reconnects.ts): longer at each loss, over only after a link that held. */
  private readonly reconnects: Reconnects;

  constructor(private readonly d: HostLinkDeps) {
    this.reconnects = new Reconnects(d.reconnects);
  }

  /** Whether the station screen shows its recall now: kept across reconnects (each link's client asks for it anew). */
  private recallWanted = false;

  /** The station's recall panel or replay opened or closed: the recall is asked for from the host only meanwhile (protocol 5). */
  wantRecall(on: boolean): void {
    this.recallWanted = on;
    this.client?.wantRecall(on);
  }

  /** Reports not yet sent: made while no link was up (a GPU reset often comes with a reconnect), sent once one is. */
  private readonly reports: ReportBody[] = [];
  /** Whether a link is up now (connected, not yet closed). */
  private up = false;

  /** Tells the host what befell the screen, for its log: now, or once the link is up again (the last 8 kept). */
  readonly report = (body: ReportBody): void => {
    this.reports.push(body);
    if (this.reports.length > 8) this.reports.shift();
    this.flushReports();
  };

  private flushReports(): void {
    if (!this.up || !this.client) return;
    for (const body of this.reports.splice(0)) this.client.report(body);
  }

  /** Sends a screen's command (dropped while no link is up: the screen shows it is offline). */
  command(command: CommandBody): void {
    this.client?.command(command);
  }

  async connect(): Promise<void> {
    const { launch, shown, frames, emit } = this.d;
    let transport;
    try {
      transport = await launch.connect();
    } catch {
      shown.setStatus('status.offline');
      frames.request();
      this.retry();
      return;
    }
    this.client = new HostClient(transport, launch.view, {
      snapshot: (_view, _version, state) => {
        this.reconnects.up();
        this.d.snapshot(state);
      },
      error: (e: ProtocolError) => this.error(e),
      closed: () => {
        this.up = false;
        emit('closed');
        shown.setStatus(this.fatal ?? 'status.offline');
        frames.request();
        if (!this.fatal) this.retry();
      },
    });
    if (this.recallWanted) this.client.wantRecall(true);
    this.client.start(launch.token);
    this.up = true;
    this.flushReports();
  }

  private retry(): void {
    setTimeout(() => void this.connect(), this.reconnects.next());
  }

  private error(e: ProtocolError): void {
    const { shown, frames, emit } = this.d;
    emit(`error:${e.code}`);
    frames.request();
    const key = errorKey(e);
    const kind = errorKind(e);
    if (kind === 'fatal') {
      this.fatal = key;
      shown.setStatus(key);
    } else if (kind === 'refused') {
      // Over the rate limit too (the host dropped the taps unread): said the same way.
      this.refused(key);
      emit(`refused:${e.messageKey}`);
    }
  }

  /** A refused bet or decision: in the screen's own place for it, else on the banner for a moment. */
  private refused(key: MessageKey): void {
    const { shown, frames } = this.d;
    if (shown.refused) return shown.refused(key);
    shown.setStatus(key);
    // Only this message's own timer may clear it: a newer one starts its own.
    const mine = ++this.banner;
    setTimeout(() => {
      if (mine === this.banner) shown.setStatus(this.fatal);
      frames.request();
    }, 2500);
  }
}
