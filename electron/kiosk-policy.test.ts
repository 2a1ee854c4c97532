import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrashBreaker, isCrash } from './crash-policy.js';
import { planDisplays } from './displays.js';
import { relaunchArgs, relaunchDecision } from './relaunch-policy.js';
import { assignScreens, parseScreenMap } from './screen-map.js';
import { isAppUrl, isBlockedKey, isServiceKey, screenFileFor } from './security.js';

const display = (id: number) => ({ id, bounds: { x: (id - 1) * 1920, y: 0, width: 1920, height: 1080 } });

describe('screen map', () => {
  it('gives displays the screens in order and reports screens left without a display', () => {
    const r = assignScreens([display(1), display(2)], { screens: ['table', 'station/1', 'station/2'] });
    assert.deepEqual(
      r.windows.map((w) => [w.display.id, w.view]),
      [
        [1, 'table'],
        [2, 'station/1'],
      ],
    );
    assert.deepEqual(r.unplaced, ['station/2']);
  });

  it('pins views to display ids first, then fills the rest', () => {
    const r = assignScreens([display(1), display(2), display(3)], {
      screens: ['table', 'station/1'],
      pinned: parseScreenMap('3:table'),
    });
    assert.deepEqual(
      r.windows.map((w) => [w.display.id, w.view]),
      [
        [3, 'table'],
        [1, 'station/1'],
      ],
    );
  });

  it('refuses a map entry that names no view', () => {
    assert.throws(() => parseScreenMap('1:station/9'));
    assert.throws(() => parseScreenMap('table'));
  });
});

describe('crash policy', () => {
  it('reloads a crashed screen, and relaunches when it keeps crashing within a minute', () => {
    const b = new CrashBreaker(3, 60_000);
    assert.deepEqual(
      [0, 1000, 2000].map((t) => b.onCrash(t)),
      ['reload', 'reload', 'reload'],
    );
    assert.equal(b.onCrash(3000), 'relaunch');
    const slow = new CrashBreaker(3, 60_000);
    assert.deepEqual(
      [0, 61_000, 122_000, 183_000, 244_000].map((t) => slow.onCrash(t)),
      Array(5).fill('reload'),
    );
    assert.equal(isCrash('clean-exit'), false);
    assert.equal(isCrash('oom'), true);
  });
});

describe('lockdown', () => {
  it('allows navigation only within app://kiosk, by parsed URL', () => {
    assert.equal(isAppUrl('app://kiosk/station/1'), true);
    for (const u of ['app://kiosk.evil/x', 'https://kiosk/', 'file:///etc/passwd', 'app://other/', 'not a url']) {
      assert.equal(isAppUrl(u), false, u);
    }
  });

  it('blocks reload, devtools, close and zoom keys', () => {
    const k = (key: string, mods: Partial<{ control: boolean; meta: boolean; alt: boolean; shift: boolean }> = {}) =>
      isBlockedKey({ key, control: false, meta: false, alt: false, shift: false, ...mods });
    assert.equal(k('F5'), true);
    assert.equal(k('r', { control: true }), true);
    assert.equal(k('I', { control: true, shift: true }), true);
    assert.equal(k('F4', { alt: true }), true);
    assert.equal(k('a'), false);
    assert.equal(k('1'), false);
  });

  it('opens service mode only on Ctrl+Alt+Shift+S pressed down, and that combination is not a blocked key', () => {
    const k = (key: string, mods: Partial<{ control: boolean; meta: boolean; alt: boolean; shift: boolean; type: string }> = {}) =>
      isServiceKey({ key, control: false, meta: false, alt: false, shift: false, ...mods });
    assert.equal(k('S', { control: true, alt: true, shift: true, type: 'keyDown' }), true);
    assert.equal(k('s', { control: true, alt: true, shift: true }), true);
    assert.equal(k('S', { control: true, alt: true, shift: true, type: 'keyUp' }), false);
    assert.equal(k('s', { control: true, shift: true }), false);
    assert.equal(k('s', { control: true }), false);
    assert.equal(
      isBlockedKey({ key: 's', control: true, alt: true, shift: true, meta: false }),
      true,
      'ctrl+s is blocked, so the combination never reaches a screen',
    );
  });

  it('serves the one page for every screen path', () => {
    assert.equal(screenFileFor('/table'), 'index.html');
    assert.equal(screenFileFor('/station/3'), 'index.html');
    assert.equal(screenFileFor('/assets/index.js'), 'assets/index.js');
  });
});

describe('relaunch policy', () => {
  it('relaunches three times in a row, then keeps the kiosk out of service; a run of five minutes starts the count again', () => {
    assert.deepEqual(relaunchDecision(0, 0, 1000), { action: 'relaunch', count: 1 });
    assert.deepEqual(relaunchDecision(2, 0, 1000), { action: 'relaunch', count: 3 });
    assert.deepEqual(relaunchDecision(3, 0, 1000), { action: 'out-of-service', count: 3 });
    assert.deepEqual(relaunchDecision(3, 0, 5 * 60_000), { action: 'relaunch', count: 1 });
    assert.deepEqual(relaunchDecision(Number('junk'), 0, 10), { action: 'relaunch', count: 1 });
    assert.deepEqual(relaunchArgs(['/app', '--relaunches=2', '--x'], 3), ['/app', '--x', '--relaunches=3']);
  });
});

describe('display plan', () => {
  it('keeps windows on their displays, closes those whose display went, opens those whose display came', () => {
    const map = { screens: ['table', 'station/1', 'station/2'] };
    assert.deepEqual(planDisplays(['table', 'station/1', 'station/2'], [display(1), display(3)], map), {
      place: [
        { view: 'table', display: display(1) },
        { view: 'station/1', display: display(3) },
      ],
      open: [],
      close: ['station/2'],
      unplaced: ['station/2'],
    });
    const back = planDisplays(['table', 'station/1'], [display(1), display(2), display(3)], map);
    assert.deepEqual(
      back.open.map((w) => [w.view, w.display.id]),
      [['station/2', 3]],
    );
  });
});
