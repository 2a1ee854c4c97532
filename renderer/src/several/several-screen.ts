import type { TFunction } from 'i18next';
import { Container } from 'pixi.js';
import type { MessageKey } from '../../../locales/i18n.js';
import type { CommandBody, StationState, StationTables } from '../../../protocol/index.js';
import { NEVER } from '../anim/wake.js';
import type { ScreenContext } from '../screens/screen.js';
import { StationScreen } from '../station/station-screen.js';
import { STREAK_CONFIRM_MS } from '../station/cashout-offer.js';
import { Button } from '../ui/button.js';
import { DESIGN, TOUCH } from '../ui/theme.js';
import { CreditMoves } from './credit-moves.js';
import { mergeTransfers } from './move-amounts.js';
import { TableTab } from './table-tab.js';
import { TransfersPanel } from './transfers-panel.js';

/**
 * Where the tabs go, in design units: in a row in the focus table's station screen's header,
 * which is theirs on a screen of several tables (the focus screen is drawn whole, unscaled, so
 * every button keeps its touch size).
 */
export const SEVERAL = { tabsY: 6, tabsX: 20, gap: 16, maxTab: 600, transfersWidth: 220 } as const;

/** One joined table as the screen reaches it: where it is in the agent's list, and its link's commands. */
export interface JoinedTable {
  tableId: string;
  home: boolean;
  command(command: CommandBody): void;
  /** This table's recall shown or not (its screen's recall or replay panel): asked for from its host only meanwhile. */
  wantRecall?(on: boolean): void;
}

/**
 * A station following several tables (issue 34): every joined table's tab at the top, live (its
 * phase and countdown, its dealer's cue, this station's result there), and the focus table's own
 * station screen under them: its bet spots, limits, credit, recall and help are that table's, as
 * its host sends them, each table's screen kept apart (one StationScreen per table, only the focus
 * shown). Nothing here is decided: each table's credit is what its host last said.
 */
export class SeveralTablesScreen {
  readonly root = new Container();
  private readonly tabs: TableTab[];
  private readonly screens: StationScreen[];
  private readonly states: (StationState | null)[];
  private readonly offline: boolean[];
  private readonly moves: CreditMoves;
  /** The station's transfers across every table it follows (issue 54), over the focus screen's play area. */
  private readonly transfersButton: Button;
  private readonly transfers: TransfersPanel;
  private focus: number;
  private t: TFunction;

  constructor(
    private readonly ctx: ScreenContext,
    private readonly tables: readonly JoinedTable[],
  ) {
    this.t = ctx.i18n.getFixedT(ctx.i18n.language);
    this.focus = Math.max(
      0,
      tables.findIndex((t) => t.home),
    );
    this.states = tables.map(() => null);
    this.offline = tables.map(() => true);
    // The tabs share the header with the transfers button at its right end.
    const room = DESIGN.width - 2 * SEVERAL.tabsX - SEVERAL.transfersWidth - SEVERAL.gap * tables.length;
    const width = Math.min(SEVERAL.maxTab, room / tables.length);
    this.tabs = tables.map((table, i) => {
      const tab = new TableTab(table.tableId, table.home, width, () => this.setFocus(i));
      tab.position.set(SEVERAL.tabsX + i * (width + SEVERAL.gap), SEVERAL.tabsY);
      return tab;
    });
    const focusLayer = new Container();
    this.screens = tables.map((table) => {
      const screen = new StationScreen(
        {
          ...ctx,
          // The screen's language is the station's at every table: a choice is said to each.
          command: (c) => (c.name === 'set-language' ? tables.forEach((each) => each.command(c)) : table.command(c)),
          emit: (e) => ctx.emit(`${table.tableId}:${e}`),
          wantRecall: (on) => table.wantRecall?.(on),
        },
        { compact: true },
      );
      // The credit is paid out where it lives, at home; elsewhere the station leaves the table (its credit goes home).
      screen.offerCashout(table.home);
      screen.root.visible = false;
      focusLayer.addChild(screen.root);
      return screen;
    });
    const home = tables.find((t) => t.home);
    this.moves = new CreditMoves(
      (c) => home?.command(c),
      (c) => this.tables[this.focus]?.command(c),
      { now: () => ctx.clock.now(), ask: (via, amount) => this.askStreak(via, amount) },
    );
    this.transfers = new TransfersPanel({ x: 40, y: 170, width: 1150, height: 750 }, () => this.showTransfers(false));
    this.transfersButton = new Button('open-transfers', SEVERAL.transfersWidth, TOUCH.min, () => this.showTransfers(!this.transfers.visible));
    this.transfersButton.position.set(DESIGN.width - SEVERAL.tabsX - SEVERAL.transfersWidth, SEVERAL.tabsY);
    this.root.addChild(focusLayer, this.moves, this.transfers, this.transfersButton, ...this.tabs);
    this.setFocus(this.focus);
  }

  /** The focus table's language is the screen's (the hosts are each told of a choice). */
  focusLanguage(): StationState['language'] | null {
    return this.states[this.focus]?.language ?? null;
  }

  render(index: number, state: StationState): void {
    this.states[index] = state;
    this.offline[index] = false;
    this.screens[index]?.setStatus(null);
    this.screens[index]?.render(state);
    this.redraw();
  }

  /** A table's link went down or came back: its tab says so, the others play on. */
  setLink(index: number, up: boolean, status: MessageKey | null): void {
    this.offline[index] = !up;
    this.screens[index]?.setStatus(status);
    this.redraw();
  }

  /** A table refused a command: said on the focus table's screen, where the player pressed. */
  refused(messageKey: MessageKey): void {
    this.screens[this.focus]?.refused(messageKey);
  }

  /**
   * A move or a leave would take credit from a table holding a winning-streak stake: the amount
   * and what follows said on the focus screen, where the player pressed, for the confirmation's window.
   */
  private askStreak(via: 'move-credit' | 'leave-table', amount: number): void {
    const currency = this.states[this.focus]?.currency;
    const key = via === 'move-credit' ? 'several.moveStreak' : 'several.leaveStreak';
    this.screens[this.focus]?.say(this.t(key, { amount, currency }), STREAK_CONFIRM_MS);
    this.ctx.emit(`moves:confirm-streak:${via}`);
  }

  tick(now: number): number {
    let next = this.screens[this.focus]?.tick(now) ?? NEVER;
    // The confirming press no longer taken: the buttons say what they do again.
    const confirmEnds = this.moves.confirmEndsAt;
    if (confirmEnds !== -Infinity && now >= confirmEnds) this.redraw();
    if (confirmEnds > now) next = Math.min(next, confirmEnds);
    for (const tab of this.tabs) next = Math.min(next, tab.tick(now, this.t));
    return next;
  }

  sharpen(resolution: number): void {
    for (const s of this.screens) s.sharpen(resolution);
  }

  private showTransfers(on: boolean): void {
    this.transfers.visible = on;
    this.ctx.emit(on ? 'open:transfers' : 'close:transfers');
    this.redraw();
  }

  private setFocus(index: number): void {
    this.focus = index;
    this.screens.forEach((s, i) => (s.root.visible = i === index));
    this.ctx.emit(`focus:${this.tables[index]?.tableId ?? ''}`);
    this.redraw();
  }

  private redraw(): void {
    const focused = this.states[this.focus];
    const language = focused?.language ?? this.states.find((s) => s)?.language;
    if (language) this.t = this.ctx.i18n.getFixedT(language);
    const now = this.ctx.clock.now();
    this.tabs.forEach((tab, i) => tab.show(this.states[i] ?? null, this.offline[i] ?? true, i === this.focus, this.t, now));
    const home = this.states[this.tables.findIndex((t) => t.home)] ?? null;
    // A focus table whose link is down offers no moves: neither host could say what came of them.
    const reachable = !this.offline[this.focus] && !this.offline[this.tables.findIndex((t) => t.home)];
    this.moves.show(this.tables[this.focus]?.home ?? true, this.tables[this.focus]?.tableId ?? '', reachable ? (focused ?? null) : null, home, this.t);
    this.transfersButton.setLabel(this.t('several.transfers'));
    const shown = focused ?? this.states.find((s) => s) ?? null;
    if (this.transfers.visible && shown) this.transfers.show(mergeTransfers(this.states.map((s) => s?.transfers)), shown.currency, shown.language, this.t);
  }
}

/** The tables as the screen joins them, for `SeveralTablesScreen`: each with its link's commands. */
export function joined(
  list: StationTables,
  command: (index: number, c: CommandBody) => void,
  wantRecall?: (index: number, on: boolean) => void,
): JoinedTable[] {
  return list.tables.map((t, i) => ({
    tableId: t.tableId,
    home: t.home,
    command: (c: CommandBody) => command(i, c),
    wantRecall: (on: boolean) => wantRecall?.(i, on),
  }));
}
