import type { FloorRow } from './api.js';
import { FloorRow as FloorRowSchema } from './api.js';
import { h } from './dom.js';
import { listWords, type Words } from './i18n.js';
import { faultWords, profileWords } from './codes.js';
import { currencyLabel } from './money.js';

/**
 * The rows of one event of the stream, each read with zod: the ones the page can read, and how
 * many it refused (an event that is no JSON, or no list, is refused whole: one). A row it cannot
 * read costs that row, not the other rows of its update.
 */
export function readRows(data: unknown): { rows: FloorRow[]; refused: number } {
  let list: unknown;
  try {
    list = JSON.parse(String(data));
  } catch {
    return { rows: [], refused: 1 };
  }
  if (!Array.isArray(list)) return { rows: [], refused: 1 };
  const rows: FloorRow[] = [];
  for (const one of list as unknown[]) {
    const r = FloorRowSchema.safeParse(one);
    if (r.success) rows.push(r.data);
  }
  return { rows, refused: list.length - rows.length };
}

/** A state's mark beside its words: the state is read in words and a shape, never by colour alone. */
const MARK: Record<string, string> = { betting: '●', dealing: '▶', results: '■', hold: '⏸', offline: '✖', revoked: '⊘', tilted: '⚠' };

export function stateOf(r: FloorRow): string {
  if (r.state === 'offline' || r.state === 'revoked') return r.state;
  if (r.faults.length > 0) return 'tilted';
  if (r.hold) return 'hold';
  return ['betting', 'dealing', 'results', 'hold'].includes(r.state) ? r.state : 'unknown';
}

/**
 * The floor: one row per table host, kept by terminal id and patched in place when the stream
 * sends its new row (only the cells whose text changed are written). `now` ticks the "seconds
 * ago" of last contact without any message.
 */
export class FloorView {
  readonly element: HTMLElement;
  private readonly body = h('tbody');
  private readonly rows = new Map<string, { tr: HTMLTableRowElement; cells: HTMLTableCellElement[]; row: FloorRow }>();
  private readonly status = h('p', { class: 'live', role: 'status' });
  private readonly count = h('span');
  private source: EventSource | null = null;
  private on = false;
  /** Rows (or whole events) of the stream the page could not read, since it opened. */
  private refused = 0;

  constructor(
    private readonly w: Words,
    private readonly open: (terminalId: string) => void,
    /** The server ended the stream because its session ended (signed out, expired, user disabled). */
    private readonly ended: () => void = () => {},
  ) {
    const t = w.t;
    const head = h(
      'tr',
      {},
      ...[
        t('backoffice.floor.table'),
        t('backoffice.floor.game'),
        t('backoffice.report.col.currency'),
        t('backoffice.floor.profile'),
        t('backoffice.floor.state'),
        t('backoffice.floor.stations'),
        t('backoffice.floor.lastContact'),
        t('backoffice.floor.lag'),
        t('backoffice.floor.alarms'),
      ].map((x) => h('th', { scope: 'col' }, x)),
    );
    this.element = h(
      'section',
      { class: 'floor' },
      h('h1', {}, t('backoffice.floor.title'), ' ', this.count),
      this.status,
      h('table', { class: 'grid', 'data-testid': 'floor' }, h('thead', {}, head), this.body),
    );
  }

  /** Opens the live stream (EventSource reconnects by itself after `retry`). */
  connect(url = '/backoffice/api/floor/events'): void {
    this.source = new EventSource(url, { withCredentials: true });
    this.source.addEventListener('floor', (e) => this.take(e.data, (rows) => this.replace(rows)));
    this.source.addEventListener('rows', (e) => this.take(e.data, (rows) => this.patch(rows)));
    this.source.addEventListener('open', () => this.live(true));
    this.source.addEventListener('error', () => this.live(false));
    // The session is over: no reconnecting (it would be refused), the sign-in form instead.
    this.source.addEventListener('ended', () => {
      this.close();
      this.ended();
    });
  }

  close(): void {
    this.source?.close();
  }

  /**
   * An event's rows, read before they are shown: what cannot be read is refused, counted on the
   * page beside «Live» and in the console, and the rows that can be read are shown (a `floor` event
   * refused whole keeps the rows the page had). Thrown inside the stream's listener, it was lost
   * without a word, the page saying «Live» on rows no longer current.
   */
  private take(data: unknown, show: (rows: FloorRow[]) => void): void {
    const { rows, refused } = readRows(data);
    if (refused > 0) {
      this.refused += refused;
      console.error(`floor: ${refused} row(s) of an update refused (not the API's shape)`);
    }
    if (rows.length > 0 || refused === 0) show(rows);
    this.live(this.on);
  }

  private live(on: boolean): void {
    this.on = on;
    const state = on ? `● ${this.w.t('backoffice.floor.live')}` : `○ ${this.w.t('backoffice.floor.reconnecting')}`;
    this.status.textContent = this.refused > 0 ? `${state} · ⚠ ${this.w.t('backoffice.floor.refused', { n: this.refused })}` : state;
    this.status.dataset.live = String(on);
    if (this.refused > 0) this.status.dataset.refused = String(this.refused);
  }

  replace(rows: FloorRow[]): void {
    this.body.replaceChildren();
    this.rows.clear();
    this.patch(rows);
  }

  patch(rows: FloorRow[]): void {
    for (const r of rows) {
      let kept = this.rows.get(r.terminalId);
      if (!kept) {
        const cells = Array.from({ length: 9 }, () => h('td'));
        const link = h('a', { href: `#/table/${encodeURIComponent(r.terminalId)}` });
        cells[0]?.append(link);
        link.addEventListener('click', (e) => {
          e.preventDefault();
          this.open(r.terminalId);
        });
        const tr = h('tr', { 'data-terminal': r.terminalId }, ...cells);
        kept = { tr, cells, row: r };
        this.rows.set(r.terminalId, kept);
        this.insertSorted(tr, r.terminalId);
      }
      kept.row = r;
      this.fill(kept.tr, kept.cells, r);
    }
    this.count.textContent = this.w.t('backoffice.floor.tables', { n: this.rows.size });
  }

  private insertSorted(tr: HTMLTableRowElement, id: string): void {
    const after = [...this.rows.keys()].sort().find((k) => k > id);
    const before = after ? this.rows.get(after)?.tr : undefined;
    this.body.insertBefore(tr, before ?? null);
  }

  /** The seconds since each table's last contact, from the clock alone (called every second). */
  tick(now: number): void {
    for (const { cells, row } of this.rows.values()) set(cells[6], this.ago(row, now));
  }

  private ago(r: FloorRow, now: number): string {
    const t = this.w.t;
    return r.lastSeenAt === null
      ? t('backoffice.floor.never')
      : t('backoffice.floor.secondsAgo', { seconds: Math.max(0, Math.round((now - Date.parse(r.lastSeenAt)) / 1000)) });
  }

  private fill(tr: HTMLTableRowElement, c: HTMLTableCellElement[], r: FloorRow): void {
    const t = this.w.t;
    const state = stateOf(r);
    tr.dataset.state = state;
    // The last settled round and when the table journalled it: what a round changes on the row.
    tr.dataset.lastRound = r.lastRound?.roundId ?? '';
    tr.dataset.roundAt = r.lastRound?.at ?? '';
    tr.dataset.alarms = r.unacknowledged > 0 ? 'unacknowledged' : r.openAlarms > 0 ? 'open' : 'none';
    set(c[0]?.firstElementChild ?? undefined, r.tableId ? `${r.tableId} (${r.terminalId})` : r.terminalId);
    set(c[1], r.game ? gameName(t, r.game) : '—');
    // The table's own currency (its heartbeat's ISO 4217 code): every amount of it is in this.
    set(c[2], currencyLabel(r.currency));
    set(c[3], r.profile ? profileWords(t, r.profile) : '—');
    const stateWords = `${MARK[state] ?? '?'} ${stateWord(t, state)}${
      r.faults.length
        ? ` — ${listWords(
            this.w.language,
            r.faults.map((f) => faultWords(t, f)),
          )}`
        : ''
    }`;
    // An approved change the table has yet to make: a supervisor expects the limits to move at the next shoe.
    set(c[4], r.configWaiting > 0 ? `${stateWords} · ⚙ ${t('backoffice.floor.configWaiting', { n: r.configWaiting })}` : stateWords);
    tr.dataset.config = r.configWaiting > 0 ? 'waiting' : 'none';
    set(c[5], t('backoffice.floor.stationsValue', { occupied: r.occupied, stations: r.stations }));
    set(c[6], this.ago(r, Date.now()));
    set(c[7], r.lagEntries === null ? '—' : t('backoffice.floor.lagValue', { entries: r.lagEntries, seconds: r.lagSeconds ?? 0 }));
    set(
      c[8],
      r.openAlarms === 0 ? t('backoffice.floor.none') : `⚠ ${t('backoffice.floor.alarmsValue', { open: r.openAlarms, unacknowledged: r.unacknowledged })}`,
    );
  }
}

function set(el: Element | undefined, text: string): void {
  if (el && el.textContent !== text) el.textContent = text;
}

export function stateWord(t: Words['t'], state: string): string {
  switch (state) {
    case 'betting':
      return t('backoffice.state.betting');
    case 'dealing':
      return t('backoffice.state.dealing');
    case 'results':
      return t('backoffice.state.results');
    case 'hold':
      return t('backoffice.state.hold');
    case 'offline':
      return t('backoffice.state.offline');
    case 'revoked':
      return t('backoffice.state.revoked');
    case 'tilted':
      return t('backoffice.state.tilted');
    default:
      return t('backoffice.state.unknown');
  }
}

export function gameName(t: Words['t'], game: string): string {
  switch (game) {
    case 'blackjack':
      return t('game.blackjack');
    case 'baccarat':
      return t('game.baccarat');
    case 'war':
      return t('game.war');
    default:
      return game;
  }
}
