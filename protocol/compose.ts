import type { HostMessage } from './messages.js';
import type { PublicPanel, RoundView, StationOwnState, ViewName, ViewState } from './index.js';

/**
 * A screen's end of the split snapshot: a station's own part comes as `snapshot`, the parts every
 * station shares (the public round, the roads or last rounds) as `public`, each with its own
 * version. The composer keeps the latest of each and gives the whole view the screen draws,
 * with the own part's version (the one commands name). The table display and service mode come
 * whole and pass through. Pure: the renderer, the autoplay players and the tests use it alike.
 */
export class ViewComposer {
  private own: StationOwnState | null = null;
  private ownVersion = -1;
  private round: RoundView | null = null;
  private roundVersion = -1;
  private panel: PublicPanel = {};
  private panelVersion = -1;
  private whole: ViewState | null = null;

  constructor(private readonly view: ViewName) {}

  /** The view after this message, when the message changed it (else null). Older versions are ignored. */
  take(m: HostMessage): { version: number; state: ViewState } | null {
    if (m.type === 'snapshot') {
      if (m.view !== this.view || m.version < this.ownVersion) return null;
      this.ownVersion = m.version;
      if (m.state.kind !== 'station') {
        this.whole = m.state;
        return { version: m.version, state: m.state };
      }
      this.own = m.state;
    } else if (m.type === 'public') {
      if (m.part === 'round') {
        if (m.version < this.roundVersion) return null;
        this.roundVersion = m.version;
        this.round = m.state;
      } else {
        if (m.version < this.panelVersion) return null;
        this.panelVersion = m.version;
        this.panel = m.state;
      }
      if (this.own === null) return null;
    } else return null;
    const own = this.own;
    if (own === null) return null;
    return { version: this.ownVersion, state: { ...own, round: this.round, ...this.panel } };
  }

  /** The version commands are made against (-1 before the first snapshot). */
  version(): number {
    return this.ownVersion;
  }

  /** The latest whole view, if any. */
  latest(): ViewState | null {
    if (this.own) return { ...this.own, round: this.round, ...this.panel };
    return this.whole;
  }
}
