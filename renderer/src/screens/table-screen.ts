import { Container, Graphics, Rectangle, Text, type Sprite } from 'pixi.js';
import { DISPOSE } from '../pixi/dispose.js';
import type { BetId, TableState, ViewState } from '../../../protocol/index.js';
import { drawFelt, type FeltView } from '../felt/felt-art.js';
import { feltLayout, LANGUAGE_BUTTON, languagesAcross, type FeltLayout } from '../felt/felt-layout.js';
import { HistoryStrip } from '../roads/history-strip.js';
import { RoadsPanel } from '../roads/roads-panel.js';
import { LanguageSwitch } from './language-switch.js';
import { StatusBanner } from '../ui/status-banner.js';
import { COLORS, DESIGN, textStyle } from '../ui/theme.js';
import { TiltBand } from '../ui/tilt-band.js';
import { JackpotPanel } from '../ui/jackpot-panel.js';
import { formatMoney } from '../../../locales/money.js';
import type { Screen, ScreenContext } from './screen.js';
import { TableRound } from './table-round.js';
import { DemoBanner } from '../ui/demo-banner.js';
import { CachedLayer } from '../pixi/cached-layer.js';
import type { MessageKey } from '../../../locales/i18n.js';

/** Bets a game's felt prints when the host does not list the profile's bets. */
const DEFAULT_BETS: Record<TableState['game'], BetId[]> = {
  blackjack: ['main'],
  baccarat: ['banker', 'player', 'tie', 'playerPair', 'bankerPair'],
  war: ['main', 'tie'],
};

/**
 * The languages the felt prints the game's name and limits in, whatever the screen's language (Macau's
 * two official ones): the page loads both catalogues before the table screen draws (main.ts).
 */
export const FELT_LANGUAGES = { zh: 'zh-Hant', pt: 'pt' } as const;

/**
 * The big screen facing the seats: the game's own felt with its printed layout, the round over
 * it (cards flying from the shoe, guidance, results), the table's state, and baccarat's roads or
 * the other games' recent rounds.
 */
export class TableScreen implements Screen {
  readonly root = new Container();
  private felt: FeltView | null = null;
  /** Device pixels per design unit (`sharpen`): the felt's art is drawn at it. */
  private resolution = 1;
  private feltKey = '';
  private layout: FeltLayout | null = null;
  private readonly seatLabels: Text[] = [];
  private readonly seatLayer = new Container();
  private readonly dealerLabel = new Text({ text: '', style: textStyle({ fontSize: 24, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly shoeLabel = new Text({ text: '', style: textStyle({ fontSize: 22, fill: COLORS.muted }) });
  private readonly discardLabel = new Text({ text: '', style: textStyle({ fontSize: 22, fill: COLORS.muted }) });
  private readonly nameZh = new Text({ text: '', style: textStyle({ fontSize: 60, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly namePt = new Text({ text: '', style: textStyle({ fontSize: 36, fill: COLORS.goldText }) });
  private readonly limitsZh = new Text({ text: '', style: textStyle({ fontSize: 28, fill: COLORS.ivory }) });
  private readonly limitsPt = new Text({ text: '', style: textStyle({ fontSize: 24, fill: COLORS.ivory }) });
  private readonly lastRound = new Text({ text: '', style: textStyle({ fontSize: 30, fill: '#1b1205', fontWeight: '700' }) });
  private readonly lastRoundPill = new Graphics();
  private readonly status = new StatusBanner();
  private readonly tilts = new TiltBand();
  private readonly demo = new DemoBanner();
  private readonly round: TableRound;
  private readonly feltLayer = new Container();
  private readonly panelLayer = new Container();
  /**
   * What stays put between snapshots: the felt with its printed words, the holders' and seats'
   * names and the side panel. Drawn once into a texture (`cacheAsTexture`) and drawn again only
   * when one of them changes (a language, a layout, a seat taken, a coup on the roads): a frame
   * draws it as one quad instead of the felt's gradient, spots, rail and some sixty texts. One
   * screen's texture, whatever it holds (`CachedLayer`'s area). Where the screen bakes, all its vector
   * art is baked (the felt's, the panel's box and marks), so it is drawn without multisampling.
   */
  private readonly still = new CachedLayer('still', new Rectangle(0, 0, DESIGN.width, DESIGN.height));
  private roads: RoadsPanel | null = null;
  private history: HistoryStrip | null = null;
  private readonly languages: LanguageSwitch;
  /** A stadium's remote stations: how many play, and their total on each spot. */
  private readonly stadium = new Text({ text: '', style: textStyle({ fontSize: 24, fill: COLORS.ivory, lineHeight: 32 }) });
  /** Portugal's progressive jackpot: its pools, last award and celebration. */
  private readonly jackpot: JackpotPanel;

  constructor(private readonly ctx: ScreenContext) {
    this.jackpot = new JackpotPanel(() => ctx.emit('jackpot-hit'));
    this.round = new TableRound((e) => ctx.emit(e));
    for (const t of [this.nameZh, this.namePt, this.limitsZh, this.limitsPt, this.dealerLabel, this.shoeLabel, this.discardLabel, this.lastRound])
      t.anchor.set(0.5);
    this.languages = new LanguageSwitch(ctx, LANGUAGE_BUTTON);
    // The felt's art and the side panel's (the road maps, or the other games' history strip) are
    // baked: drawn again after a lost WebGL context. The history strip's is reported as the road
    // maps' (`road-marks`: the panel's marks), the report's names being the protocol's.
    ctx.rebake?.('felt', () => this.redrawFelt());
    ctx.rebake?.('road-marks', () => this.roads?.sharpen() ?? this.history?.sharpen() ?? false);
    // The game's name and limits are printed on the felt (both official languages, set here
    // because the limits come with the state): `felt-print`, like the rest of the felt's words.
    const printed = new Container({ label: 'felt-print' });
    printed.addChild(this.nameZh, this.namePt, this.limitsZh, this.limitsPt);
    this.still.addChild(this.feltLayer, this.dealerLabel, this.shoeLabel, this.discardLabel, printed, this.seatLayer, this.panelLayer);
    this.stadium.position.set(24, 20);
    this.root.addChild(
      this.still,
      this.round,
      this.lastRoundPill,
      this.lastRound,
      this.languages,
      this.stadium,
      this.jackpot,
      this.jackpot.celebration,
      this.tilts,
      this.demo,
      this.status,
    );
  }

  render(state: ViewState): void {
    if (state.kind !== 'table') return;
    const { i18n } = this.ctx;
    const t = i18n.getFixedT(state.language);
    const zh = i18n.getFixedT(FELT_LANGUAGES.zh);
    const pt = i18n.getFixedT(FELT_LANGUAGES.pt);
    const layout = this.syncFelt(state);
    // The game's name and limits are printed on the felt in both official languages, whatever the screen language.
    this.nameZh.text = zh(`game.${state.game}`);
    this.namePt.text = pt(`game.${state.game}`);
    this.limitsZh.text = zh('table.limits', { min: state.limits.min, max: state.limits.max, currency: state.currency });
    this.limitsPt.text = pt('table.limits', { min: state.limits.min, max: state.limits.max, currency: state.currency });
    this.dealerLabel.text = t('table.dealer');
    this.shoeLabel.text = t('table.shoe');
    this.discardLabel.text = t('table.discard');
    this.seatLabels.forEach((label, i) => {
      const seat = state.seats[i];
      // A seat with winning-streak bets open shows its marker under its name (Art. 13 5)(2) iii)).
      const streak = state.streaks?.find((x) => x.seat === i + 1);
      label.text = streak ? `${t('table.seat', { n: i + 1 })}\n${t('felt.streakWins', { n: streak.wins })}` : t('table.seat', { n: i + 1 });
      label.style.fill = seat?.station ? COLORS.ivory : COLORS.muted;
    });
    this.languages.setCurrent(state.language);
    this.roads?.show(state.roads, t);
    this.history?.show(state.history, t);
    this.lastRound.visible = this.lastRoundPill.visible = state.lastRound === true;
    if (state.lastRound) {
      this.lastRound.text = t('felt.lastRound');
      this.lastRound.position.set(layout.cue.x, layout.cue.y + 58);
      this.lastRoundPill
        .clear()
        .roundRect(this.lastRound.x - this.lastRound.width / 2 - 24, this.lastRound.y - 24, this.lastRound.width + 48, 48, 24)
        .fill({ color: COLORS.gold });
    }
    const st = state.stadium;
    this.stadium.visible = st !== undefined;
    this.stadium.text = st
      ? [
          t('table.stadium', { n: st.players }),
          ...st.spots.map((x) =>
            t('table.stadiumSpot', {
              bet:
                x.spot.bet === 'behind'
                  ? t('desk.behind', { n: x.spot.seat })
                  : 'seat' in x.spot
                    ? t('desk.onSeat', { bet: t(`bet.${x.spot.bet}`), n: x.spot.seat })
                    : t(`bet.${x.spot.bet}`),
              players: x.players,
              total: formatMoney(x.total, state.currency, state.language),
            }),
          ),
        ].join('\n')
      : '';
    this.tilts.show(state.tilts ?? [], t);
    this.demo.show(state.demonstration, t);
    this.jackpot.show(state.jackpot, t, state.currency, state.language, this.ctx.clock.now());
    this.round.show(state.round, t, state.currency, state.language, this.ctx.clock.now(), state.presentation?.betWords);
    this.still.refresh([this.feltKey, this.roads?.drawn ?? '', this.history?.drawn ?? ''].join('|'));
  }

  sharpen(resolution: number): void {
    // The felt's baked art is drawn again at the new resolution, before the still layer is (a felt
    // kept as Graphics is drawn at any resolution as it is).
    if (resolution !== this.resolution) {
      this.resolution = resolution;
      this.redrawFelt();
      this.roads?.sharpen();
      this.history?.sharpen();
    }
    this.still.sharpen(resolution);
  }

  tick(nowMs: number): number {
    // Before the frame draws: the roads of the newest coup baked, once however many came since the last frame.
    this.roads?.bakeOwed();
    return Math.min(this.round.tick(nowMs), this.jackpot.tick(nowMs));
  }

  /** The pools as drawn now (`level:pool,…`), empty without a progressive: for the tests and the screens bench. */
  jackpotShown(): string {
    return this.jackpot.visible ? this.jackpot.shownPools : '';
  }

  cardCodes(): string[] {
    return this.round.cardCodes();
  }

  setStatus(messageKey: MessageKey | null): void {
    this.status.show(messageKey === null ? null : this.ctx.i18n.t(messageKey));
  }

  /** Draws into a texture at the display's resolution at the time, where the screen can. */
  private baker(): ((target: Container, into?: Sprite | null) => Sprite) | undefined {
    const bake = this.ctx.bake;
    return bake ? (target, into) => bake(target, this.resolution, into) : undefined;
  }

  /** The felt's baked art drawn again (a new resolution, a lost context); false when there is none. */
  private redrawFelt(): boolean {
    if (!this.layout || !this.ctx.bake) return false;
    this.drawFelt(this.layout);
    return true;
  }

  /** The felt drawn anew (a new layout or resolution), its unchanging art baked into textures. */
  private drawFelt(layout: FeltLayout): void {
    this.felt?.destroy(DISPOSE);
    this.felt = drawFelt(layout, { zh: this.ctx.i18n.getFixedT(FELT_LANGUAGES.zh), pt: this.ctx.i18n.getFixedT(FELT_LANGUAGES.pt) });
    const bake = this.baker();
    if (bake) this.felt.bake(bake);
    this.feltLayer.addChild(this.felt);
  }

  private syncFelt(state: TableState): FeltLayout {
    const bets = state.bets ?? DEFAULT_BETS[state.game];
    const key = JSON.stringify([state.game, state.seats.length, bets]);
    if (key === this.feltKey && this.layout) return this.layout;
    this.feltKey = key;
    const layout = feltLayout(state.game, state.seats.length, bets);
    this.layout = layout;
    this.drawFelt(layout);
    // Beside the dealer's cards (baccarat's two boxes carry their own names).
    this.dealerLabel.position.set(layout.hands.dealer.x - 190, layout.hands.dealer.y + 20);
    this.dealerLabel.visible = state.presentation?.dealerHand ?? true;
    for (const [text, p] of [
      [this.shoeLabel, layout.holderLabels.shoe],
      [this.discardLabel, layout.holderLabels.discard],
    ] as const) {
      text.anchor.set(p.align, 0.5);
      text.position.set(p.x, p.y);
    }
    this.nameZh.position.set(layout.title.zh.x, layout.title.zh.y);
    this.namePt.position.set(layout.title.pt.x, layout.title.pt.y);
    this.limitsZh.position.set(layout.title.limits.x, layout.title.limits.y);
    this.limitsPt.position.set(layout.title.limitsPt.x, layout.title.limitsPt.y);
    this.nameZh.style.fontSize = layout.nameSize[0];
    this.namePt.style.fontSize = layout.nameSize[1];
    this.limitsZh.style.fontSize = layout.limitsSize[0];
    this.limitsPt.style.fontSize = layout.limitsSize[1];
    this.languages.position.set(layout.languages.x, layout.languages.y);
    // The felt's art decides where its language buttons fit: a column beside the half-moon, a row or a block under baccarat's.
    this.languages.arrange(languagesAcross(layout));
    this.seatLayer.removeChildren().forEach((c) => c.destroy());
    this.seatLabels.length = 0;
    for (const seat of layout.seats) {
      const label = new Text({ text: '', style: textStyle({ fontSize: 26, fill: COLORS.ivory, fontWeight: '600' }) });
      label.anchor.set(0.5);
      label.position.set(seat.label.x, seat.label.y);
      this.seatLayer.addChild(label);
      this.seatLabels.push(label);
    }
    this.panelLayer.removeChildren().forEach((c) => c.destroy(DISPOSE));
    this.roads = this.history = null;
    if ((state.presentation?.panel ?? 'history') === 'roads') this.panelLayer.addChild((this.roads = new RoadsPanel(layout.panel, this.baker())));
    else this.panelLayer.addChild((this.history = new HistoryStrip(layout.panel, this.baker())));
    this.round.setLayout(layout);
    return layout;
  }
}
