import type { z } from 'zod';
import type { HostMessage, PartName } from './messages.js';
import { checkPatched, fieldPlan, type FieldPlan } from './field-check.js';
import { applyPatch, PatchError, type PatchOp } from './patch.js';
import type { RoundView } from './round.js';
import { MAX_RECALL_ROUNDS, StationRecallRound, type RoadsView } from './screen-extras.js';
import { coupsFollow, ShoeRoads } from './shoe-coups.js';
import { PublicPanel, PublicRound, snapshotStateOf, type SnapshotState, type ViewName, type ViewState } from './views.js';

export interface ComposerOptions {
  /**
   * Asks the host for parts whole again (the screen sends `resync`): a patch did not follow the
   * version held, or did not fit it. Absent: the screen cannot ask and waits for a whole part.
   */
  resync?: (parts: PartName[]) => void;
  /** A clock in milliseconds, for how long ago a part was asked for (default `Date.now`). */
  now?: () => number;
  /** After asking for a part, how long before asking again if it has not come whole (default 1 s). */
  retryMs?: number;
}

/** A part as the screen holds it: its version and its state, checked against its schema. */
interface Held<T> {
  version: number;
  state: T;
}

/** One part's copy: the latest whole or patched version, and when it was last asked for whole. */
class PartCopy<T> {
  held: Held<T> | null = null;
  /** When the part was asked for whole and has not come yet (null: not waiting). */
  asked: number | null = null;
  private readonly plan: FieldPlan;

  constructor(
    readonly name: PartName,
    private readonly schema: z.ZodType<T>,
    /** What a patched version must keep of the one before, beyond its schema (the panel: a shoe's coups only grow). */
    private readonly follows: (before: T, after: T) => boolean = () => true,
  ) {
    this.plan = fieldPlan(schema);
  }

  /** A whole part: taken unless older than the one held, and always when it answers an ask. */
  whole(version: number, state: T): boolean {
    if (this.held && version < this.held.version && this.asked === null) return false;
    this.held = { version, state };
    this.asked = null;
    return true;
  }

  /** A patch to `version`: applied to `version - 1` only; 'gap' when it does not follow or does not fit. */
  patch(version: number, ops: readonly PatchOp[]): 'applied' | 'gap' {
    const held = this.held;
    if (!held || held.version !== version - 1) return 'gap';
    let next: unknown;
    try {
      next = applyPatch(held.state, ops);
    } catch (e) {
      if (e instanceof PatchError) return 'gap';
      throw e;
    }
    // Only the fields the patch touched are parsed again (what a whole parse would give: field-check.ts).
    const checked = checkPatched(this.schema, this.plan, held.state, next, ops);
    if (checked === null || !this.follows(held.state, checked)) return 'gap';
    this.held = { version, state: checked };
    return 'applied';
  }
}

/**
 * A screen's end of the split snapshot: a station's own part comes as `snapshot`, the parts every
 * station shares (the public round, the roads or last rounds) as `public`, each with its own
 * version, and any of them as a patch (`patch`, `public-patch`) against the version before.
 * The composer keeps the latest of each, applies each patch to the version it follows and checks
 * the result against the part's schema; a patch that does not follow what it holds (one was lost)
 * or does not fit is dropped and the part asked for whole (`resync`), at most once a `retryMs`
 * while it has not come. It gives the whole view the screen draws, with the own part's version
 * (the one commands name). The table display and service mode come whole and pass through. Pure
 * but for the clock it is handed: the renderer, the station agent's relay, the autoplay players
 * and the tests use it alike.
 */
export class ViewComposer {
  /** A station's own part, or the whole view of the table display and service mode; its patches checked against the view's own kind. */
  private readonly own: PartCopy<SnapshotState>;
  private readonly round = new PartCopy<RoundView | null>('round', PublicRound);
  private readonly panel = new PartCopy<PublicPanel>('panel', PublicPanel, (a, b) => coupsFollow(a.shoe, b.shoe));
  /** The roads laid out from the panel's shoe, once per version of the panel (every message composes the view), grown coup by coup. */
  private roads: { of: PublicPanel; roads: RoadsView } | null = null;
  private readonly shoeRoads = new ShoeRoads();
  /** The station's recall, held only once asked for (`want`), whole, never patched. */
  private readonly recall = new PartCopy<StationRecallRound[]>('recall', StationRecallRound.array().max(MAX_RECALL_ROUNDS));
  /** Whether the screen shows the recall now (its recall or replay panel open): only then is it asked for. */
  private wanted = false;
  private readonly now: () => number;
  private readonly retryMs: number;

  constructor(
    private readonly view: ViewName,
    private readonly options: ComposerOptions = {},
  ) {
    this.now = options.now ?? (() => Date.now());
    this.retryMs = options.retryMs ?? 1000;
    this.own = new PartCopy('own', snapshotStateOf(view));
  }

  /**
   * The view after this message, when the message changed it (else null): an older whole part,
   * a patch that does not apply and a message of another view are ignored.
   */
  take(m: HostMessage): { version: number; state: ViewState } | null {
    if (!this.apply(m)) return null;
    this.askRecall();
    const own = this.own.held;
    if (!own) return null;
    return { version: own.version, state: this.compose(own.state) };
  }

  /**
   * Whether the message changed a part held: a whole part not older than the one held (or one
   * asked for), a patch that followed it and fit. Messages that are not parts change nothing.
   */
  apply(m: HostMessage): boolean {
    if (m.type === 'snapshot') {
      if (m.view !== this.view || !this.own.whole(m.version, m.state)) return false;
      // A whole own part (a subscribe after a reconnect, perhaps to a host that restarted and
      // counts its recall's versions afresh): the recall held is asked for again before it is shown.
      this.recall.held = null;
      return true;
    }
    if (m.type === 'public') return m.part === 'round' ? this.round.whole(m.version, m.state) : this.panel.whole(m.version, m.state);
    if (m.type === 'patch') return m.view === this.view && this.patch(this.own, m.version, m.ops);
    if (m.type === 'public-patch') return m.part === 'round' ? this.patch(this.round, m.version, m.ops) : this.patch(this.panel, m.version, m.ops);
    if (m.type === 'recall') return m.view === this.view && this.recall.whole(m.version, m.rounds);
    return false;
  }

  /**
   * The screen shows its recall (a recall or replay panel opened) or no longer does. While it
   * does, the recall is asked for whenever the own part names a version the screen does not hold
   * (a round settled meanwhile), and asked again after `retryMs` if it has not come.
   */
  want(on: boolean): void {
    this.wanted = on;
    this.askRecall();
  }

  private askRecall(): void {
    const own = this.own.held?.state;
    if (!this.wanted || own?.kind !== 'station' || !own.recalled) return;
    if (this.recall.held?.version === own.recalled.version) return;
    const t = this.now();
    if (this.recall.asked === null || t - this.recall.asked >= this.retryMs) {
      this.recall.asked = t;
      this.options.resync?.(['recall']);
    }
  }

  /** The version commands are made against (-1 before the first snapshot). */
  version(): number {
    return this.own.held?.version ?? -1;
  }

  /** The latest whole view, if any. */
  latest(): ViewState | null {
    const own = this.own.held;
    return own ? this.compose(own.state) : null;
  }

  /** The parts asked for whole that have not come yet (tests). */
  waiting(): PartName[] {
    return [this.own, this.round, this.panel, this.recall].filter((p) => p.asked !== null).map((p) => p.name);
  }

  private compose(own: SnapshotState): ViewState {
    if (own.kind !== 'station') return own;
    // The recall only at the version the own part names: a screen never shows an outdated one.
    const recall = this.recall.held && own.recalled && this.recall.held.version === own.recalled.version ? { recall: this.recall.held.state } : {};
    return { ...own, round: this.round.held?.state ?? null, ...this.shownPanel(), ...recall };
  }

  /** The panel as a station draws it: baccarat's roads laid out from the shoe's coups, or the last rounds. */
  private shownPanel(): { roads?: RoadsView; history?: PublicPanel['history'] } {
    const panel = this.panel.held?.state;
    if (!panel) return {};
    const history = panel.history ? { history: panel.history } : {};
    if (!panel.shoe) return history;
    if (this.roads?.of !== panel) this.roads = { of: panel, roads: this.shoeRoads.of(panel.shoe) };
    return { roads: this.roads.roads, ...history };
  }

  private patch<T>(part: PartCopy<T>, version: number, ops: readonly PatchOp[]): boolean {
    if (part.patch(version, ops) === 'applied') return true;
    // A patch the screen cannot apply: one was lost, came out of order, or was altered on the way.
    const t = this.now();
    if (part.asked === null || t - part.asked >= this.retryMs) {
      part.asked = t;
      this.options.resync?.([part.name]);
    }
    return false;
  }
}
