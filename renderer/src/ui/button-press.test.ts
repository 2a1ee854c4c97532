import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The events' mixin (a Container's `isInteractive`), which a page gets with its renderer.
import 'pixi.js/events';
import { Container, EventBoundary, FederatedPointerEvent } from 'pixi.js';
import { DISPOSE } from '../pixi/dispose.js';
import { Button, forgetPress } from './button.js';

/**
 * A stage and pixi's own event boundary, fed pointer events as the page's canvas feeds them: the
 * button hit where it is, a press a pointer down then up on it. The stage is never drawn, so
 * every button sits at the origin (its transforms are the identity until a frame is drawn).
 */
function stage() {
  const root = new Container();
  const boundary = new EventBoundary(root);
  const pointer = (type: 'pointerdown' | 'pointerup', x = 50, y = 20) => {
    const e = new FederatedPointerEvent(boundary);
    e.type = type;
    e.pointerId = 1;
    e.pointerType = 'mouse';
    e.button = 0;
    e.global.set(x, y);
    e.screen.set(x, y);
    boundary.mapEvent(e);
  };
  return { root, down: (x?: number, y?: number) => pointer('pointerdown', x, y), up: (x?: number, y?: number) => pointer('pointerup', x, y) };
}

describe('a press that a redraw comes through (a finger down, a snapshot, the finger up)', () => {
  it('is taken by the button as pixi hit-tests it, down and up on it', () => {
    const s = stage();
    const pressed: string[] = [];
    const b = new Button('chip-100', 200, 80, () => pressed.push('chip-100'));
    s.root.addChild(b);
    s.down();
    s.up();
    assert.deepEqual(pressed, ['chip-100']);
    b.destroy(DISPOSE);
  });

  it('is taken by the button that replaced the one pressed, at the same place with the same id', () => {
    const s = stage();
    const pressed: string[] = [];
    const layer = new Container();
    s.root.addChild(layer);
    layer.addChild(new Button('chip-100', 200, 80, () => pressed.push('old')));
    s.down();
    // A snapshot rebuilds the row (a decision asked, the language changed): every button anew.
    layer.removeChildren().forEach((c) => c.destroy(DISPOSE));
    const now = new Button('chip-100', 200, 80, () => pressed.push('new'));
    layer.addChild(now);
    s.up();
    assert.deepEqual(pressed, ['new'], 'the press takes effect once, on the button now there');
    now.destroy(DISPOSE);
  });

  it('is ignored where the button pressed is gone, or another button took its place', () => {
    const s = stage();
    const pressed: string[] = [];
    const layer = new Container();
    s.root.addChild(layer);
    layer.addChild(new Button('action-hit', 200, 80, () => pressed.push('hit')));
    s.down();
    layer.removeChildren().forEach((c) => c.destroy(DISPOSE));
    s.up();
    layer.addChild(new Button('action-hit', 200, 80, () => pressed.push('hit')));
    s.down();
    layer.removeChildren().forEach((c) => c.destroy(DISPOSE));
    const other = new Button('action-stand', 200, 80, () => pressed.push('stand'));
    layer.addChild(other);
    s.up();
    assert.deepEqual([...pressed], [], 'no button pressed');
    // Nor does a press begun elsewhere (the background) end as one on a button that came under the
    // finger, even after a press lifted on no button once its own was gone.
    layer.addChild(new Button('action-hit', 200, 80, () => pressed.push('hit')));
    s.down();
    layer.removeChildren().forEach((c) => c.destroy(DISPOSE));
    s.up(500, 500);
    // The page's listener, before pixi's, as the next press begins (frames.ts, listenForPresses).
    forgetPress(1);
    s.down(500, 500);
    layer.removeChildren().forEach((c) => c.destroy(DISPOSE));
    const came = new Button('action-hit', 200, 80, () => pressed.push('hit'));
    layer.addChild(came);
    s.up();
    assert.deepEqual([...pressed], []);
    came.destroy(DISPOSE);
  });

  it('is ignored by the button that replaced the one pressed when it is disabled', () => {
    const s = stage();
    const pressed: string[] = [];
    const layer = new Container();
    s.root.addChild(layer);
    layer.addChild(new Button('bet-main', 200, 80, () => pressed.push('old')));
    s.down();
    layer.removeChildren().forEach((c) => c.destroy(DISPOSE));
    const now = new Button('bet-main', 200, 80, () => pressed.push('new'));
    now.setEnabled(false);
    layer.addChild(now);
    s.up();
    assert.deepEqual([...pressed], []);
    now.destroy(DISPOSE);
  });
});
