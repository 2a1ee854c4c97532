import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeviceRow, ServiceAction, ServiceState } from '../../../../protocol/index.js';
import { createI18n } from '../../../../locales/i18n.js';
import { formatMoney } from '../../../../locales/money.js';
import { catalogues } from '../../../../locales/index.js';
import { pageContent } from './page-content.js';
import { actionSummary } from './pages/action-summary.js';
import { INITIAL_CHOICES, type AskRequest, type PageActions } from './pages/choices.js';
import { configKeyLabel } from './pages/config-labels.js';
import { decisionsLine } from './pages/decisions-line.js';
import { wrapRow } from './pages/rows.js';
import { NO_ACTIONS } from './pages/page-test-kit.js';

const none = NO_ACTIONS;
const row = (over: Partial<DeviceRow>): DeviceRow => ({
  device: 'BA-2',
  kind: 'bill-acceptor',
  station: 2,
  spec: 'sim',
  state: 'ready',
  lastEvent: 'idle',
  enabled: true,
  ...over,
});

describe('service Devices page', () => {
  it("tells a technician's disable from a fault that stops the acceptor, in each language", async () => {
    for (const language of ['en', 'pt', 'zh-Hant'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const devices = [
        row({ device: 'BA-1', station: 1 }),
        row({ enabled: false, inhibitedBy: ['service-disable', 'tilt:bill-jam'] }),
        row({ device: 'BA-3', station: 3, inhibitedBy: ['tilt:bill-jam'] }),
      ];
      const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language, signedIn: true } as ServiceState;
      const wrapped = pageContent(state, { page: 'devices', device: 'BA-1', devices, trace: [], frames: [] }, t, INITIAL_CHOICES, none).rows;
      // A long device row wraps: its continuation rows are indented under it.
      const rows: string[] = [];
      for (const r of wrapped)
        if (r.startsWith(' ') && rows.length > 0) rows[rows.length - 1] += r;
        else rows.push(r);
      const disabled = t('service.field.disabledByService');
      const stopped = t('service.field.inhibitedByFault', { faults: t('tilt.bill-jam') });
      assert.ok(!rows[0]?.includes(disabled) && !rows[0]?.includes(stopped), `${language}: ${rows[0]}`);
      assert.ok(rows[1]?.includes(disabled) && rows[1].includes(stopped), `${language}: ${rows[1]}`);
      assert.ok(!rows[2]?.includes(disabled) && rows[2]?.includes(stopped), `${language}: ${rows[2]}`);
    }
  });
});

describe('service Devices page: notes held for a person', () => {
  it('lists each held note in the screen’s words with its two settlements, which name its escrow entry', () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const acts: unknown[] = [];
      const session = { role: 'technician', name: 'Bo Chan', staff: '1002' };
      const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language, signedIn: true, session } as unknown as ServiceState;
      const notesHeld = [{ station: 3, seq: 41, amount: 50_000, since: '2026-12-05T04:00:00.000Z', twoPerson: false }];
      const page = { page: 'devices' as const, device: 'BA-1', devices: [row({ device: 'BA-1', station: 1 })], trace: [], frames: [], notesHeld };
      const out = pageContent(state, page, t, INITIAL_CHOICES, { ...none, act: (a) => void acts.push(a) });
      const text = out.rows.join('\n');
      assert.ok(text.includes(t('service.notesHeld.title')), `${language}: ${text}`);
      const stacked = out.buttons.find((b) => b.id === 'note-stacked-41');
      const returned = out.buttons.find((b) => b.id === 'note-returned-41');
      assert.ok(stacked && returned, `${language}: ${out.buttons.map((b) => b.id).join(' ')}`);
      stacked.press();
      returned.press();
      assert.deepEqual(acts, [
        { kind: 'note-settle', station: 3, seq: 41, outcome: 'stacked' },
        { kind: 'note-settle', station: 3, seq: 41, outcome: 'returned' },
      ]);
      const without = pageContent(state, { ...page, notesHeld: undefined }, t, INITIAL_CHOICES, none);
      assert.ok(!without.rows.join('\n').includes(t('service.notesHeld.title')), 'nothing held: no heading');
    }
  });
});

describe('service Devices and Sync rows: codes said in words', () => {
  it("say each device's link, the shoe's open lid and the sync's state in the screen's language, never the host's code", () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language, signedIn: true } as ServiceState;
      const devices = [
        row({ device: 'BA-1', station: 1, state: 'disconnected' }),
        { ...row({ device: 'shoe', kind: 'shoe', state: 'alarm', lidOpen: true }), station: undefined, switchable: false } as DeviceRow,
      ];
      const text = pageContent(state, { page: 'devices', device: 'shoe', devices, trace: [], frames: [] }, t, INITIAL_CHOICES, none).rows.join('\n');
      for (const words of [t('service.deviceState.disconnected'), t('service.deviceState.alarm'), t('service.field.lidOpen')])
        assert.ok(text.includes(words), `${language}: "${words}" in ${text}`);
      const sync = {
        page: 'sync' as const,
        sync: {
          state: 'backoff' as const,
          upstream: 'https://upstream.example',
          ackedSeq: 1,
          headSeq: 3,
          lagEntries: 2,
          lagSeconds: 9,
          lastError: null,
          lastErrorAt: null,
          lastSuccessAt: null,
        },
      };
      const syncText = pageContent(state, sync, t, INITIAL_CHOICES, none).rows.join('\n');
      assert.ok(syncText.includes(t('service.syncState.backoff')), `${language}: ${syncText}`);
      if (language === 'en') continue;
      assert.doesNotMatch(text, /\b(disconnected|alarm|lid open)\b/, `${language}: ${text}`);
      assert.doesNotMatch(syncText, /backoff/, `${language}: ${syncText}`);
    }
  });
});

describe('service Configuration page', () => {
  it("a supervisor edits the limits, types the regulator's reference, and the change is asked for with both", async () => {
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n);
    const state = {
      kind: 'service',
      tableId: 'T',
      softwareVersion: '1',
      language: 'en',
      signedIn: true,
      session: { name: 'Ana', staff: '1001', role: 'supervisor', currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) },
    } as ServiceState;
    const page = {
      page: 'config' as const,
      items: [
        { key: 'game', value: 'blackjack', editable: false },
        { key: 'limits', value: '{"min":10000,"max":1000000}', editable: true },
        { key: 'handpayTwoPersonAbove', value: '5000000', editable: true },
      ],
      notes: [10, 20, 50, 100, 500, 1000],
      bets: ['main'],
      queued: [{ seq: 40, key: 'limits', after: '{"min":20000,"max":1000000}' }],
      changes: [
        {
          seq: 40,
          ts: '2026-01-01T10:00:00.000Z',
          key: 'limits',
          before: '{"min":10000,"max":1000000}',
          after: '{"min":20000,"max":1000000}',
          who: 'Ana (1001)',
          witness: 'Bo (1002)',
          authorisation: 'DICJ-2026/1',
        },
      ],
    };
    let choices = INITIAL_CHOICES;
    const asked: AskRequest[] = [];
    const acted: ServiceAction[] = [];
    const actions: PageActions = {
      ...none,
      choose: (u) => void (choices = { ...choices, ...u }),
      ask: (r) => void asked.push(r),
      act: (x) => void acted.push(x),
    };
    const press = (id: string) => {
      const b = pageContent(state, page, t, choices, actions).buttons.find((x) => x.id === id);
      assert.ok(b, `no button ${id}`);
      b.press();
    };
    const { rows } = pageContent(state, page, t, choices, actions);
    assert.ok(
      rows.some((r) => r.includes(`Two-person handpay above = ${formatMoney(5_000_000, 'MOP', 'en')}`)),
      rows.join('\n'),
    );
    assert.ok(
      rows.some((r) => r.startsWith('Journalled; takes effect')),
      'the queued change is shown',
    );
    const text = rows.join(' ').replace(/\s+/g, ' ');
    assert.match(
      text,
      /#40 2026-01-01 10:00:00 Table limits: min \S+ – max \S+ → min \S+ – max \S+ · Ana \(1001\) \/ Bo \(1002\) · DICJ-2026\/1/,
      'the journalled change with before and after',
    );
    press('edit-limits');
    assert.equal(choices.edit?.key, 'limits');
    press('field-max');
    assert.equal(asked[0]?.kind, 'digits');
    asked[0]?.then('20000');
    assert.equal(choices.edit?.fields.max, 2_000_000);
    assert.ok(
      pageContent(state, page, t, choices, actions).rows.some((r) =>
        r.includes(`New: min ${formatMoney(10_000, 'MOP', 'en')} – max ${formatMoney(2_000_000, 'MOP', 'en')}`),
      ),
    );
    press('config-authorise');
    assert.equal(asked[1]?.kind, 'reference');
    asked[1]?.then('DICJ-2026/123');
    assert.deepEqual(acted, [{ kind: 'config-change', key: 'limits', value: '{"min":10000,"max":2000000}', authorisation: 'DICJ-2026/123' }]);
    assert.equal(choices.edit, null, 'the editor closes once the change is asked for');
    // A technician sees the values and cannot edit.
    const tech = { ...state, session: { ...state.session!, role: 'technician' as const } };
    assert.ok(!pageContent(tech, page, t, INITIAL_CHOICES, actions).buttons.some((b) => b.id.startsWith('edit-')));
  });
});

describe('service pages cut nothing', () => {
  const state = (role: 'technician' | 'auditor' = 'technician') =>
    ({
      kind: 'service',
      tableId: 'T',
      softwareVersion: '1',
      language: 'en',
      signedIn: true,
      session: { name: 'Bo', staff: '1002', role, currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) },
    }) as ServiceState;

  it('lists every fault, each row and its clear button naming the station', async () => {
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n);
    const tilts = [1, 2, 3, 4, 5, 6].map((station) => ({
      kind: 'bill-jam' as const,
      severity: 'warning' as const,
      clearedBy: 'attendant' as const,
      station,
      clearable: true,
    }));
    const page = {
      page: 'status' as const,
      table: { game: 'blackjack' as const, profile: 'macau-2009', phase: 'betting' as const, roundId: 'R', hold: null, newBets: true },
      tilts: [...tilts, { kind: 'shoe-lost' as const, severity: 'critical' as const, clearedBy: 'auto' as const, clearable: false }],
      devices: [],
      sync: null,
      softwareVersion: '1',
      programHash: { atStart: 'a'.repeat(64), latest: null, latestAt: null },
    };
    const { rows, buttons } = pageContent(state(), page, t, INITIAL_CHOICES, none);
    for (const station of [1, 2, 3, 4, 5, 6]) {
      assert.equal(
        rows.filter((r) => r.includes(`Station ${station} · `) && r.includes(t('tilt.bill-jam'))).length,
        1,
        `station ${station}: ${rows.join('\n')}`,
      );
      assert.equal(buttons.find((b) => b.id === `act-clear-tilt-bill-jam${station}`)?.label, `Clear: station ${station} ${t('tilt.bill-jam')}`);
    }
    assert.ok(rows.some((r) => r.includes(`Table · `) && r.includes(t('tilt.shoe-lost'))));
    assert.equal(new Set(buttons.map((b) => b.label)).size, buttons.length, 'no two buttons read alike');
  });

  it('tells the technician a new seating waits for the round in play, and which stations it moves, in each language', () => {
    for (const language of ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const table = { game: 'blackjack' as const, profile: 'macau-2009', phase: 'dealing' as const, roundId: 'R', hold: null, newBets: false };
      const page = (seatsNext?: { station: number; seat: number }[]) => ({
        page: 'status' as const,
        table: { ...table, ...(seatsNext ? { seatsNext } : {}) },
        tilts: [],
        devices: [],
        sync: null,
        softwareVersion: '1',
        programHash: { atStart: 'a'.repeat(64), latest: null, latestAt: null },
      });
      const headline = t('service.field.seatsNext');
      assert.notEqual(headline, 'service.field.seatsNext', `${language}: worded`);
      const waiting = pageContent(
        state(),
        page([
          { station: 1, seat: 2 },
          { station: 2, seat: 1 },
        ]),
        t,
        INITIAL_CHOICES,
        none,
      ).rows;
      assert.ok(
        waiting.some((r) => r.includes(headline.slice(0, 10))),
        `${language}: ${waiting.join('\n')}`,
      );
      assert.ok(waiting.includes('  ' + t('service.field.seatMove', { station: 1, seat: 2 })), `${language}: station 1's new seat`);
      assert.ok(waiting.includes('  ' + t('service.field.seatMove', { station: 2, seat: 1 })), `${language}: station 2's new seat`);
      assert.ok(t('service.field.seatMove', { station: 7, seat: 3 }).includes('7') && t('service.field.seatMove', { station: 7, seat: 3 }).includes('3'));
      const none_ = pageContent(state(), page(), t, INITIAL_CHOICES, none).rows;
      assert.ok(!none_.some((r) => r.includes(headline.slice(0, 10))), `${language}: nothing said when nothing waits`);
    }
  });

  it('game recall lists every bet and settlement line of a round; long lines wrap instead of being cut', async () => {
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n);
    const round = {
      roundId: 'R-9',
      status: 'settled' as const,
      seq: 9,
      ts: '2026-01-01T00:00:00.000Z',
      game: 'blackjack',
      profile: 'macau-2009',
      cards: Array.from({ length: 40 }, (_, i) => ({ card: 'AS', to: `seat:${(i % 7) + 1}` })),
      decisions: [],
      bets: Array.from({ length: 7 }, (_, i) => ({ station: i + 1, seat: i + 1, bet: 'main', amount: 10_000 })),
      lines: Array.from({ length: 7 }, (_, i) => ({ station: i + 1, seat: i + 1, bet: 'main', stake: 10_000, net: 10_000, rule: 'macau-2009 art.10' })),
    };
    const { rows } = pageContent(state('auditor'), { page: 'recall', station: null, offset: 0, more: false, rounds: [round] }, t, INITIAL_CHOICES, none);
    assert.equal(rows.filter((r) => r.includes('Bet: station')).length, 7);
    // Bets and card places in words, not as the journal writes them (`main`, `seat:1`).
    assert.ok(
      rows.some((r) => r.includes('Bet: station 1 seat 1 Bet ')),
      rows.join('\n'),
    );
    assert.ok(!rows.join(' ').includes('seat:'), 'no card place as the journal writes it');
    assert.equal(rows.filter((r) => r.includes('Settled: seat')).length, 7);
    assert.equal(rows.join(' ').match(/AS→seat/g)?.length, 40, 'every card, over as many rows as it takes');
  });
});

describe('service recall decisions', () => {
  it("are worded as the stations word them, in the screen's language, a timeout marked", async () => {
    const decisions = [
      { seat: 1, action: 'double' },
      { seat: 2, action: 'stand', auto: true },
      { seat: 3, action: 'follow-split' },
    ];
    const zh = createI18n('zh-Hant');
    assert.equal(decisionsLine(zh.t.bind(zh), { decisions }), zh.t('service.field.decisions', { decisions: '1:加注 2:不博牌* 3:跟隨分門' }));
    const pt = createI18n('pt');
    assert.ok(
      decisionsLine(pt.t.bind(pt), { actionWords: { surrender: 'action.warSurrender' }, decisions: [{ seat: 4, action: 'surrender' }] }).includes(
        '4:Perder metade',
      ),
      "war's surrender is the half-bet one",
    );
  });
});

describe('service Holds page', () => {
  const state = () =>
    ({
      kind: 'service',
      tableId: 'T',
      softwareVersion: '1',
      language: 'en',
      signedIn: true,
      session: { name: 'Ana', staff: '1001', role: 'supervisor', currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) },
    }) as ServiceState;
  it('words the hold and lists its shoe sequence and every read during it, saying a void is the way out', async () => {
    for (const language of ['en', 'pt', 'zh-Hant'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const table = {
        game: 'blackjack' as const,
        profile: 'macau-2009',
        phase: 'dealing' as const,
        roundId: 'R-1',
        hold: 'unreadable' as const,
        newBets: false,
        holdReads: { shoeSequence: 41, reads: [{ card: '7H', shoeSequence: 42 }, { shoeSequence: 43 }] },
      };
      const { rows } = pageContent(state(), { page: 'holds', table, closed: false }, t, INITIAL_CHOICES, none);
      const text = rows.join('\n');
      assert.ok(text.includes(t('hold.unreadable')), `${language}: the hold in words`);
      assert.ok(!text.includes(': unreadable\n'), 'never the raw reason');
      assert.ok(text.includes(t('service.field.holdSequence', { seq: 41 })));
      assert.ok(text.includes(t('service.field.holdRead', { card: '7H', seq: 42 })));
      assert.ok(text.includes(t('service.field.holdRead', { card: t('service.field.unreadableCard'), seq: 43 })));
      assert.ok(rows.some((r) => r.includes(t('service.field.holdReadsVoid').slice(0, 12))));
    }
  });
});

describe('wrapRow', () => {
  it('splits at spaces, indents what follows, counts Chinese characters double', () => {
    const rows = wrapRow('  ' + 'word '.repeat(60), 40);
    assert.ok(rows.length > 1 && rows.every((r) => r.length <= 40));
    assert.ok(rows.slice(1).every((r) => r.startsWith('      ')));
    assert.equal(rows.join(' ').match(/word/g)?.length, 60);
    const zh = wrapRow('計'.repeat(50), 40);
    assert.equal(zh[0], '計'.repeat(20));
    assert.equal(zh.join('').replace(/ /g, '').length, 50);
  });

  it('never starts a row with a closing mark nor ends one with an opening mark (Chinese line breaking)', () => {
    // The cut would fall right before the comma, and right after the opening bracket.
    const comma = wrapRow('計'.repeat(20) + '，已批准' + '計'.repeat(30), 40);
    assert.ok(
      comma.slice(1).every((r) => !/^\s*[，。、；：？！）」』】》]/.test(r)),
      comma.join('|'),
    );
    assert.equal(comma.join('').replace(/ /g, ''), '計'.repeat(20) + '，已批准' + '計'.repeat(30));
    const bracket = wrapRow('計'.repeat(19) + '「已批准」' + '計'.repeat(30), 40);
    assert.ok(
      bracket.every((r) => !/[（「『【《]$/.test(r)),
      bracket.join('|'),
    );
    for (const text of [comma, bracket]) assert.ok(text.every((r) => [...r].reduce((n, ch) => n + (/[\u2e80-\u9fff\uff00-\uffef]/.test(ch) ? 2 : 1), 0) <= 40));
    // A row of nothing but closing marks is still cut (never an endless loop).
    assert.equal(wrapRow('，'.repeat(50), 40).join('').replace(/ /g, '').length, 50);
  });
});

describe('service Meters page', () => {
  it('names every meter of every station in the language, money in the currency, counts as counts', async () => {
    for (const language of ['en', 'pt', 'zh-Hant'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const money = (m: number) => formatMoney(m, 'MOP', language);
      const scopes = ['table', ...[1, 2, 3, 4, 5, 6, 7].map((n) => `station:${n}`)].map((scope) => ({
        scope,
        meters: [
          { name: 'billsIn.50000', unit: 'count' as const, value: 3 },
          { name: 'totalIn', unit: 'money' as const, value: 150_000 },
          { name: 'gamesPlayed', unit: 'count' as const, value: 1234 },
        ],
      }));
      const state = {
        kind: 'service',
        tableId: 'T',
        softwareVersion: '1',
        language,
        signedIn: true,
        session: { name: 'Cy', staff: '1003', role: 'auditor', currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) },
      } as ServiceState;
      const all = pageContent(
        state,
        { page: 'meters', currency: 'MOP', notes: [10, 20, 50, 100, 500, 1000], offset: 0, more: false, scopes },
        t,
        { ...INITIAL_CHOICES, meterScope: 'all' },
        none,
      );
      const text = all.rows.join('\n');
      assert.ok(text.includes(t('service.field.atStation', { station: 7 })), `${language}: station 7 is listed`);
      assert.ok(text.includes(t('service.field.meterRow', { name: t('service.meter.totalIn'), value: money(150_000) })), `${language}: ${text}`);
      assert.ok(text.includes(t('service.meter.billsIn', { note: money(50_000) })), language);
      assert.ok(!/totalIn|=\d|150000/.test(text), `${language}: no raw names or minor units: ${text}`);
      const oneStation = pageContent(
        state,
        { page: 'meters', currency: 'MOP', notes: [10, 20, 50, 100, 500, 1000], offset: 0, more: false, scopes },
        t,
        { ...INITIAL_CHOICES, meterScope: 'station:7' },
        none,
      );
      assert.equal(oneStation.rows.filter((r) => r.startsWith('  ')).length, 3, "the chosen station's meters only");
      assert.ok(oneStation.buttons.some((b) => b.id === 'meters-station-7' && b.active));
      assert.ok(['export-csv', 'export-json', 'export-print'].every((id) => oneStation.buttons.some((b) => b.id === id)));
    }
  });

  it("turns to a stadium table's remote stations' meters, and shows every scope of the page turned to", () => {
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n);
    const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language: 'en', signedIn: true } as ServiceState;
    const opened: unknown[] = [];
    const chosen: unknown[] = [];
    const actions: PageActions = { ...none, open: (page, extra) => opened.push([page, extra]), choose: (c) => chosen.push(c) };
    const scopes = [101, 102].map((n) => ({ scope: `station:${n}`, meters: [{ name: 'totalIn', unit: 'money' as const, value: 1 }] }));
    const page = { page: 'meters' as const, currency: 'MOP', notes: [100], offset: 8, more: true, scopes };
    const { buttons } = pageContent(state, page, t, { ...INITIAL_CHOICES, meterScope: 'station:3' }, actions);
    const press = (id: string) => buttons.find((b) => b.id === id)?.press();
    press('page-next');
    press('page-prev');
    assert.deepEqual(opened, [
      ['meters', { offset: 16 }],
      ['meters', { offset: 0 }],
    ]);
    assert.deepEqual(chosen, [{ meterScope: 'all' }, { meterScope: 'all' }], 'a page turned shows all its scopes');
    const first = pageContent(state, { ...page, offset: 0, more: false }, t, INITIAL_CHOICES, actions);
    assert.ok(!first.buttons.some((b) => b.id.startsWith('page-')), 'a table whose scopes fit one page shows no page buttons');
  });
});

describe('service Status page faults', () => {
  it('say their severity, who clears them and how, in each language, with nothing left untranslated', async () => {
    for (const language of ['en', 'pt', 'zh-Hant'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = {
        kind: 'service',
        tableId: 'T',
        softwareVersion: '1',
        language,
        signedIn: true,
        session: { name: 'Bo', staff: '1002', role: 'technician', currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) },
      } as ServiceState;
      const page = {
        page: 'status' as const,
        table: { game: 'blackjack' as const, profile: 'macau-2009', phase: 'betting' as const, roundId: 'R', hold: null, newBets: true },
        tilts: [
          {
            kind: 'bill-jam' as const,
            severity: 'warning' as const,
            clearedBy: 'attendant' as const,
            station: 3,
            clearable: false,
            detail: { key: 'tiltDetail.billJamNote', values: { where: 'stacker', denomination: 500, currency: 'MOP' } },
          },
          { kind: 'shoe-lost' as const, severity: 'critical' as const, clearedBy: 'auto' as const },
        ],
        devices: [],
        sync: null,
        softwareVersion: '1',
        programHash: { atStart: 'a'.repeat(64), latest: null, latestAt: null },
      };
      const text = pageContent(state, page, t, INITIAL_CHOICES, none).rows.join(' ').replace(/\s+/g, ' ');
      for (const part of [
        t('service.severity.warning'),
        t('service.severity.critical'),
        t('tiltClears.attendant'),
        t('tiltClears.auto'),
        t('service.tiltHow.bill-jam'),
        t('service.tiltHow.shoe-lost'),
        // The fault's detail, its place by its noun.
        t('tiltDetail.billJamNote', { where: t('jamPlace.stacker'), denomination: 500, currency: 'MOP' }),
      ]) {
        assert.ok(text.includes(part), `${language}: "${part}" in ${text}`);
      }
      assert.ok(!/\b(attendant|warning|critical|service\.field)\b/.test(language === 'en' ? '' : text), `${language}: ${text}`);
      // The rule profile by its regulation's name, never its code.
      assert.ok(text.includes(t('backoffice.profile.macau-2009')), `${language}: ${text}`);
      assert.doesNotMatch(text, /macau-2009/, `${language}: ${text}`);
      if (language !== 'en') assert.doesNotMatch(text, /stacker|tiltDetail/, `${language}: ${text}`);
    }
  });
});

describe('service event log: the entries met most, in words', () => {
  // Only a note, a cancel and a handpay were said in words; a sign-in, a ticket returned or voided,
  // stakes and a start were their payload's JSON, codes (`supervisor`, `expired`) and all.
  it("says a sign-in, a session's end, a ticket voided or returned, stakes, a start and a service act by their fields, codes in the screen's words", () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language, signedIn: true } as ServiceState;
      const at = (seq: number, type: string, said: { key: string; values: Record<string, string | number> }) => ({
        seq,
        ts: '2026-01-01T10:00:00.000Z',
        type,
        severity: 'info' as const,
        summary: '{}',
        said,
      });
      const entries = [
        at(1, 'service.enter', { key: 'journalSaid.serviceEnter', values: { who: 'Ana Lei', role: 'supervisor' } }),
        at(2, 'service.exit', { key: 'journalSaid.serviceExit', values: { who: 'Ana Lei', exitReason: 'power-loss' } }),
        at(3, 'ticket.void', { key: 'journalSaid.ticketVoid', values: { station: 1, ticket: '…4321', ticketVoid: 'not-ready' } }),
        at(4, 'ticket.redeem.returned', { key: 'journalSaid.ticketReturned', values: { station: 2, ticket: '…4321', ticketReturn: 'expired' } }),
        at(5, 'ticket.issue', { key: 'journalSaid.ticketAmount', values: { station: 1, ticket: '…4321', amount: 30_000, currency: 'HKD' } }),
        at(6, 'bet.place', { key: 'journalSaid.stakes', values: { station: 1, round: 'R-9', amount: 2_500 } }),
        at(7, 'power.reset', { key: 'journalSaid.startedUnclean', values: { version: '3.1.0' } }),
        at(8, 'service.action', {
          key: 'journalSaid.serviceActTwoDetail',
          values: { who: 'Ana Lei', second: 'Bo Chan', serviceAct: 'void-round', detail: 'R-1' },
        }),
        at(9, 'card.read', { key: 'journalSaid.cardRead', values: { card: 'AS', cardPlace: 'seat:3:hand:1', round: 'R-1' } }),
        at(10, 'round.settle', { key: 'journalSaid.roundSettled', values: { round: 'R-1', game: 'blackjack', profile: 'macau-2009' } }),
        at(11, 'round.void', { key: 'journalSaid.roundVoidWhy', values: { round: 'R-2', uncorrectable: 'device-fault', reason: 'x' } }),
        at(12, 'round.decision', { key: 'journalSaid.decisionAuto', values: { seat: 2, decision: 'take-five-card-half', round: 'R-3' } }),
        at(13, 'config.change', {
          key: 'journalSaid.configChangeTwo',
          values: { configKey: 'handpayTwoPersonAbove', who: 'Ana', second: 'Bo', authorisation: 'D/1' },
        }),
        at(14, 'config.change', { key: 'journalSaid.configChange', values: { configKey: 'rules.fiveCardHalfPay', who: 'Ana', authorisation: 'D/2' } }),
        at(15, 'cashbox.drop', {
          key: 'journalSaid.cashboxDrop',
          values: { station: 4, counted: 20_000, credited: 30_000, difference: -10_000, currency: 'HKD' },
        }),
      ];
      const text = pageContent(state, { page: 'events', offset: 0, more: false, filter: {}, entries }, t, INITIAL_CHOICES, none)
        .rows.join('\n')
        .replace(/\n\s+/g, ' ');
      for (const words of [
        t('service.role.supervisor'),
        t('service.exitReason.power-loss'),
        t('service.tickets.voidReason.not-ready'),
        t('service.tickets.reason.expired'),
        // A ticket's amount in the ticket's currency, whatever the session's.
        formatMoney(30_000, 'HKD', language),
        formatMoney(2_500, 'MOP', language),
        '3.1.0',
        // A service act by its words, the host's English detail labelled as the journal's record.
        t('service.journalAct.void-round'),
        // Where a card went, the game and profile, why a round could not be corrected: in words.
        t('cardPlace.seatHand', { seat: 3, hand: 2 }),
        t('game.blackjack'),
        t('backoffice.profile.macau-2009'),
        t('service.uncorrectable.device-fault'),
        // A decision by its words; a setting by its name, a rule option by its own.
        t('action.take-five-card-half'),
        t('service.configKey.handpayTwoPersonAbove'),
        t('ruleChoice.option.fiveCardHalfPay'),
        // A drop count in the count's currency, its difference below zero as such.
        formatMoney(-10_000, 'HKD', language),
        formatMoney(30_000, 'HKD', language),
        'Bo Chan',
        'R-1',
      ])
        assert.ok(text.includes(words), `${language}: ${words} in ${text}`);
      assert.doesNotMatch(
        text,
        /supervisor|power-loss|not-ready|void-round|seat:3|macau-2009|device-fault|take-five|handpayTwo|fiveCard|journalSaid|\{\}|\{\{/,
        `${language}: ${text}`,
      );
    }
  });
});

describe('service event log: each entry one row that fits the screen', () => {
  // The rows were cut at 132 characters, a Chinese character counted as one: a zh-Hant entry of
  // 60 characters ran past the row's width (about 66 of them) under the scroll buttons and off
  // the screen. The program hash's record (its hash and up to 380 characters of file names) is
  // one such row: it is cut to the row, marked, its files on the Status page.
  it('in every language a row is no wider than the screen holds, Chinese characters counted double', () => {
    const width = (r: string) => [...r].reduce((n, ch) => n + (/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 2 : 1), 0);
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language, signedIn: true } as ServiceState;
      const at = (seq: number, said: { key: string; values: Record<string, string | number> }) => ({
        seq,
        ts: '2026-01-01T10:00:00.000Z',
        type: 'service.action',
        severity: 'info' as const,
        summary: '{}',
        said,
      });
      const names = Array.from({ length: 30 }, (_, i) => `dist/host/file-${i}.js`).join(', ');
      const entries = [
        at(1, { key: 'journalSaid.actEnrolmentRefusedNoFile', values: { station: 5, session: 3 } }),
        at(2, {
          key: 'journalSaid.actProgramHashDiffers',
          values: { hash: 'a'.repeat(64), files: 412, mode: 'asar', differing: 30, changed: names.slice(0, 380) },
        }),
        at(3, {
          key: 'journalSaid.handpayConfirm',
          values: { station: 3, amount: 12_345_600, currency: 'MOP', attendant: '陳大文 (1001)', witness: '李小明 (1002)' },
        }),
      ];
      const rows = pageContent(state, { page: 'events', offset: 0, more: false, filter: {}, entries }, t, INITIAL_CHOICES, none).rows;
      for (const r of rows) assert.ok(width(r) <= 132, `${language}: ${width(r)} wide: ${r}`);
      // Cut rows are marked as cut.
      assert.ok(
        rows.some((r) => r.startsWith('#2 ') && r.endsWith('…')),
        `${language}: ${rows.join('\n')}`,
      );
    }
  });
});

describe('service event log: a fault raised', () => {
  it("is said in the screen's words, where, what and its detail, instead of its payload; any other entry as its payload", () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language, signedIn: true } as ServiceState;
      const entries = [
        {
          seq: 7,
          ts: '2026-01-01T10:00:00.000Z',
          type: 'tilt.raise',
          severity: 'critical' as const,
          summary: '{"detail":"closed in service mode by Ana","kind":"table-closed","say":{}}',
          fault: { kind: 'table-closed' as const, detail: { key: 'tiltDetail.tableClosed', values: { who: 'Ana Lei (1001)' } } },
        },
        {
          seq: 8,
          ts: '2026-01-01T10:00:01.000Z',
          type: 'tilt.raise',
          severity: 'warning' as const,
          summary: '{}',
          fault: { kind: 'bill-jam' as const, station: 2 },
        },
        { seq: 9, ts: '2026-01-01T10:00:02.000Z', type: 'service.action', severity: 'info' as const, summary: '{"action":"sync-retry"}' },
        {
          seq: 10,
          ts: '2026-01-01T10:00:03.000Z',
          type: 'handpay.request',
          severity: 'info' as const,
          summary: '{"amount":900000,"reason":"win-limit","station":4}',
          said: { key: 'journalSaid.handpayWinLimit', values: { station: 4, amount: 900_000 } },
        },
      ];
      const rows = pageContent(state, { page: 'events', offset: 0, more: false, filter: {}, entries }, t, INITIAL_CHOICES, none).rows.join('\n');
      assert.ok(rows.includes(t('tiltDetail.tableClosed', { who: 'Ana Lei (1001)' })), `${language}: ${rows}`);
      assert.ok(rows.includes(t('tilt.table-closed')), `${language}: ${rows}`);
      assert.ok(rows.includes(t('service.field.atStation', { station: 2 })), `${language}: ${rows}`);
      assert.doesNotMatch(rows, /closed in service mode by Ana"/, `${language}: the payload of a fault not shown`);
      // Another entry as its payload, said to be as recorded.
      assert.ok(
        rows.includes(t('service.field.eventAsRecorded', { summary: '{"action":"sync-retry"}' })) && rows.includes('sync-retry'),
        `${language}: ${rows}`,
      );
      // A handpay by its fields in words, its amount in the session's currency (MOP without a session), not its payload.
      assert.ok(rows.includes(t('journalSaid.handpayWinLimit', { station: 4, amount: 900_000, currency: 'MOP' })), `${language}: ${rows}`);
      assert.doesNotMatch(rows, /"reason":"win-limit"/, `${language}: ${rows}`);
      // Each entry's type by its name in the screen's language, never the journal's code.
      for (const type of ['tilt.raise', 'service.action'] as const) assert.ok(rows.includes(t(`entryType.${type}`)), `${language} ${type}: ${rows}`);
      assert.doesNotMatch(rows, /tilt\.raise|service\.action/, `${language}: no type's code`);
    }
  });

  it("a fault cleared is said in the screen's words too: what, who cleared it or that it went by itself, and why by key", () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language, signedIn: true } as ServiceState;
      const entries = [
        {
          seq: 10,
          ts: '2026-01-01T10:00:00.000Z',
          type: 'tilt.clear',
          severity: 'warning' as const,
          summary: '{"automatic":true,"detail":"hold resolved","kind":"card-hold","raisedSeq":3,"say":{}}',
          fault: { kind: 'card-hold' as const, detail: { key: 'tiltDetail.holdResolved', values: {} }, cleared: {} },
        },
        {
          seq: 11,
          ts: '2026-01-01T10:00:01.000Z',
          type: 'tilt.clear',
          severity: 'warning' as const,
          summary: '{"automatic":false,"by":"tech-1","kind":"bill-jam","raisedSeq":4,"station":2}',
          fault: { kind: 'bill-jam' as const, station: 2, cleared: { by: 'tech-1' } },
        },
      ];
      const rows = pageContent(state, { page: 'events', offset: 0, more: false, filter: {}, entries }, t, INITIAL_CHOICES, none).rows.join('\n');
      const jam = t('punctuation.joined', { first: t('service.field.atStation', { station: 2 }), second: t('tilt.bill-jam') });
      assert.ok(rows.includes(t('service.field.faultClearedBy', { by: 'tech-1', fault: jam })), `${language}: ${rows}`);
      const hold = t('punctuation.joined', { first: t('service.field.atTable'), second: t('tilt.card-hold') });
      assert.ok(rows.includes(t('service.field.faultClearedItself', { fault: hold })), `${language}: ${rows}`);
      assert.ok(rows.includes(t('tiltDetail.holdResolved')), `${language}: ${rows}`);
      assert.doesNotMatch(rows, /hold resolved"|"automatic"/, `${language}: the payload of a clear not shown`);
    }
  });
});

describe('service Devices trace and Sync rows: a device event and a sync failure by key', () => {
  it("say a device's events by their words with the device's facts, and the sync's last failure by its reason, never its text", () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language, signedIn: true } as ServiceState;
      const devices = [row({ device: 'BA-2', lastEvent: 'stackerFull' })];
      const trace = [
        { ts: '2026-01-01T10:00:01.000Z', device: 'BA-2', event: 'escrowed' as const, facts: '500 MOP' },
        { ts: '2026-01-01T10:00:00.000Z', device: 'BA-2', event: 'jam' as const, facts: 'where=stacker' },
      ];
      const text = pageContent(state, { page: 'devices', device: 'BA-2', devices, trace, frames: [] }, t, INITIAL_CHOICES, none).rows.join(' ');
      assert.ok(text.includes(`10:00:01.000 ${t('service.deviceEvent.escrowed')} 500 MOP`), `${language}: ${text}`);
      assert.ok(text.includes(`10:00:00.000 ${t('service.deviceEvent.jam')} where=stacker`), `${language}: ${text}`);
      assert.ok(text.includes(t('service.deviceEvent.stackerFull')), `${language}: the last event in words: ${text}`);
      const sync = (lastError: { reason: 'refused'; status: number; error: string } | { reason: 'unreachable' }) => ({
        page: 'sync' as const,
        sync: {
          state: 'blocked' as const,
          upstream: 'https://upstream.example',
          ackedSeq: 1,
          headSeq: 3,
          lagEntries: 2,
          lagSeconds: 9,
          lastError,
          lastErrorAt: '2026-01-01T10:00:00.000Z',
          lastSuccessAt: null,
        },
      });
      const refused = pageContent(state, sync({ reason: 'refused', status: 403, error: 'bad-signature' }), t, INITIAL_CHOICES, none).rows.join('\n');
      assert.ok(refused.includes(t('service.syncError.refused', { status: 403, error: 'bad-signature' })), `${language}: ${refused}`);
      const unreachable = pageContent(state, sync({ reason: 'unreachable' }), t, INITIAL_CHOICES, none).rows.join('\n');
      assert.ok(unreachable.includes(t('service.syncError.unreachable')), `${language}: ${unreachable}`);
      if (language === 'en') continue;
      assert.doesNotMatch(text, /\b(escrowed|jam|stackerFull)\b/, `${language}: ${text}`);
      assert.doesNotMatch(`${refused}\n${unreachable}`, /upstream answered|fetch failed|unreachable|refused/, `${language}`);
    }
  });
});

describe('service Devices trace', () => {
  it("shows the chosen device's events and its frames (hex and meaning, repeats counted); the shoe is not switched off", async () => {
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n);
    const state = {
      kind: 'service',
      tableId: 'T',
      softwareVersion: '1',
      language: 'en',
      signedIn: true,
      session: { name: 'Bo', staff: '1002', role: 'technician', currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) },
    } as ServiceState;
    const devices = [
      row({ device: 'BA-1', station: 1, protocol: 'id003' }),
      row({ device: 'BA-2', station: 2, protocol: 'ssp', serial: '12345678' }),
      { ...row({ device: 'shoe', kind: 'shoe' }), station: undefined, protocol: 'framed', switchable: false } as DeviceRow,
    ];
    const page = {
      page: 'devices' as const,
      device: 'shoe',
      devices,
      trace: [{ ts: '2026-01-01T10:00:00.000Z', device: 'shoe', event: 'card' as const, facts: 'card=AS sequence=4' }],
      frames: [
        { ts: '2026-01-01T10:00:00.100Z', dir: 'rx' as const, hex: '02 01 04 00 11 06', meaning: 'CARD DRAWN AS #4', count: 1 },
        { ts: '2026-01-01T10:00:00.000Z', dir: 'tx' as const, hex: '02 01 00 00 81 00', meaning: 'GET STATUS', count: 12 },
      ],
    };
    let opened: unknown = null;
    const { rows, buttons } = pageContent(state, page, t, INITIAL_CHOICES, { ...none, open: (p, extra) => void (opened = [p, extra]) });
    const text = rows.join('\n');
    assert.match(text, /^BA-1 · ready$/m, 'the other devices on one short row each');
    const detail = (device: string) => pageContent(state, { ...page, device }, t, INITIAL_CHOICES, none).rows.join(' ');
    assert.match(detail('BA-1'), /BA-1 .* serial not reported \(ID-003 has no serial-number request\)/);
    assert.match(detail('BA-2'), /BA-2 .* serial 12345678/);
    assert.match(text, /Live events of shoe\n {2}10:00:00.000 card read card=AS sequence=4/);
    assert.match(text, /10:00:00.100 device→host 02 01 04 00 11 06 · CARD DRAWN AS #4\n/);
    assert.match(text, /host→device 02 01 00 00 81 00 · GET STATUS ×12/);
    assert.match(text, /shoe cannot be disabled in service mode/);
    assert.ok(!buttons.some((b) => b.id === 'act-device-disable' || b.id === 'act-device-enable'), 'no switch for the shoe');
    assert.ok(buttons.some((b) => b.id === 'act-test-card'));
    buttons.find((b) => b.id === 'device-BA-2')?.press();
    assert.deepEqual(opened, ['devices', { device: 'BA-2' }], 'choosing a device asks the host for its trace');
  });
});

describe('service manual card entry', () => {
  it('asks for the card on the rank-and-suit pad, then the two-person entry for the round on screen', async () => {
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n);
    const state = {
      kind: 'service',
      tableId: 'T',
      softwareVersion: '1',
      language: 'en',
      signedIn: true,
      session: { name: 'Ana', staff: '1001', role: 'supervisor', currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) },
    } as ServiceState;
    const page = {
      page: 'holds' as const,
      table: { game: 'blackjack' as const, profile: 'macau-2009', phase: 'hold' as const, roundId: 'R-7', hold: 'unreadable' as const, newBets: false },
      closed: false,
    };
    const asked: AskRequest[] = [];
    const acted: ServiceAction[] = [];
    const { buttons } = pageContent(state, page, t, INITIAL_CHOICES, { ...none, ask: (r) => void asked.push(r), act: (x) => void acted.push(x) });
    assert.ok(!buttons.some((b) => b.id === 'card-rank'), 'no button cycling through 52 cards');
    buttons.find((b) => b.id === 'act-enter-card')?.press();
    assert.equal(asked[0]?.kind, 'card');
    asked[0]?.then('TD');
    assert.deepEqual(acted, [{ kind: 'enter-card', roundId: 'R-7', card: 'TD' }]);
  });

  it('asks a meter clear with no sentence of its own: the host words it, and the scope reads as the table or a station', () => {
    const i18n = createI18n('zh-Hant');
    const t = i18n.t.bind(i18n);
    const state = {
      kind: 'service',
      tableId: 'T',
      softwareVersion: '1',
      language: 'zh-Hant',
      signedIn: true,
      session: { name: 'Ana', staff: '1001', role: 'supervisor', currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) },
    } as ServiceState;
    const page = {
      page: 'holds' as const,
      table: { game: 'blackjack' as const, profile: 'macau-2009', phase: 'betting' as const, roundId: 'R-7', hold: null, newBets: true },
      closed: false,
    };
    const asked: AskRequest[] = [];
    const acted: ServiceAction[] = [];
    const choices = { ...INITIAL_CHOICES, clearScope: 'station:2' };
    const { buttons } = pageContent(state, page, t, choices, { ...none, ask: (r) => void asked.push(r), act: (x) => void acted.push(x) });
    assert.equal(buttons.find((b) => b.id === 'clear-scope')?.label, t('service.action.scope', { scope: t('service.field.atStation', { station: '2' }) }));
    buttons.find((b) => b.id === 'act-meter-clear')?.press();
    asked.at(-1)?.then('DICJ-2026/7');
    assert.deepEqual(acted, [{ kind: 'meter-clear', scope: 'station:2', authorisation: 'DICJ-2026/7' }]);
    // The second person confirms the scope as the page words it, and the reference.
    const summary = actionSummary(acted[0] as ServiceAction, page, { t, money: (m) => `MOP ${m / 100}`, minorPerUnit: 100 });
    assert.equal(summary, t('punctuation.joined', { first: t('service.field.atStation', { station: '2' }), second: 'DICJ-2026/7' }));
  });

  it("asks a drop count for the station's number, then each face value's count, and asks for it as one action (a supervisor's)", () => {
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n);
    const state = (role: 'supervisor' | 'technician') =>
      ({
        kind: 'service',
        tableId: 'T',
        softwareVersion: '1',
        language: 'en',
        signedIn: true,
        session: { name: 'Ana', staff: '1001', role, currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) },
      }) as ServiceState;
    const page = { page: 'meters' as const, currency: 'MOP', notes: [100, 500, 1000], offset: 0, more: false, scopes: [] };
    const asked: AskRequest[] = [];
    const acted: ServiceAction[] = [];
    const { buttons } = pageContent(state('supervisor'), page, t, INITIAL_CHOICES, { ...none, ask: (r) => void asked.push(r), act: (x) => void acted.push(x) });
    buttons.find((b) => b.id === 'act-cashbox-drop')?.press();
    asked.at(-1)?.then('103');
    for (const n of ['4', '0', '2']) {
      assert.equal(asked.at(-1)?.kind, 'digits');
      asked.at(-1)?.then(n);
    }
    assert.equal(asked.length, 4, 'the station, then one count per face value');
    assert.ok(asked[1]?.label.includes('100'), asked[1]?.label);
    assert.deepEqual(acted, [
      {
        kind: 'cashbox-drop',
        station: 103,
        notes: [
          { note: 100, count: 4 },
          { note: 500, count: 0 },
          { note: 1000, count: 2 },
        ],
      },
    ]);
    const summary = actionSummary(acted[0] as ServiceAction, page, { t, money: (m) => `MOP ${m / 100}`, minorPerUnit: 100 });
    assert.equal(summary, 'Station: 103 · MOP 100: 4 · MOP 500: 0 · MOP 1000: 2', 'the second person sees the count they confirm');
    const technician = pageContent(state('technician'), page, t, INITIAL_CHOICES, none);
    assert.ok(!technician.buttons.some((b) => b.id === 'act-cashbox-drop'), 'only a supervisor starts it');
  });
});

describe('service Configuration page: key names', () => {
  it("words every configuration key the catalogue has words for in the screen's language, none shown raw (roundMax, profileOptions…)", () => {
    for (const [language, catalogue] of Object.entries(catalogues)) {
      const { t } = createI18n(language);
      for (const [key, words] of Object.entries(catalogue.service.configKey)) assert.equal(configKeyLabel(key, t), words, `${language} ${key}`);
    }
  });
});

describe('service Jackpot page (Portugal rules 38–50)', () => {
  it('shows the pools, their movements and the last awards in each language; a supervisor resets a level with an amount and the reference', () => {
    for (const language of ['en', 'pt', 'zh-Hant'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = {
        kind: 'service',
        tableId: 'T',
        softwareVersion: '1',
        language,
        signedIn: true,
        session: { role: 'supervisor', currency: 'MOP' },
      } as ServiceState;
      const asked: AskRequest[] = [];
      const acted: ServiceAction[] = [];
      const actions: PageActions = { ...none, ask: (r) => void asked.push(r), act: (a) => void acted.push(a) };
      const { rows, buttons } = pageContent(
        state,
        {
          page: 'jackpot',
          currency: 'MOP',
          reference: 'IGJ-1',
          stake: 100,
          pools: [{ level: 'main', pool: 1_000_016, held: 1_000_016 }],
          stopped: true,
          history: [
            {
              seq: 9,
              ts: '2026-01-01T00:00:00.000Z',
              roundId: 'R-2',
              level: 'main',
              before: 1_000_000,
              contribution: 16,
              award: 0,
              rounding: 0,
              seed: 0,
              after: 1_000_016,
            },
            // A pool of 1,000,031 shared by two (rule 50 b)): 500,016 each, the house adding 1.
            {
              seq: 10,
              ts: '2026-01-01T00:01:00.000Z',
              roundId: 'R-3',
              level: 'main',
              before: 1_000_016,
              contribution: 15,
              award: 1_000_032,
              rounding: 1,
              seed: 1_000_000,
              after: 1_000_000,
            },
          ],
          hits: [{ seq: 9, ts: '2026-01-01T00:00:00.000Z', roundId: 'R-2', station: 1, seat: 1, combination: 'three-sevens', level: 'main', amount: 20_000 }],
        },
        t,
        INITIAL_CHOICES,
        actions,
      );
      const text = rows.join('\n');
      const money = (n: number) => formatMoney(n, 'MOP', language);
      assert.ok(text.includes(money(1_000_016)), `${language}: the pool`);
      assert.ok(text.includes(t('jackpot.stopped')), `${language}: the chip stopped`);
      const shared = rows.find((r) => r.includes('R-3')) ?? '';
      assert.ok(shared.includes(money(1)) && shared.includes(money(1_000_032)), `${language}: the house's rounding shown in the move: ${shared}`);
      assert.ok(text.includes(t('jackpot.combination.three-sevens')) && text.includes('R-2') && text.includes(money(20_000)), `${language}: the award`);
      const reset = buttons.find((b) => b.id === 'act-jackpot-reset-main');
      assert.ok(reset, `${language}: the reset`);
      reset.press();
      asked.at(-1)?.then('12000');
      asked.at(-1)?.then('IGJ-2026-7');
      assert.deepEqual(acted.at(-1), { kind: 'jackpot-reset', level: 'main', to: 1_200_000, authorisation: 'IGJ-2026-7' });
    }
  });
});

describe('service rule change: its own effective day (issue 51)', () => {
  it('reads the day typed as YYYYMMDD, 0 for the day it is journalled, anything else refused; the second person reads it', async () => {
    const { effectiveDay } = await import('./pages/rule-editor.js');
    assert.equal(effectiveDay('20270301'), '2027-03-01');
    assert.equal(effectiveDay('0'), '');
    for (const bad of ['2027031', '20270230', '20271301', '']) assert.equal(effectiveDay(bad), null, bad);
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n);
    const fmt = { t, money: (m: number) => formatMoney(m, 'MOP', 'en'), minorPerUnit: 100 };
    const action: ServiceAction = {
      kind: 'config-change',
      key: 'profileOptions',
      value: '{"surrender":"none"}',
      authorisation: 'DICJ-2027/1',
      effective: '2027-03-01',
    };
    assert.match(actionSummary(action, undefined, fmt), /DICJ-2027\/1.*in effect from 2027-03-01/);
  });

  // The second person confirmed a rule change reading the options as the JSON the host takes
  // ('{"surrender":"none","fiveCardHalfPay":false}') in every language.
  it('the second person reads a rule options change in words: each option by its name, each value by its word', () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const fmt = { t, money: (m: number) => formatMoney(m, 'MOP', language), minorPerUnit: 100 };
      const action: ServiceAction = {
        kind: 'config-change',
        key: 'profileOptions',
        value: '{"surrender":"none","fiveCardHalfPay":false}',
        authorisation: 'D/1',
      };
      const text = actionSummary(action, undefined, fmt);
      for (const words of [t('ruleChoice.option.surrender'), t('ruleChoice.value.none'), t('ruleChoice.option.fiveCardHalfPay'), t('ruleChoice.no')])
        assert.ok(text.includes(words), `${language}: ${words} in ${text}`);
      assert.doesNotMatch(text, /[{}"]|fiveCardHalfPay/, `${language}: ${text}`);
    }
  });
});

describe('service Cash-out page', () => {
  it("says, under a handpay's row, the winning-streak stake its station still holds, in each language", () => {
    for (const language of ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language, signedIn: true } as ServiceState;
      const pending = [
        { station: 1, amount: 105_000, requestTxId: 'r1', twoPerson: false, streakHeld: 5_000 },
        { station: 3, amount: 7_000, requestTxId: 'r3', twoPerson: false },
      ];
      const rows = pageContent(
        state,
        { page: 'cashout', offset: 0, more: false, pending, cancelled: [], twoPersonAbove: 1_000_000 },
        t,
        INITIAL_CHOICES,
        none,
      ).rows;
      const said = rows.filter((r) => r.includes(t('service.field.streakHeld', { amount: '' }).slice(0, 6)));
      assert.equal(said.length, 1, `${language}: ${rows.join(' | ')}`);
      const at = rows.indexOf(said[0] ?? '');
      assert.ok(rows[at - 1]?.includes(formatMoney(105_000, 'MOP', language)), `${language}: under station 1's row: ${rows[at - 1]}`);
      assert.ok(said[0]?.includes(formatMoney(5_000, 'MOP', language)), `${language}: ${said[0]}`);
    }
  });

  it('numbers a later page on from the first, confirms each by its own request, and turns the pages', () => {
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n);
    const session = { name: 'Ana', staff: '1001', role: 'attendant', currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) };
    const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language: 'en', signedIn: true, session } as ServiceState;
    const acted: unknown[] = [];
    const opened: unknown[] = [];
    const actions: PageActions = { ...none, act: (x) => acted.push(x), open: (page, extra) => opened.push([page, extra]) };
    const pending = [{ station: 117, amount: 9_000, requestTxId: 'r117', twoPerson: false }];
    const page = { page: 'cashout' as const, offset: 16, more: true, pending, cancelled: [], twoPersonAbove: 1_000_000 };
    const { rows, buttons } = pageContent(state, page, t, { ...INITIAL_CHOICES }, actions);
    const row = t('service.field.pendingRow', { station: 117, amount: formatMoney(9_000, 'MOP', 'en'), two: '' });
    assert.ok(rows.includes('  ' + t('punctuation.numbered', { n: 17, text: row })), rows.join(' | '));
    for (const id of ['handpay-17', 'page-next', 'page-prev']) buttons.find((b) => b.id === id)?.press();
    assert.deepEqual(acted, [{ kind: 'handpay-confirm', station: 117, requestTxId: 'r117' }]);
    assert.deepEqual(opened, [
      ['cashout', { offset: 32 }],
      ['cashout', { offset: 0 }],
    ]);
  });
});
