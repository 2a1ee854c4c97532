import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Sprite, Texture, type Container } from 'pixi.js';
import type { CommandBody, DecisionAction, StationState } from '../../../protocol/index.js';
import { createI18n } from '../../../locales/i18n.js';
import { SteppedClock } from '../anim/clock.js';
import { installFaceBake, releaseUnusedFaces } from '../ui/button-faces.js';
import { Button } from '../ui/button.js';
import { pixiMade } from '../test-hooks/pixi-made.js';
import { installNodeCanvas } from '../test-hooks/node-canvas.js';
import { StationPlay } from './station-play.js';

installNodeCanvas();
const i18n = createI18n('en');
const t = i18n.getFixedT('en');
const clock = new SteppedClock(1_000_000);
const commands: CommandBody[] = [];
const play = () => new StationPlay({ i18n, command: (c) => commands.push(c), sessionStartMs: 0, clock, emit: () => undefined });

/** A blackjack station at seat 2: its main spot, a pair bet and bets behind two other seats; a decision or none. */
function state(legal: DecisionAction[] | null, language = 'en'): StationState {
  return {
    kind: 'station',
    station: 2,
    seat: 2,
    game: 'blackjack',
    currency: 'MOP',
    limits: { min: 10_000, max: 500_000 },
    language,
    credit: 400_000,
    betting: {
      open: legal === null,
      spots: [
        { bet: 'main', min: 10_000, max: 500_000 },
        { bet: 'anyPair', min: 10_000, max: 100_000 },
        { bet: 'behind', seat: 1, min: 10_000, max: 500_000 },
        { bet: 'behind', seat: 3, min: 10_000, max: 500_000 },
      ],
      bets: legal === null ? [] : [{ bet: 'main', amount: 20_000 }],
    },
    decision: legal === null ? null : { seat: 2, legal, default: 'stand', endsAt: clock.now() + 10_000 },
    round: null,
  };
}

/** The buttons a container holds, at any depth, that are shown (visible up to the container). */
function shownButtons(root: Container): Button[] {
  const out: Button[] = [];
  const visit = (c: Container) => {
    if (!c.visible) return;
    if (c instanceof Button) out.push(c);
    for (const child of c.children) visit(child);
  };
  visit(root);
  return out;
}

/** A blackjack round as a station sees it: betting, then the decisions of a hand, then none. */
const ROUND: (DecisionAction[] | null)[] = [
  null,
  ['insurance', 'decline-insurance'],
  ['hit', 'stand', 'double', 'split', 'surrender'],
  ['hit', 'stand', 'double'],
  ['hit', 'stand'],
  ['hit', 'stand'],
];

describe("a blackjack station's decision buttons (issue 52: made once, not at every decision)", () => {
  it('makes no pixi object at a decision once each action has been asked: its buttons are kept and shown again', () => {
    installFaceBake((_target, _resolution) => new Sprite(new Texture()), 1);
    const p = play();
    // The first round makes what the screen shows: the spots, chips, every action's button.
    for (const legal of ROUND) p.show(state(legal), t, clock.now());
    const before = pixiMade();
    for (let round = 0; round < 5; round++) for (const legal of ROUND) p.show(state(legal), t, clock.now());
    const made = pixiMade();
    assert.equal(made.containers - before.containers, 0, 'no button, sprite or text made over five rounds of decisions');
    assert.equal(made.textures - before.textures, 0, 'no texture made');
    assert.equal(made.graphicsContexts - before.graphicsContexts, 0, 'no Graphics context made');
    p.destroy({ children: true });
    installFaceBake(null, 1);
    releaseUnusedFaces();
  });

  it("shows the decision's buttons in its order, sized for their number, and only those; each decides its action", () => {
    const p = play();
    p.show(state(['hit', 'stand', 'double', 'split']), t, clock.now());
    const four = shownButtons(p).filter((b) => b.testId.startsWith('action-'));
    assert.deepEqual(
      four.map((b) => b.testId),
      ['action-hit', 'action-stand', 'action-double', 'action-split'],
    );
    const xs = four.map((b) => b.x);
    assert.deepEqual(
      xs,
      [...xs].sort((a, b) => a - b),
      'left to right in the legal order',
    );
    p.show(state(['stand', 'hit']), t, clock.now());
    const two = shownButtons(p).filter((b) => b.testId.startsWith('action-'));
    assert.deepEqual(
      two.map((b) => [b.testId, b.x]).sort((a, b) => Number(a[1]) - Number(b[1])),
      [
        ['action-stand', 0],
        ['action-hit', 376],
      ],
      'the same buttons, placed for two',
    );
    assert.ok(two.find((b) => b.testId === 'action-hit') === four[0], 'the hit button kept, not made again');
    // The spots and chips are not shown while a decision is asked.
    assert.equal(
      shownButtons(p).some((b) => b.testId.startsWith('bet-') || b.testId.startsWith('chip-')),
      false,
    );
    two.find((b) => b.testId === 'action-stand')?.emit('pointertap', undefined as never);
    assert.deepEqual(commands.at(-1), { name: 'decide', action: 'stand' });
    p.show(state(null), t, clock.now());
    assert.equal(
      shownButtons(p).some((b) => b.testId.startsWith('action-')),
      false,
      'no decision: no action button shown',
    );
    assert.ok(shownButtons(p).some((b) => b.testId === 'bet-main'));
    p.destroy({ children: true });
    releaseUnusedFaces();
  });

  it('keeps the spots and chips across decisions, and makes them again for another language', () => {
    const p = play();
    p.show(state(null), t, clock.now());
    const spot = shownButtons(p).find((b) => b.testId === 'bet-main');
    assert.ok(spot);
    for (const legal of ROUND) p.show(state(legal), t, clock.now());
    assert.equal(spot.destroyed, false, 'a decision does not make the spots again');
    p.show(state(null), t, clock.now());
    // Compared by identity: a failed deepEqual of two pixi trees prints them whole, for minutes.
    assert.ok(shownButtons(p).find((b) => b.testId === 'bet-main') === spot, 'the same spot shown at the next betting window');
    p.show(state(null, 'pt'), i18n.getFixedT('pt'), clock.now());
    assert.equal(spot.destroyed, true, 'a new language: the spots made again in it');
    p.destroy({ children: true });
    releaseUnusedFaces();
  });
});
