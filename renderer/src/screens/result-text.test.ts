import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OFFER_ACTIONS, type PrizeWin, type ResultLine } from '../../../protocol/index.js';
import { celebrationFrame, CELEBRATE_MS } from '../anim/celebrate.js';
import { SteppedClock } from '../anim/clock.js';
import { createI18n } from '../../../locales/i18n.js';
import { offerText, PrizeWatch, prizeText, resultText, seatPrizes, seatResults } from './result-text.js';

const LANGS = ['zh-Hant', 'pt', 'en'] as const;
const line = (over: Partial<ResultLine>): ResultLine => ({ seat: 1, bet: 'main', stake: 10_000, net: 10_000, rule: 'r', owner: 'seat', ...over });

describe('results, offers and prizes in words', () => {
  it('asks every offer as a question in each language (a follow offer with its seat and cost), and nothing for ordinary decisions', async () => {
    const asked: string[] = [];
    for (const l of LANGS) {
      const t = createI18n(l).getFixedT(l);
      for (const offer of OFFER_ACTIONS) asked.push(offerText(t, { legal: [offer, 'hit'], seat: 2, cost: 10_000 }, 'MOP') ?? 'none');
      assert.equal(offerText(t, { legal: ['hit', 'stand', 'double'] }), null);
      assert.equal(offerText(t, null), null);
    }
    assert.deepEqual(asked, [
      '莊家牌面為A：是否作出保險投注？',
      '您有《Black Jack》：是否接受即時派彩？',
      '五張紙牌：是否收取一半投注？',
      '同點：挑戰莊家或輸一半投注？',
      '第2門加注：您的搭注是否同樣加注（MOP$100）？',
      '第2門分門：是否以同額投注跟隨第二手（MOP$100）？',
      'A banca mostra um Ás: aposta de seguro?',
      'Tem «Black Jack»: aceita o pagamento imediato?',
      'Cinco cartas: receber metade agora?',
      'Empate: desafiar a casa ou perder metade?',
      'O lugar 2 dobrou a aposta: dobrar a sua aposta atrás (100\u00a0MOP$)?',
      'O lugar 2 separou o par: acompanhar com aposta igual na segunda mão (100\u00a0MOP$)?',
      'Dealer shows an ace: take insurance?',
      'You have Blackjack: take even money?',
      'Five cards: take half now?',
      'Tie: go to war or surrender half?',
      'Seat 2 doubles: double your bet behind (MOP$100)?',
      'Seat 2 splits: follow with a bet on the second hand (MOP$100)?',
    ]);
  });

  it('says win, lose or push beside the amount', async () => {
    const zh = createI18n('zh-Hant').getFixedT('zh-Hant');
    const pt = createI18n('pt').getFixedT('pt');
    assert.deepEqual(
      [20_000, -10_000, 0].map((n) => resultText(zh, n, 'MOP', 'zh-Hant')),
      ['贏 +MOP$200', '輸 −MOP$100', '和局 ±MOP$0'],
    );
    assert.equal(resultText(pt, 1_500_000, 'MOP', 'pt').replace(/\s/g, ' '), 'Ganha +15 000 MOP$');
  });

  it("gives a seat its own player's result; bets behind it are not added in", () => {
    const lines = [
      line({ net: 10_000 }),
      line({ bet: 'anyPair', net: 110_000, prize: 'side-bet' }),
      line({ owner: 'behind', net: -50_000 }),
      line({ seat: 3, net: -10_000 }),
    ];
    assert.deepEqual(seatResults(lines), [
      { seat: 1, net: 120_000 },
      { seat: 3, net: -10_000 },
    ]);
    const behindPrize = line({ owner: 'behind', bet: 'anyPair', net: 110_000, prize: 'side-bet' });
    assert.deepEqual([...seatPrizes([...lines, behindPrize])], [[1, [{ seat: 1, bet: 'anyPair', net: 110_000, prize: 'side-bet' }]]]);
  });

  it('names the prize or the bet that won, with its amount', async () => {
    const en = createI18n('en').getFixedT('en');
    const zh = createI18n('zh-Hant').getFixedT('zh-Hant');
    const win = (bet: PrizeWin['bet'], prize: PrizeWin['prize'], net = 30_000): PrizeWin => ({ seat: 1, bet, net, prize });
    assert.equal(prizeText(en, undefined, win('bonus678', 'special-prize'), 'MOP', 'en'), 'Special prize: won +MOP$300');
    assert.equal(prizeText(zh, undefined, win('main', 'special-prize'), 'MOP', 'zh-Hant'), '特別彩金勝出 +MOP$300');
    assert.equal(prizeText(en, undefined, win('main', 'five-card', 5_000), 'MOP', 'en'), 'Five cards: won +MOP$50');
    assert.equal(prizeText(zh, undefined, win('anyPair', 'side-bet', 110_000), 'MOP', 'zh-Hant'), '任何對子勝出 +MOP$1,100');
    assert.equal(prizeText(en, { tie: 'help.item.tieBet' }, win('tie', 'side-bet', 100_000), 'MOP', 'en'), 'Tie bet: won +MOP$1,000');
    assert.equal(prizeText(en, undefined, win('playerPair', 'side-bet', 110_000), 'MOP', 'en'), 'Player pair: won +MOP$1,100');
    assert.equal(prizeText(en, undefined, win('streak3', 'side-bet'), 'MOP', 'en'), 'Winning streak 3: won +MOP$300');
  });

  it("celebrates once per settled round, briefly, on the screen's clock", () => {
    const watch = new PrizeWatch<string[]>();
    const clock = new SteppedClock(1_000);
    assert.equal(watch.next('r1', false, ['tie']), null, 'not before the results');
    const fresh = watch.next('r1', true, ['tie']);
    assert.deepEqual(fresh, ['tie']);
    const start = clock.now();
    assert.equal(watch.next('r1', true, ['tie']), null, 'a later snapshot of the same results does not start it again');
    const seen = (ms: number) => {
      clock.step(ms);
      return celebrationFrame(clock.now() - start);
    };
    const pop = seen(100);
    assert.ok(pop.visible && pop.scale > 0.6 && pop.scale < 1.2);
    assert.deepEqual(seen(1_900), { visible: true, scale: 1, alpha: 1 });
    const fading = seen(CELEBRATE_MS - 2_000 - 300);
    assert.ok(fading.visible && fading.alpha > 0 && fading.alpha < 1);
    assert.equal(seen(300).visible, false, 'gone after CELEBRATE_MS');
    assert.deepEqual(watch.next('r2', true, []), [], 'a new round is looked at again');
  });
});
