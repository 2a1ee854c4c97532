import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FederatedPointerEvent } from 'pixi.js';
import type { CommandBody, StationState } from '../../../protocol/index.js';
import { createI18n } from '../../../locales/i18n.js';
import { DISPOSE } from '../pixi/dispose.js';
import { installNodeCanvas } from '../test-hooks/node-canvas.js';
import { Button } from '../ui/button.js';
import { CreditMoves } from './credit-moves.js';

// A station following several tables, its winning-streak stake held at home (Macau 2009 Art. 13
// 5)): a move away from home asks first, and its button says "press again" for the confirming
// press. The question was asked at one away table; after the focus moves to another, the press
// there asks afresh, so the button must not say "press again" there (a review of 1 December: it
// did, and the press only asked again).
installNodeCanvas();
const t = createI18n('en').getFixedT('en');
const AGAIN = t('several.again');
const again = (label: string): boolean => label.startsWith(AGAIN);
const view = (credit: number, streak: number): StationState =>
  ({
    credit,
    currency: 'MOP',
    language: 'en',
    game: 'blackjack',
    limits: { min: 100, max: 100_000 },
    decision: null,
    betting: { bets: [], ...(streak > 0 ? { streak: { wins: 1, open: [{ bet: 'streak3', amount: streak }] } } : {}) },
  }) as unknown as StationState;

function moves(now: { at: number }) {
  const sent: CommandBody[] = [];
  const asked: string[] = [];
  const m = new CreditMoves(
    (c) => sent.push(c),
    (c) => sent.push(c),
    { now: () => now.at, ask: (via) => void asked.push(via) },
  );
  const move = m.children.find((c): c is Button => c instanceof Button && c.testId === 'move-credit');
  assert.ok(move);
  return { m, move, sent, asked, label: () => move.accessibleTitle ?? '', press: () => void move.emit('pointertap', {} as FederatedPointerEvent) };
}

describe('the Move button at the screen of several tables, its label and its confirmation', () => {
  it('says "press again" only where the press sends: the question asked at one away table is not pending at another', () => {
    const now = { at: 1_000 };
    const { m, sent, asked, label, press } = moves(now);
    const home = view(5_000, 2_000);
    m.show(false, 'bac-1', view(0, 0), home, t);
    press();
    assert.deepEqual(asked, ['move-credit'], 'home holds a stake: asked first');
    m.show(false, 'bac-1', view(0, 0), home, t);
    assert.ok(again(label()), 'the confirming press awaited at bac-1');
    // The focus moves to another away table within the window.
    now.at = 2_000;
    m.show(false, 'war-2', view(0, 0), home, t);
    const said = label();
    press();
    const sentNow = sent.length > 0;
    assert.equal(again(said), sentNow, `the label (${said}) says what the press did (${sentNow ? 'sent' : 'asked again'})`);
    assert.equal(sentNow, false, 'the question asked for bac-1 does not send a move to war-2');
    assert.ok(again(label()), 'asked at war-2: its own confirming press awaited');
    press();
    assert.deepEqual(
      sent.map((c) => (c.name === 'move-credit' ? [c.to, c.endsStreak] : c.name)),
      [['war-2', true]],
      'the second press at war-2 sends the move there, acknowledged',
    );
    m.destroy(DISPOSE);
  });

  it('a visit home and back to the same table, and a table not yet heard from, keep label and press in step', () => {
    const now = { at: 1_000 };
    const { m, sent, label, press } = moves(now);
    const home = view(5_000, 2_000);
    m.show(false, 'bac-1', view(0, 0), home, t);
    press();
    m.show(true, 'home-1', home, home, t);
    m.show(false, 'war-2', null, home, t);
    m.show(false, 'bac-1', view(0, 0), home, t);
    const said = label();
    press();
    assert.equal(again(said), sent.length > 0, `the label (${said}) says what the press did (${sent.length > 0 ? 'sent' : 'asked'})`);
    m.destroy(DISPOSE);
  });
});
