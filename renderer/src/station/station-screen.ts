import type { TFunction } from 'i18next';
import { DemoBanner } from '../ui/demo-banner.js';
import { Container, Graphics, Text } from 'pixi.js';
import type { StationState, ViewState } from '../../../protocol/index.js';
import { formatMoney } from '../../../locales/money.js';
import { HelpPanel } from './help-panel.js';
import { RecallPanel } from './recall-panel.js';
import { ReplayPanel } from './replay-panel.js';
import { StationRoadsPanel } from './roads-panel.js';
import { StationPlay } from './station-play.js';
import { CashoutConfirm, offersHandpay, STREAK_CONFIRM_MS, type CashoutVia } from './cashout-offer.js';
import { Button } from '../ui/button.js';
import { LanguageSwitch } from '../screens/language-switch.js';
import { Notice } from '../ui/notice.js';
import { sessionBegins } from '../ui/clock-policy.js';
import { SessionClock } from '../ui/session-clock.js';
import { StatusBanner } from '../ui/status-banner.js';
import { COLORS, DESIGN, TOUCH, textStyle } from '../ui/theme.js';
import { TiltBand } from '../ui/tilt-band.js';
import { liveText } from '../ui/live-text.js';
import { CachedLayer } from '../pixi/cached-layer.js';
import { NEVER } from '../anim/wake.js';
import type { Screen, ScreenContext } from '../screens/screen.js';
import type { MessageKey } from '../../../locales/i18n.js';

/** The roads button, in the header between the game's name and the seat. */
const ROADS_BUTTON = { x: 820, y: 23, width: 300 } as const;

/** The right-hand column: credit meter, bet tools, cash-out, recall/replay/help, then refusals said. */
export const SIDE = { x: 1230, width: 650, meterY: 178, meterH: 230, row1: 440, row2: 566, row3: 692, notice: 822, noticeH: 150 } as const;

/** What a station holds: its credit and what is on its spots. A session begins when this leaves zero. */
export function holding(state: Pick<StationState, 'credit' | 'betting'>): number {
  return state.credit + state.betting.bets.reduce((a, b) => a + b.amount, 0);
}

/** A tool's width in the side column's rows of three. */
export const SIDE_THIRD = Math.floor((SIDE.width - 32) / 3);

export interface StationScreenOptions {
  /**
   * One of several tables' screens (renderer/src/several/): the header's room is the tables'
   * tabs, which name the table, its game and limits; the roads go beside the cash-out, whose
   * row keeps its last third free for the credit moves.
   */
  compact?: boolean;
  /**
   * The page clears its canvas to STATION_BACKGROUND, so the screen draws no background of its
   * own. A full-screen background in the cached layer made its texture the whole screen: one
   * station frame in SwiftShader cost 3.3 times the bare scene's, half of it that quad (issue 31).
   */
  clearedBackground?: boolean;
}

/** The station's background colour, drawn or cleared to (`clearedBackground`). */
export const STATION_BACKGROUND = 0x0a2219;

/** A player's own touch screen: seat, credit meter, limits, bets and decisions, recall, help, language. */
export class StationScreen implements Screen {
  readonly root = new Container();
  private readonly title = new Text({ text: '', style: textStyle({ fontSize: 52, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly seat = new Text({ text: '', style: textStyle({ fontSize: 40 }) });
  private readonly limits = new Text({ text: '', style: textStyle({ fontSize: 28, fill: COLORS.muted }) });
  private readonly creditLabel = new Text({ text: '', style: textStyle({ fontSize: 36, fill: COLORS.muted }) });
  /** The credit meter, changed by every bet and win: a live text (ui/live-text.ts). */
  private readonly credit = liveText({ fontSize: 92, fill: COLORS.ivory, fontWeight: '700' });
  private readonly status = new StatusBanner();
  /**
   * What changes only with the language or the table, cached in two layers over their own bounds
   * (the header's band, the credit meter's panel) rather than one: a cached layer is drawn as one
   * textured quad over its bounds, and one layer over both covered the 1266×258 empty corner
   * between them too (issue 31: `npm run bench -- screen-frame`).
   */
  private readonly headerLayer = new CachedLayer('header');
  private readonly meterLayer = new CachedLayer('meter');
  private readonly tilts = new TiltBand(152);
  private readonly demo = new DemoBanner();
  private readonly languages: LanguageSwitch;
  private readonly clock: SessionClock;
  private readonly play: StationPlay;
  private readonly repeat: Button;
  private readonly undo: Button;
  private readonly clear: Button;
  private readonly cashout: Button;
  /** A handpay by an attendant, on the player's request: only where the station prints tickets (in the cash-out row's last third). */
  private readonly handpay: Button;
  /** The cash-out's full width in this layout (two thirds when the handpay is offered beside it). */
  private readonly cashoutWidth: number;
  private cashoutShown = true;
  /** A cash-out with a winning-streak stake held waits for its confirming press (cashout-offer.ts). */
  private readonly confirm = new CashoutConfirm();
  private readonly recallButton: Button;
  private readonly replayButton: Button;
  private readonly helpButton: Button;
  private readonly roadsButton: Button;
  private readonly recall: RecallPanel;
  private readonly replay: ReplayPanel;
  private readonly help: HelpPanel;
  private readonly roads: StationRoadsPanel;
  private readonly notice = new Notice({ x: SIDE.x, y: SIDE.notice, width: SIDE.width, height: SIDE.noticeH });
  private state: StationState | null = null;
  private language: StationState['language'] | null = null;
  private t: TFunction | null = null;
  /** What the fixed words were last translated from (`render`). */
  private worded = '';

  constructor(
    private readonly ctx: ScreenContext,
    options: StationScreenOptions = {},
  ) {
    const bg = new Graphics();
    if (!options.clearedBackground) bg.rect(0, 0, DESIGN.width, DESIGN.height).fill({ color: STATION_BACKGROUND });
    const header = new Graphics().rect(0, 0, DESIGN.width, 150).fill({ color: COLORS.panel }).rect(0, 148, DESIGN.width, 4).fill({ color: COLORS.gold });
    const meter = new Graphics()
      .roundRect(SIDE.x, SIDE.meterY, SIDE.width, SIDE.meterH, 24)
      .fill({ color: COLORS.panel })
      .stroke({ width: 4, color: COLORS.gold });
    this.title.position.set(60, 22);
    this.limits.position.set(60, 94);
    this.seat.anchor.set(1, 0);
    this.seat.position.set(DESIGN.width - 60, 50);
    this.creditLabel.position.set(SIDE.x + 36, SIDE.meterY + 22);
    this.credit.anchor.set(1, 0);
    this.credit.position.set(SIDE.x + SIDE.width - 36, SIDE.meterY + 90);

    const third = SIDE_THIRD;
    const tool = (id: string, row: number, col: number, onPress: () => void, width = third) => {
      const b = new Button(id, width, 108, onPress);
      b.position.set(SIDE.x + col * (third + 16), row);
      return b;
    };
    this.play = new StationPlay(ctx);
    this.repeat = tool('bet-repeat', SIDE.row1, 0, () => this.play.queue.run(this.play.plan.repeat()));
    this.undo = tool('bet-undo', SIDE.row1, 1, () => this.play.queue.run(this.play.plan.undo()));
    this.clear = tool('bet-clear', SIDE.row1, 2, () => ctx.command({ name: 'clear-bets' }));
    this.cashoutWidth = options.compact ? third : SIDE.width;
    this.cashout = tool('cash-out', SIDE.row2, 0, () => this.cashOut('ticket'), this.cashoutWidth);
    this.handpay = tool('cash-out-handpay', SIDE.row2, 2, () => this.cashOut('handpay'));
    this.handpay.visible = false;
    this.recallButton = tool('open-recall', SIDE.row3, 0, () => this.open('recall'));
    this.replayButton = tool('open-replay', SIDE.row3, 1, () => this.open('replay'));
    this.helpButton = tool('open-help', SIDE.row3, 2, () => this.open('help'));
    // Baccarat's roads, in the header: a remote station has no table display in sight to read them on.
    this.roadsButton = options.compact
      ? tool('open-roads', SIDE.row2, 1, () => this.open('roads'))
      : new Button('open-roads', ROADS_BUTTON.width, TOUCH.min, () => this.open('roads'));
    if (!options.compact) this.roadsButton.position.set(ROADS_BUTTON.x, ROADS_BUTTON.y);
    this.roadsButton.visible = false;

    const area = { x: 40, y: 170, width: 1150, height: 750 };
    this.recall = new RecallPanel(
      area,
      () => this.close(),
      (i) => this.open('replay', i),
    );
    this.replay = new ReplayPanel(area, ctx, () => this.close());
    this.help = new HelpPanel(area, () => this.close());
    this.roads = new StationRoadsPanel(area, () => this.close());

    this.languages = new LanguageSwitch(ctx);
    this.languages.position.set(40, DESIGN.height - TOUCH.min - 26);
    this.clock = new SessionClock(ctx.sessionStartMs);
    this.clock.position.set(DESIGN.width - 40, DESIGN.height - 30);
    this.headerLayer.addChild(header, this.title, this.limits, this.seat);
    this.meterLayer.addChild(meter, this.creditLabel);
    this.title.visible = this.limits.visible = this.seat.visible = !options.compact;
    // A station at several tables draws its own full-screen background, under the cached layers.
    this.root.addChild(bg, this.headerLayer, this.meterLayer, this.credit, this.play);
    this.root.addChild(this.repeat, this.undo, this.clear, this.cashout, this.handpay, this.recallButton, this.replayButton, this.helpButton, this.roadsButton);
    this.root.addChild(this.recall, this.replay, this.help, this.roads, this.languages, this.clock, this.notice, this.tilts, this.demo, this.status);
  }

  render(state: ViewState): void {
    if (state.kind !== 'station') return;
    const before = this.state;
    this.state = state;
    // One translation function per language change, reused every frame by tick().
    if (state.language !== this.language) {
      this.language = state.language;
      this.t = this.ctx.i18n.getFixedT(state.language);
    }
    const t = this.t!;
    const now = this.ctx.clock.now();
    // A player's session begins when credit arrives at a station that held nothing (a fresh
    // station, or one cashed out or played down to zero): the clock flashes then (docs/screens.md).
    if (sessionBegins(before ? holding(before) : null, holding(state))) {
      this.clock.sessionStarted(now);
      this.ctx.emit('session:start');
    }
    // A decision or a betting window for this station is never left behind a panel.
    const decisionArrives = state.decision !== null && (before?.decision?.endsAt !== state.decision.endsAt || before?.decision.hand !== state.decision.hand);
    const bettingOpens = state.betting.open && !before?.betting.open;
    if ((decisionArrives || bettingOpens) && this.panelOpen()) {
      this.close();
      this.ctx.emit(decisionArrives ? 'panel:closed-for-decision' : 'panel:closed-for-betting');
    }
    // The words that change only with the language, the table or the seat, translated again only
    // then: not with every snapshot (a card each while dealing; issue 31, BENCH_TRACE_VIEW=station).
    const words = JSON.stringify([state.language, state.game, state.seat, state.station, state.limits, state.currency]);
    const reword = words !== this.worded;
    this.worded = words;
    if (reword) {
      this.title.text = t(`game.${state.game}`);
      // A remote station has no seat: it says which station it is.
      this.seat.text = state.seat !== undefined ? t('station.yourSeat', { n: state.seat }) : t('station.remote', { n: state.station });
      this.creditLabel.text = t('station.credit');
      this.limits.text = t('table.limits', { min: state.limits.min, max: state.limits.max, currency: state.currency });
      this.repeat.setLabel(t('desk.repeat'));
      this.undo.setLabel(t('desk.undo'));
      this.clear.setLabel(t('station.clear'));
      this.recallButton.setLabel(t('recall.open'));
      this.replayButton.setLabel(t('replay.open'));
      this.helpButton.setLabel(t('help.open'));
      this.roadsButton.setLabel(t('roads.open'));
    }
    this.credit.text = formatMoney(state.credit, state.currency, state.language);
    this.credit.scale.set(1);
    if (this.credit.width > SIDE.width - 72) this.credit.scale.set((SIDE.width - 72) / this.credit.width);
    this.languages.setCurrent(state.language);
    this.clock.setLanguage(state.language);
    this.play.show(state, t, now);
    const open = state.betting.open && !this.play.queue.busy();
    this.repeat.setEnabled(open && this.play.plan.canRepeat(state.betting.bets));
    this.undo.setEnabled(open && this.play.plan.canUndo());
    this.clear.setEnabled(open && state.betting.bets.length > 0);
    this.showCashout(state, t, now);
    // The own part says how many rounds the recall holds; the list itself comes when a panel asks for it.
    const rounds = state.recalled?.rounds ?? state.recall?.length ?? 0;
    // Recall also holds the player's own tickets ("Your tickets"): a player who only cashed out or put a ticket in may open it.
    this.recallButton.setEnabled(rounds > 0 || (state.tickets?.length ?? 0) > 0);
    this.replayButton.setEnabled(rounds > 0);
    this.roadsButton.visible = state.presentation?.panel === 'roads';
    this.tilts.show(state.tilts ?? [], t);
    this.demo.show(state.demonstration, t);
    this.recall.update(state, t);
    this.replay.update(state, t);
    this.help.update(state, t);
    this.roads.update(state, t);
    this.headerLayer.refresh();
    this.meterLayer.refresh();
  }

  sharpen(resolution: number): void {
    this.headerLayer.sharpen(resolution);
    this.meterLayer.sharpen(resolution);
    this.play.sharpen(resolution);
  }

  /** The cash-out buttons: pending, or a ticket and a handpay, or the one waiting for its confirming press. */
  private showCashout(state: StationState, t: TFunction, now: number): void {
    const ticket = state.cashout?.ticket;
    const inPrint = ticket?.state === 'printing' || ticket?.state === 'unresolved' ? ticket : null;
    const pending = state.cashout?.pending ?? inPrint;
    // Where the station prints tickets, the cash-out is a ticket and a handpay is asked for beside it.
    const choice = offersHandpay(state);
    const idle = choice ? 'desk.cashoutTicket' : 'desk.cashout';
    const armed = pending === null ? this.confirm.armedFor(state, now) : null;
    this.cashout.setLabel(t(pending ? 'desk.cashoutPending' : idle), pending ? formatMoney(pending.amount, state.currency, state.language) : '');
    this.cashout.setEnabled(pending === null && state.credit > 0);
    this.offerHandpay(choice, t);
    this.handpay.setEnabled(pending === null && state.credit > 0);
    if (armed) (armed === 'ticket' ? this.cashout : this.handpay).setLabel(t('desk.cashoutStreakAgain'));
  }

  /**
   * A cash-out press: sent at once, or, with a winning-streak stake held, the amount and what
   * follows said first (Macau 2009 Art. 13 5)(2) vi)) and sent, acknowledged, on the next press.
   */
  private cashOut(via: CashoutVia): void {
    const { state, t } = this;
    if (!state || !t) return;
    const now = this.ctx.clock.now();
    const r = this.confirm.press(via, state, now);
    if (r.kind === 'send') this.ctx.command(r.command);
    else {
      this.notice.show(t('desk.cashoutStreak', { amount: r.amount, currency: state.currency }), now, STREAK_CONFIRM_MS);
      this.ctx.emit('cashout:confirm-streak');
    }
    this.showCashout(state, t, now);
  }

  /** Whether the cash-out is offered here (one of several tables: at the station's home only, its place is the leave's elsewhere). */
  offerCashout(shown: boolean): void {
    this.cashoutShown = shown;
    this.cashout.visible = shown;
    this.handpay.visible = shown && this.state !== null && offersHandpay(this.state);
  }

  /** The handpay beside the cash-out, or not: the full layout's cash-out gives up its last third to it. */
  private offerHandpay(offered: boolean, t: TFunction): void {
    this.handpay.visible = offered && this.cashoutShown;
    // Compact, the cash-out is a third already and the handpay takes the row's free last third.
    this.cashout.setWidth(offered ? Math.min(this.cashoutWidth, 2 * SIDE_THIRD + 16) : this.cashoutWidth);
    if (!offered) return;
    this.handpay.setLabel(t('desk.cashoutHandpay'));
  }

  tick(nowMs: number): number {
    let next = Math.min(this.clock.update(nowMs), this.notice.tick(nowMs));
    // The confirming press no longer taken: the button says what it does again.
    const confirmEnds = this.confirm.endsAt;
    if (confirmEnds !== -Infinity && nowMs >= confirmEnds && this.state && this.t) this.showCashout(this.state, this.t, nowMs);
    next = Math.min(next, confirmEnds > nowMs ? confirmEnds : NEVER);
    if (this.t) next = Math.min(next, this.play.tick(nowMs, this.t), this.replay.tick(nowMs, this.t));
    return next;
  }

  setStatus(messageKey: MessageKey | null): void {
    this.status.show(messageKey === null ? null : this.ctx.i18n.t(messageKey));
  }

  /** A refused command: a repeat or undo in progress stops there, and the reason is said beside the meter. */
  /** A question for the player (a confirmation the screen of several tables asks), said where refusals are for `ms`. */
  say(message: string, ms: number): void {
    this.notice.show(message, this.ctx.clock.now(), ms);
  }

  refused(messageKey: MessageKey): void {
    this.play.queue.refused();
    this.notice.show(this.ctx.i18n.t(messageKey), this.ctx.clock.now());
  }

  private panelOpen(): boolean {
    return this.recall.visible || this.replay.visible || this.help.visible || this.roads.visible;
  }

  private open(panel: 'recall' | 'replay' | 'help' | 'roads', round = 0): void {
    this.close();
    if (panel === 'recall' || panel === 'replay') this.ctx.wantRecall?.(true);
    if (panel === 'recall') this.recall.open();
    else if (panel === 'help') this.help.open();
    else if (panel === 'roads') this.roads.open();
    else if (this.state) this.replay.start(round, this.state, this.ctx.i18n.getFixedT(this.state.language), this.ctx.clock.now());
    this.play.visible = false;
  }

  private close(): void {
    this.recall.visible = this.replay.visible = this.help.visible = this.roads.visible = false;
    this.play.visible = true;
    this.ctx.wantRecall?.(false);
  }
}
