import type { Container } from 'pixi.js';
import type { i18n } from 'i18next';
import type { MessageKey } from '../../../locales/i18n.js';
import type { CommandBody, ViewState } from '../../../protocol/index.js';
import type { Clock } from '../anim/clock.js';
import type { Bake } from '../pixi/bake.js';
import type { Rebake } from '../pixi/context-loss.js';

/** What every screen gets: its i18n instance and a way to send commands to the host. */
export interface ScreenContext {
  i18n: i18n;
  command(command: CommandBody): void;
  /** When this screen's session began (wall clock, ms): the station clock flashes from it. */
  sessionStartMs: number;
  /** The time animations read: the ticker's wall clock, or a stepped one in tests. */
  clock: Clock;
  /** Names a moment for end-to-end tests (`window.__kiosk.events`). */
  emit(event: string): void;
  /** A station screen shows its recall (a recall or replay panel open) or no longer does: the host sends it only meanwhile. */
  wantRecall?(on: boolean): void;
  /**
   * Draws a container into a texture at a resolution (device pixels per design unit) and returns
   * a sprite of it, placed where the container's art is (in the container's parent's space, the
   * container untransformed): art that changes seldom (the felt at a layout or resolution change,
   * the road maps at a coup) is shown so and its Graphics let go (their triangulated geometry
   * stays in the JS heap as long as they live; issue 31). The sprite's texture is the caller's to
   * destroy. Absent, the art stays drawn.
   */
  bake?: Bake;
  /**
   * Registers art the screen baked (with `bake`) and how to draw it again: a lost WebGL context
   * takes the pixels of every texture drawn on the GPU (renderer/src/pixi/context-loss.ts).
   */
  rebake?: Rebake;
}

/** A screen draws one view's state; `render` is called with every new snapshot. */
export interface Screen {
  readonly root: Container;
  render(state: ViewState): void;
  /** Shown over the screen while the host is unreachable; null hides it. */
  setStatus(messageKey: MessageKey | null): void;
  /**
   * Called at every frame drawn, with the screen's clock; returns when the screen next needs a
   * frame (`now` while something moves, a countdown's next second, `NEVER` when still: the frame
   * loop draws nothing until then or until something changes, renderer/src/pixi/frames.ts).
   */
  tick(nowMs: number): number;
  /** The display's device pixels per design unit changed (and at start): layers cached as textures are drawn again at it. */
  sharpen?(resolution: number): void;
  /**
   * The host refused this screen's last command: the screen says why (`messageKey`) where it
   * covers nothing the player needs. A screen without it gets the banner for a moment.
   */
  refused?(messageKey: MessageKey): void;
}
