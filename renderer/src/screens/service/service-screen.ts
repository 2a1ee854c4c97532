import type { TFunction } from 'i18next';
import { betWordsOf } from '../../../../locales/bet-key.js';
import { citationWords } from '../../../../locales/citation.js';
import { DemoBanner } from '../../ui/demo-banner.js';
import { DISPOSE } from '../../pixi/dispose.js';
import { Container, Graphics, Text } from 'pixi.js';
import { SERVICE_PAGES, type ServiceAction, type ServicePageName, type ServiceState, type ViewState } from '../../../../protocol/index.js';
import { formatMoney, minorDigits } from '../../../../locales/money.js';
import { Button } from '../../ui/button.js';
import { LanguageSwitch } from '../language-switch.js';
import { StatusBanner } from '../../ui/status-banner.js';
import { COLORS, DESIGN, textStyle } from '../../ui/theme.js';
import type { Screen, ScreenContext } from '../screen.js';
import { Keypad } from './keypad.js';
import { ReplayView } from './replay-view.js';
import { pageContent } from './page-content.js';
import { actionSummary } from './pages/action-summary.js';
import { INITIAL_CHOICES, type AskRequest, type PageActions, type PageButton, type PageChoices } from './pages/choices.js';
import { decisionsLine } from './pages/decisions-line.js';
import { eventFilter } from './pages/event-filter.js';
import { CardPad } from './card-pad.js';
import { CachedLayer } from '../../pixi/cached-layer.js';
import { nextSecondAt } from '../../anim/wake.js';
import { TextPad } from './text-pad.js';
import { isMessageKey, type MessageKey } from '../../../../locales/i18n.js';
import { saidWords } from '../../../../locales/said.js';

/** The service screen's background, to which its page clears the canvas (no full-screen rectangle is drawn). */
export const SERVICE_BACKGROUND = 0x14161a;

/** Rows of text on screen at once; a longer page scrolls (buttons and the wheel). */
const ROWS = 24;
const ROW_H = 29;
const CONTENT_X = 290;
/** Buttons of a page on screen at once: two rows of seven; more are paged. */
const BUTTONS_PER_ROW = 7;
const BUTTON_ROWS = 2;

/**
 * Service mode: the sign-in pad, then the pages with their actions, and the second person's pad
 * over them while a two-person action waits. Everything shown comes from the host's snapshot;
 * before sign-in that is only the cabinet label.
 */
export class ServiceScreen implements Screen {
  readonly root = new Container();
  private readonly title = new Text({ text: '', style: textStyle({ fontSize: 40, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly label = new Text({ text: '', style: textStyle({ fontSize: 30, fill: COLORS.muted }) });
  private readonly sessionText = new Text({ text: '', style: textStyle({ fontSize: 24, fill: COLORS.ivory }) });
  private readonly idle = new Text({ text: '', style: textStyle({ fontSize: 24, fill: COLORS.warning }) });
  private readonly notice = new Text({ text: '', style: textStyle({ fontSize: 30, fill: COLORS.warning }) });
  private readonly status = new StatusBanner();
  private readonly demo = new DemoBanner();
  private readonly still = new CachedLayer('still');
  private readonly languages: LanguageSwitch;
  private readonly signIn = new Container();
  private readonly prompt = new Text({ text: '', style: textStyle({ fontSize: 40, fill: COLORS.warning }) });
  private readonly signInPad: Keypad;
  private readonly pages = new Container();
  private readonly nav = new Container();
  private readonly navButtons = new Map<ServicePageName, Button>();
  private readonly signOut: Button;
  private readonly rows: Text[] = [];
  private readonly actionBar = new Container();
  private readonly actionButtons = new Map<string, { button: Button; spec: PageButton }>();
  private readonly overlay = new Container();
  private readonly overlayTitle = new Text({
    text: '',
    style: textStyle({ fontSize: 34, fill: COLORS.goldText, fontWeight: '700', wordWrap: true, wordWrapWidth: 1500 }),
  });
  private readonly overlayText = new Text({ text: '', style: textStyle({ fontSize: 30, wordWrap: true, wordWrapWidth: 1500 }) });
  private readonly confirmPad: Keypad;
  private readonly numberPad: Keypad;
  private readonly refPad: TextPad;
  private readonly cardPad: CardPad;
  private readonly cancel: Button;
  private readonly replay: ReplayView;
  private readonly rowsUp: Button;
  private readonly rowsDown: Button;
  private readonly rowsAt = new Text({ text: '', style: textStyle({ fontSize: 22, fill: COLORS.muted }) });
  private readonly moreButtons: Button;
  private state: ServiceState | null = null;
  private choices: PageChoices = INITIAL_CHOICES;
  private asking: AskRequest | null = null;
  /** The first row and the page of buttons on screen; both go back to the top on another page. */
  private rowFrom = 0;
  private buttonPage = 0;
  private shownPage = '';
  private rowCount = 0;

  constructor(private readonly ctx: ScreenContext) {
    this.languages = this.placeHeading();
    // Sign-in: the cabinet label, the prompt and the pad.
    this.signInPad = new Keypad('signin', (staff, pin) => ctx.command({ name: 'service-sign-in', staff, pin }));
    this.placeSignIn();

    // Signed in: navigation, rows, actions.
    this.placeNavigation();
    this.placeRows();
    // Touch-sized scroll buttons beside the rows: a long page (seven stations' meters, many faults)
    // shows every row, a screenful at a time.
    this.rowsUp = new Button('rows-up', 120, 96, () => this.scroll(-(ROWS - 2)));
    this.rowsDown = new Button('rows-down', 120, 96, () => this.scroll(ROWS - 2));
    this.placeScroll();
    this.moreButtons = new Button('actions-more', 220, 72, () => {
      this.buttonPage++;
      this.draw();
    });
    this.signOut = new Button('sign-out', 230, 84, () => ctx.command({ name: 'service-sign-out' }));
    this.placeActions();

    // Second person (two-person actions) or an authorisation number, over the page.
    const shade = this.overlayShade();
    this.confirmPad = new Keypad('confirm', (staff, pin) => ctx.command({ name: 'service-confirm', staff, pin }));
    const answer = (value: string) => this.answer(value);
    this.numberPad = new Keypad('number', answer, true);
    this.refPad = new TextPad('ref', answer);
    this.cardPad = new CardPad(answer);
    this.cancel = new Button('confirm-cancel', 240, 96, () => this.cancelPad());
    this.placeOverlay(shade);

    this.replay = new ReplayView(DESIGN.width - CONTENT_X - 20, 900, () => this.replay.stop());
    this.replay.position.set(CONTENT_X - 10, 120);
    this.pages.addChild(this.replay);

    this.root.addChild(this.still, this.languages, this.signIn, this.pages, this.overlay, this.notice, this.demo, this.status);
    this.listenToKeysAndWheel();
  }

  /**
   * The heading's band (one cached layer: the rows and buttons change with each page), the
   * signed-in name, the idle countdown, the notice and the language switch. No background: the
   * page clears its canvas to SERVICE_BACKGROUND (main.ts), as a station's does; a full-screen
   * rectangle in the cached layer made its texture a full-screen quad every frame (issue 31).
   */
  private placeHeading(): LanguageSwitch {
    const bar = new Graphics().rect(0, 0, DESIGN.width, 110).fill({ color: 0x1d2128 }).rect(0, 108, DESIGN.width, 3).fill({ color: COLORS.gold });
    // The heading over the cabinet's label, their boxes clear of each other in every language (screen-matrix.spec.ts).
    this.title.position.set(30, 8);
    this.label.position.set(30, 66);
    this.sessionText.anchor.set(1, 0);
    this.sessionText.position.set(1650, 38);
    this.notice.position.set(CONTENT_X, 1034);
    this.idle.anchor.set(1, 0);
    this.idle.position.set(1650, 74);
    this.still.addChild(bar, this.title, this.label);
    const languages = new LanguageSwitch(this.ctx, { width: 150, height: 96, gap: 16 });
    // Four catalogues at 0.8 ran into the signed-in name in Portuguese at 1920×1080 (screen-matrix.spec.ts,
    // 26 November): at 0.7 the row ends at x 1154, clear of the cabinet label on the left and of the name.
    languages.scale.set(0.7);
    languages.position.set(700, 16);
    return languages;
  }

  private placeSignIn(): void {
    this.prompt.position.set(760, 170);
    this.signInPad.position.set(760, 260);
    this.signIn.addChild(this.prompt, this.signInPad);
  }

  /** One button a page, down the left edge. */
  private placeNavigation(): void {
    // Twelve pages down the left edge of 1080 design units, below the title bar.
    const step = Math.min(86, Math.floor((1080 - 124) / SERVICE_PAGES.length));
    SERVICE_PAGES.forEach((page, i) => {
      const b = new Button(`page-${page}`, 240, step - 6, () => this.open(page));
      b.position.set(20, 124 + i * step);
      this.navButtons.set(page, b);
      this.nav.addChild(b);
    });
  }

  /** The page's rows of text, a screenful of them. */
  private placeRows(): void {
    for (let i = 0; i < ROWS; i++) {
      const row = new Text({ text: '', style: textStyle({ fontSize: 22 }) });
      row.position.set(CONTENT_X, 128 + i * ROW_H);
      this.rows.push(row);
      this.pages.addChild(row);
    }
  }

  private placeScroll(): void {
    this.rowsUp.position.set(1780, 128);
    this.rowsDown.position.set(1780, 128 + ROWS * ROW_H - 96);
    this.rowsAt.anchor.set(0.5, 0.5);
    this.rowsAt.position.set(1840, 128 + (ROWS * ROW_H) / 2);
    this.pages.addChild(this.rowsUp, this.rowsDown, this.rowsAt);
  }

  private placeActions(): void {
    this.actionBar.position.set(CONTENT_X, 870);
    this.signOut.position.set(1670, 14);
    this.pages.addChild(this.nav, this.actionBar, this.signOut, this.sessionText, this.idle);
  }

  /** The dark shade under the overlay's pads: the page's buttons under it take no presses while it is open. */
  private overlayShade(): Graphics {
    const shade = new Graphics().rect(CONTENT_X - 10, 120, DESIGN.width - CONTENT_X, 900).fill({ color: 0x000000, alpha: 0.88 });
    shade.eventMode = 'static';
    return shade;
  }

  private placeOverlay(shade: Graphics): void {
    this.overlayTitle.position.set(CONTENT_X + 20, 140);
    this.overlayText.position.set(CONTENT_X + 20, 250);
    for (const pad of [this.confirmPad, this.numberPad, this.refPad, this.cardPad]) pad.position.set(CONTENT_X + 20, 330);
    this.cancel.position.set(CONTENT_X + 420, 330 + 200 + 3 * 106);
    this.overlay.addChild(shade, this.overlayTitle, this.overlayText, this.confirmPad, this.numberPad, this.refPad, this.cardPad, this.cancel);
  }

  /** A value typed on the pad a page's button asked for: the pad closes, then the button hears it. */
  private answer(value: string): void {
    const asked = this.asking;
    this.asking = null;
    this.draw();
    asked?.then(value);
  }

  /** Cancel closes the pad a button asked for, else cancels the two-person action waiting. */
  private cancelPad(): void {
    if (this.asking) {
      this.asking = null;
      this.draw();
    } else this.ctx.command({ name: 'service-cancel' });
  }

  /** Keys type on the pad on screen; the wheel scrolls a signed-in page with no pad over it. */
  private listenToKeysAndWheel(): void {
    window.addEventListener('keydown', (e) => {
      if (this.activePad()?.key(e.key)) e.preventDefault();
    });
    window.addEventListener('wheel', (e) => {
      if (this.state?.signedIn && !this.overlay.visible) this.scroll(Math.sign(e.deltaY) * 3);
    });
  }

  render(state: ViewState): void {
    if (state.kind !== 'service') return;
    this.state = state;
    this.demo.show(state.demonstration, this.ctx.i18n.getFixedT(state.language));
    this.draw();
  }

  sharpen(resolution: number): void {
    this.still.sharpen(resolution);
  }

  /** The last minute before the idle sign-out is counted down, so nobody is surprised by it. */
  tick(nowMs: number): number {
    const next = this.replay.tick(nowMs);
    const s = this.state;
    const ends = s?.session?.idleEndsAt;
    if (!s || ends === undefined) return next;
    const seconds = Math.max(0, Math.ceil((ends - nowMs) / 1000));
    const text = seconds <= 60 ? this.ctx.i18n.getFixedT(s.language)('service.idleIn', { seconds }) : '';
    if (this.idle.text !== text) this.idle.text = text;
    // The countdown's next second in its last minute; until then, the minute's start.
    return Math.min(next, seconds > 60 ? ends - 60_000 : nextSecondAt(ends, nowMs));
  }

  setStatus(messageKey: MessageKey | null): void {
    this.status.show(messageKey === null ? null : this.ctx.i18n.t(messageKey));
  }

  private activePad(): Keypad | TextPad | CardPad | null {
    const s = this.state;
    if (!s) return null;
    if (!s.signedIn) return this.signInPad;
    if (this.asking) return this.asking.kind === 'reference' ? this.refPad : this.asking.kind === 'card' ? this.cardPad : this.numberPad;
    return s.confirm ? this.confirmPad : null;
  }

  private scroll(by: number): void {
    const max = Math.max(0, this.rowCount - ROWS);
    const next = Math.min(max, Math.max(0, this.rowFrom + by));
    if (next === this.rowFrom) return;
    this.rowFrom = next;
    this.draw();
  }

  private open(page: ServicePageName, extra: { offset?: number; station?: number; filter?: Record<string, unknown>; device?: string } = {}): void {
    const filter = page === 'events' && !extra.filter ? eventFilter(this.choices, Date.now()) : extra.filter;
    const station = page === 'recall' && extra.station === undefined && this.choices.recallStation !== null ? this.choices.recallStation : extra.station;
    // The Devices page traces the device chosen on it (the first acceptor until another is chosen).
    const device = page === 'devices' ? (extra.device ?? this.choices.device) : undefined;
    this.ctx.command({
      name: 'service-page',
      page,
      ...(extra.offset ? { offset: extra.offset } : {}),
      ...(station !== undefined ? { station } : {}),
      ...(filter ? { filter } : {}),
      ...(device ? { device } : {}),
    } as never);
  }

  /** An export's address with the session's token (and whatever the path already asks). */
  private exportUrl(path: string): string | null {
    const token = this.state?.session?.exportToken;
    if (!token) return null;
    const u = new URL(path, location.href);
    u.searchParams.set('t', token);
    return u.toString();
  }

  private download(path: string): void {
    const url = this.exportUrl(path);
    if (!url) return;
    const a = document.createElement('a');
    a.href = url;
    a.download = '';
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  /** The browser's file chooser; the file's text, if it can be a peer's enrolment file (the host checks it). */
  private upload(then: (text: string) => void): void {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,application/json';
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      // The protocol's limit: a bigger file is no enrolment file.
      if (file && file.size <= 24_000) void file.text().then(then);
    });
    input.click();
  }

  private view(path: string): void {
    const url = this.exportUrl(path);
    if (url) window.open(url, '_blank', 'noopener');
  }

  private draw(): void {
    const s = this.state;
    if (!s) return;
    const t = this.ctx.i18n.getFixedT(s.language);
    this.drawHeader(s, t);
    const labelled = (label: string, value: string) => t('punctuation.labelled', { label, value });
    const pad = {
      labelled,
      staff: t('service.signIn.staff'),
      pin: t('service.signIn.pin'),
      next: t('service.signIn.next'),
      submit: t('service.signIn.submit'),
      clear: t('service.signIn.clear'),
    };

    this.signIn.visible = !s.signedIn;
    this.pages.visible = s.signedIn;
    if (s.page?.page !== 'recall') this.replay.stop();
    if (!s.signedIn || !s.session) {
      this.overlay.visible = false;
      this.asking = null;
      this.choices = INITIAL_CHOICES;
      this.prompt.text = t('service.signInRequired');
      this.signInPad.setLabels(pad);
      this.notice.position.set(760, 900);
      return;
    }
    this.notice.position.set(CONTENT_X, 1034);
    this.sessionText.text = t('service.session', { name: s.session.name, role: t(`service.role.${s.session.role}`), staff: s.session.staff });
    this.signOut.setLabel(t('service.signOut'));
    for (const [page, b] of this.navButtons) {
      b.setLabel(t(`service.pages.${page}`));
      b.setActive(s.page?.page === page);
    }
    const content = s.page ? pageContent(s, s.page, t, this.choices, this.pageActions(s, t)) : { rows: [], buttons: [] };
    this.drawRows(s, content.rows, t);
    this.layoutButtons(content.buttons, t);
    this.drawOverlay(s, t, pad);
  }

  /** The title, the cabinet label, the language switch and the host's notice. */
  private drawHeader(s: ServiceState, t: TFunction): void {
    this.title.text = t('service.title');
    this.label.text = t('punctuation.joined', { first: t('service.table', { id: s.tableId }), second: t('service.version', { version: s.softwareVersion }) });
    this.still.refresh();
    this.languages.setCurrent(s.language);
    // The host names its notice by a catalogue key; one this screen has no words for (a newer host) reads as an error.
    const notice = s.notice
      ? isMessageKey(s.notice.key)
        ? saidWords((key, options) => t(key, options), { key: s.notice.key, values: s.notice.values ?? {} })
        : t('errors.internal')
      : '';
    this.notice.text = s.busy ? t('service.signIn.checking') : notice;
    this.notice.style.fill = s.notice?.ok === false ? COLORS.warning : '#9fe2b0';
  }

  /** What a page's buttons do: a command to the host, another page, a download, a replay, a pad asked for, a choice. */
  private pageActions(s: ServiceState, t: TFunction): PageActions {
    return {
      act: (action: ServiceAction) => this.ctx.command({ name: 'service-action', action }),
      open: (page, extra) => this.open(page, extra),
      download: (path) => this.download(path),
      upload: (then) => this.upload(then),
      view: (path) => this.view(path),
      replay: (round) => {
        const money = (m: number) => formatMoney(m, s.session?.currency ?? 'MOP', s.language);
        const lines = round.lines.map((l) =>
          t('service.field.line', {
            seat: l.seat,
            bet: betWordsOf(t, round.game, l.bet),
            stake: money(l.stake),
            net: money(l.net),
            rule: citationWords(t, l.rule),
          }),
        );
        const decisions = round.decisions.length ? [decisionsLine(t, round)] : [];
        const voided = round.status === 'void' ? [t('service.field.voidReason', { reason: round.reason ?? '', by: round.authorisedBy ?? [] })] : [];
        this.replay.play(round, Date.now(), t('service.action.close'), [...decisions, ...lines.slice(0, 12), ...voided].join('\n'));
      },
      ask: (request) => {
        this.asking = request;
        this.numberPad.clear();
        this.refPad.clear();
        this.cardPad.clear();
        this.draw();
      },
      choose: (update) => {
        this.choices = { ...this.choices, ...update };
        this.draw();
      },
    };
  }

  /** The page's rows from where it is scrolled to; another page starts at the top. */
  private drawRows(s: ServiceState, rows: readonly string[], t: TFunction): void {
    // Another page (or another slice of the log, another filter, the editor opened) starts at the top.
    const shown = s.page
      ? JSON.stringify([
          s.page.page,
          'offset' in s.page ? s.page.offset : 0,
          s.page.page === 'events' ? s.page.filter : null,
          s.page.page === 'recall' ? s.page.station : null,
          this.choices.edit?.key ?? null,
        ])
      : '';
    if (shown !== this.shownPage) {
      this.shownPage = shown;
      this.rowFrom = 0;
      this.buttonPage = 0;
    }
    this.rowCount = rows.length;
    this.rowFrom = Math.min(this.rowFrom, Math.max(0, rows.length - ROWS));
    this.rows.forEach((row, i) => (row.text = rows[this.rowFrom + i] ?? ''));
    const scrolls = rows.length > ROWS;
    this.rowsUp.visible = this.rowsDown.visible = this.rowsAt.visible = scrolls;
    this.rowsUp.setLabel(t('service.action.rowsUp'));
    this.rowsDown.setLabel(t('service.action.rowsDown'));
    this.rowsUp.setEnabled(this.rowFrom > 0);
    this.rowsDown.setEnabled(this.rowFrom + ROWS < rows.length);
    this.rowsAt.text = scrolls ? t('service.field.rowsOf', { from: this.rowFrom + 1, to: Math.min(rows.length, this.rowFrom + ROWS), total: rows.length }) : '';
  }

  /** The second person's pad over the page while a two-person action waits, or the pad a button asked for. */
  private drawOverlay(s: ServiceState, t: TFunction, pad: Parameters<Keypad['setLabels']>[0]): void {
    const labelled = pad.labelled;
    const confirm = s.confirm ?? null;
    const asking = this.asking;
    this.overlay.visible = confirm !== null || asking !== null;
    this.confirmPad.visible = confirm !== null && asking === null;
    this.numberPad.visible = asking?.kind === 'digits';
    this.refPad.visible = asking?.kind === 'reference';
    this.cardPad.visible = asking?.kind === 'card';
    this.cancel.setLabel(t('service.confirm.cancel'));
    // The reference pad is wider than the digit pads: its cancel sits beside it.
    if (asking?.kind === 'reference') this.cancel.position.set(CONTENT_X + 20 + 1190 + 40, 330 + 100);
    else if (asking?.kind === 'card') this.cancel.position.set(CONTENT_X + 20, 330 + 80 + 2 * 112 + 16);
    else this.cancel.position.set(CONTENT_X + 420, 330 + 200 + 3 * 106);
    if (asking) {
      this.overlayTitle.text = asking.title;
      this.overlayText.text = asking.label;
      this.numberPad.setLabels({ ...pad, staff: asking.label });
      this.refPad.setLabels({
        labelled,
        label: asking.label,
        submit: t('service.signIn.submitValue'),
        clear: pad.clear,
        back: t('service.pad.back'),
        space: t('service.pad.space'),
      });
      this.cardPad.setLabels({ labelled, label: asking.label, submit: t('service.signIn.submitValue') });
    } else if (confirm) {
      const currency = s.session?.currency ?? 'MOP';
      const money = (m: number) => formatMoney(m, currency, s.language);
      this.overlayTitle.text = t('punctuation.joined', {
        first: t('service.confirm.title', { action: t(`service.action.${confirm.action.kind}`) }),
        second: actionSummary(confirm.action, s.page, { money, minorPerUnit: 10 ** minorDigits(currency), t }),
      });
      this.overlayText.text = t('service.confirm.askedBy', { by: confirm.requestedBy });
      this.confirmPad.setLabels(pad);
    }
    // A long action (a configuration change names its values) wraps: the line under it follows.
    this.overlayText.position.y = Math.max(250, this.overlayTitle.y + this.overlayTitle.height + 8);
  }

  /**
   * Buttons are kept by id across snapshots, so a press is never lost to a redraw. Past two rows
   * they are paged: the last place holds "more", which turns to the next page of buttons.
   */
  private layoutButtons(all: PageButton[], t: TFunction): void {
    const room = BUTTONS_PER_ROW * BUTTON_ROWS;
    const per = all.length > room ? room - 1 : room;
    const pages = Math.max(1, Math.ceil(all.length / per));
    if (this.buttonPage >= pages) this.buttonPage = 0;
    const specs = all.slice(this.buttonPage * per, this.buttonPage * per + per);
    this.moreButtons.visible = pages > 1;
    if (pages > 1) {
      this.moreButtons.setLabel(t('service.action.moreActions', { page: this.buttonPage + 1, pages }));
      if (this.moreButtons.parent !== this.actionBar) this.actionBar.addChild(this.moreButtons);
      this.moreButtons.position.set(((room - 1) % BUTTONS_PER_ROW) * 232, Math.floor((room - 1) / BUTTONS_PER_ROW) * 82);
    }
    const keep = new Set(specs.map((b) => b.id));
    for (const [id, entry] of this.actionButtons) {
      if (keep.has(id)) continue;
      entry.button.destroy(DISPOSE);
      this.actionButtons.delete(id);
    }
    specs.forEach((spec, i) => {
      let entry = this.actionButtons.get(spec.id);
      if (!entry) {
        const created = { spec, button: null as unknown as Button };
        created.button = new Button(spec.id, 220, 72, () => created.spec.press());
        this.actionButtons.set(spec.id, created);
        this.actionBar.addChild(created.button);
        entry = created;
      }
      entry.spec = spec;
      entry.button.setLabel(spec.label);
      entry.button.setActive(spec.active ?? false);
      entry.button.position.set((i % BUTTONS_PER_ROW) * 232, Math.floor(i / BUTTONS_PER_ROW) * 82);
    });
  }
}
