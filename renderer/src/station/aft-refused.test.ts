// The station says a transfer in the casino system sent and the station refused (docs/sas.md, "AFT:
// the cashless wallet": `cashout.aftIn`), drawn on a Node canvas: the words of its catalogue key with
// the amount, in the player's language, for a few seconds like a note returned at the credit limit,
// and one at a time however many the system sends.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { BitmapText, Text, type Container } from 'pixi.js';
import type { StationState } from '../../../protocol/index.js';
import { createI18n } from '../../../locales/i18n.js';
import { formatMoney } from '../../../locales/money.js';
import { SteppedClock } from '../anim/clock.js';
import { installNodeCanvas } from '../test-hooks/node-canvas.js';
import { StationPlay } from './station-play.js';

installNodeCanvas();
const LOCALES = ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const;
const REASONS = ['credit-limit', 'transfer-limit', 'unable-now'] as const;
const i18n = createI18n('en');
const clock = new SteppedClock(5_000_000);

function state(aftIn: { reason: (typeof REASONS)[number]; amount: number; at: number } | null, language = 'en'): StationState {
  return {
    kind: 'station',
    station: 2,
    seat: 2,
    game: 'war',
    currency: 'MOP',
    limits: { min: 10_000, max: 500_000 },
    language,
    credit: 100_000,
    betting: { open: false, spots: [], bets: [] },
    decision: null,
    round: null,
    cashout: { pending: null, ...(aftIn ? { aftIn: { state: 'refused', ...aftIn } } : {}) },
  } as StationState;
}

/** The words shown anywhere in a container (visible up to it). */
function shownWords(root: Container): string[] {
  const out: string[] = [];
  const visit = (c: Container) => {
    if (!c.visible) return;
    if ((c instanceof Text || c instanceof BitmapText) && c.text !== '') out.push(c.text);
    for (const child of c.children) visit(child);
  };
  visit(root);
  return out;
}

const catalogue = (l: string): Record<string, Record<string, unknown>> =>
  JSON.parse(readFileSync(new URL(`../../../locales/catalogues/${l}.json`, import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;

describe('a transfer in refused, at the station', () => {
  it('each reason is worded in all four catalogues, with the amount', () => {
    for (const l of LOCALES)
      for (const r of REASONS) {
        const words = (catalogue(l).desk?.aftRefused as Record<string, unknown> | undefined)?.[r];
        assert.match(String(words), /\{\{amount, money\}\}/, `${l}: desk.aftRefused.${r}`);
      }
  });

  for (const language of LOCALES)
    it(`${language}: says the refusal and its amount, then nothing once its time is up`, () => {
      const t = i18n.getFixedT(language);
      const p = new StationPlay({ i18n, command: () => undefined, sessionStartMs: 0, clock, emit: () => undefined });
      const now = clock.now();
      p.show(state({ reason: 'credit-limit', amount: 5_050, at: now }, language), t, now);
      p.tick(now, t);
      const said = t('desk.aftRefused.credit-limit', { amount: 5_050, currency: 'MOP' });
      assert.notEqual(said, 'desk.aftRefused.credit-limit', 'the key is in the catalogue');
      assert.ok(said.includes(formatMoney(5_050, 'MOP', language)), `the amount in the words: ${said}`);
      assert.ok(shownWords(p).includes(said), `shown: ${JSON.stringify(shownWords(p))}`);
      clock.step(10_000);
      p.tick(clock.now(), t);
      assert.ok(!shownWords(p).includes(said), 'gone after its time');
      p.destroy({ children: true });
    });

  it('1,000 refusals one after another: one said at a time, the newest', () => {
    const t = i18n.getFixedT('en');
    const p = new StationPlay({ i18n, command: () => undefined, sessionStartMs: 0, clock, emit: () => undefined });
    for (let i = 0; i < 1_000; i++) {
      clock.step(5);
      p.show(state({ reason: i % 2 ? 'unable-now' : 'transfer-limit', amount: 1_000 + i, at: clock.now() }), t, clock.now());
      p.tick(clock.now(), t);
    }
    const said = shownWords(p).filter((w) => w.includes('MOP'));
    const newest = t('desk.aftRefused.unable-now', { amount: 1_999, currency: 'MOP' });
    assert.deepEqual(
      said.filter((w) => w !== formatMoney(100_000, 'MOP', 'en')),
      [newest],
    );
    p.destroy({ children: true });
  });
});
