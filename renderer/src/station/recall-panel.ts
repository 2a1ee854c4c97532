import type { TFunction } from 'i18next';
import { STADIUM_SEAT, type StationRecallRound, type StationState } from '../../../protocol/index.js';
import type { Rect } from '../felt/felt-layout.js';
import { formatMoney, intlLocale } from '../../../locales/money.js';
import { signedMoney } from '../screens/result-text.js';
import { Button } from '../ui/button.js';
import { TOUCH } from '../ui/theme.js';
import { cardText, Panel } from './panel.js';
import { choicesLine, correctionLine, correctionsOmittedLine, roundsOmittedLine, rulesLine } from './recall-rules.js';
import { replayHands } from './recall-model.js';
import { stakeName } from './station-play.js';
import { streakText } from './streak-text.js';
import { ticketLines } from './recall-tickets.js';

/**
 * Game recall: this station's last rounds (at most 10) from the ledger, one at a time with its
 * cards, bets, results and credit before and after; older/newer to browse, replay to watch it.
 * "Your tickets" shows the station's own last tickets out and in instead (issue 47).
 */
export class RecallPanel extends Panel {
  private index = 0;
  private readonly detail: ReturnType<Panel['block']>;
  private readonly list: ReturnType<Panel['block']>;
  private readonly older: Button;
  private readonly newer: Button;
  private readonly replay: Button;
  private readonly ticketsButton: Button;
  /** The tickets shown in place of a round's detail, until older/newer is pressed. */
  private showTickets = false;
  private state: StationState | null = null;
  private t: TFunction | null = null;

  constructor(area: Rect, onClose: () => void, onReplay: (index: number) => void) {
    super(area, 'recall-close', onClose);
    this.detail = this.block(area.x + 30, area.y + 90, 700, 28);
    this.list = this.block(area.x + 770, area.y + 90, 350, 24);
    const y = area.y + area.height - TOUCH.min - 24;
    this.older = new Button('recall-older', 220, TOUCH.min, () => this.move(1));
    this.newer = new Button('recall-newer', 220, TOUCH.min, () => this.move(-1));
    this.replay = new Button('recall-replay', 220, TOUCH.min, () => onReplay(this.index));
    this.older.position.set(area.x + 30, y);
    this.newer.position.set(area.x + 270, y);
    this.replay.position.set(area.x + 510, y);
    this.ticketsButton = new Button('recall-tickets', 220, TOUCH.min, () => {
      this.showTickets = true;
      this.draw();
    });
    this.ticketsButton.position.set(area.x + 750, y);
    this.addChild(this.older, this.newer, this.replay, this.ticketsButton);
  }

  open(): void {
    this.index = 0;
    this.showTickets = false;
    this.visible = true;
    this.draw();
  }

  update(state: StationState, t: TFunction): void {
    this.state = state;
    this.t = t;
    if (this.visible) this.draw();
  }

  private move(by: number): void {
    const n = this.state?.recall?.length ?? 0;
    this.index = Math.max(0, Math.min(n - 1, this.index + by));
    this.showTickets = false;
    this.draw();
  }

  private draw(): void {
    const s = this.state;
    const t = this.t;
    if (!s || !t) return;
    const rounds = s.recall ?? [];
    this.heading.text = t('recall.title', { count: rounds.length });
    this.closeButton.setLabel(t('recall.close'));
    this.older.setLabel(t('recall.older'));
    this.newer.setLabel(t('recall.newer'));
    this.replay.setLabel(t('replay.open'));
    this.ticketsButton.setLabel(t('recall.tickets'));
    this.older.setEnabled(this.index < rounds.length - 1);
    this.newer.setEnabled(this.index > 0);
    const r = rounds[this.index];
    this.replay.setEnabled(r !== undefined);
    this.detail.text = this.showTickets ? ticketLines(s.tickets, s, t).join('\n') : r ? describe(r, s, t) : t('recall.empty');
    const time = new Intl.DateTimeFormat(intlLocale(s.language), {
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
      hour12: true,
      timeZone: 'Asia/Macau',
    });
    this.list.text = rounds
      .map((x, i) => {
        const net = x.lines.reduce((a, l) => a + l.net, 0);
        return `${i === this.index ? '▶ ' : '   '}${i + 1}. ${time.format(new Date(x.ts))}  ${x.status === 'void' ? t('recall.void') : signedMoney(net, s.currency, s.language)}`;
      })
      .concat(roundsOmittedLine(t, s.recalled) ?? [])
      .join('\n');
  }
}

function describe(r: StationRecallRound, s: StationState, t: TFunction): string {
  const money = (v: number) => formatMoney(v, s.currency, s.language);
  const when = new Intl.DateTimeFormat(intlLocale(s.language), { dateStyle: 'medium', timeStyle: 'medium', hour12: true, timeZone: 'Asia/Macau' }).format(
    new Date(r.ts),
  );
  const lines = [t('recall.round', { id: r.roundId, when })];
  for (const h of replayHands(r, s.seat ?? STADIUM_SEAT, r.cards.length)) {
    const who =
      h.owner === 'dealer' ? t('table.dealer') : h.owner === 'seat' ? (h.hand ? t('desk.hand', { n: h.hand + 1 }) : t('desk.yourHand')) : t(`bet.${h.owner}`);
    lines.push(t('punctuation.labelled', { label: who, value: h.cards.map(cardText).join(' ') }));
  }
  const own = s.seat ?? STADIUM_SEAT;
  for (const b of r.bets) lines.push(t('recall.bet', { bet: stakeName(t, b, own), amount: money(b.amount) }));
  for (const l of r.lines) {
    // A line on another seat's hand names the seat, a split hand its number, a carried streak stake says so.
    const bet = stakeName(t, l, own);
    lines.push(t('recall.line', { bet: l.carried ? t('recall.carried', { bet }) : bet, net: signedMoney(l.net, s.currency, s.language) }));
    // Settled under a non-default choice the regulator authorised (or a reading awaiting it): said, with the reference.
    const choices = choicesLine(t, l);
    if (choices) lines.push(choices);
  }
  if (r.streak) lines.push(t('recall.streak', { before: streakText(t, r.streak.before, s.language), after: streakText(t, r.streak.after, s.language) }));
  for (const c of r.corrections ?? []) lines.push(correctionLine(t, c));
  const omitted = correctionsOmittedLine(t, r);
  if (omitted) lines.push(omitted);
  if (r.status === 'void') lines.push(t('recall.void'));
  // The rule set it was played under: the regulator's reference and its effective day (issue 51).
  const rules = rulesLine(t, r.rules);
  if (rules) lines.push(rules);
  if (r.creditBefore !== undefined && r.creditAfter !== undefined)
    lines.push(t('recall.credit', { before: money(r.creditBefore), after: money(r.creditAfter) }));
  return lines.join('\n');
}
