import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServicePage, ServiceState } from '../../../../../protocol/index.js';
import { createI18n } from '../../../../../locales/i18n.js';
import { formatMoney } from '../../../../../locales/money.js';
import { pageContent } from '../page-content.js';
import { actionSummary } from './action-summary.js';
import { INITIAL_CHOICES } from './choices.js';
import { NO_ACTIONS, signedInService } from './page-test-kit.js';

const none = NO_ACTIONS;

const PAGE: Extract<ServicePage, { page: 'tickets' }> = {
  page: 'tickets',
  limit: 5_000_000,
  machineId: 7,
  held: [{ station: 4, last4: '7788', amount: 120_000, since: '2026-11-26T10:08:00.000Z', twoPerson: true }],
  heldIn: [],
  faults: [],
  printers: [
    {
      station: 1,
      device: 'PR-1',
      spec: 'sim',
      state: 'ready',
      paper: 'low',
      faults: [],
      chassisOpen: false,
      paperInChute: true,
      busy: false,
      changedAt: '2026-11-26T10:00:00.000Z',
    },
    {
      station: 2,
      device: 'PR-2',
      spec: 'serial:/dev/ttyS1',
      state: 'fault',
      paper: 'out',
      faults: ['paper-out', 'paper-jam', 'platen-up'],
      chassisOpen: true,
      paperInChute: false,
      busy: false,
      changedAt: null,
    },
  ],
  out: [
    {
      direction: 'out',
      seq: 9,
      ts: '2026-11-26T10:05:00.000Z',
      since: '2026-11-26T10:04:59.000Z',
      station: 1,
      last4: '5032',
      amount: 50_000,
      state: 'printed',
    },
    {
      direction: 'out',
      seq: 5,
      ts: '2026-11-26T10:01:00.000Z',
      since: '2026-11-26T10:00:59.000Z',
      station: 2,
      last4: '1187',
      amount: 20_000,
      state: 'voided',
      voided: 'printer-fault',
    },
  ],
  in: [
    {
      direction: 'in',
      seq: 12,
      ts: '2026-11-26T10:07:00.000Z',
      since: '2026-11-26T10:07:00.000Z',
      station: 3,
      last4: '5032',
      amount: null,
      state: 'returned',
      returned: 'already-paid',
    },
    {
      direction: 'in',
      seq: 11,
      ts: '2026-11-26T10:06:00.000Z',
      since: '2026-11-26T10:06:00.000Z',
      station: 2,
      last4: '5032',
      amount: 50_000,
      state: 'redeemed',
    },
  ],
};

describe('service Tickets page', () => {
  it('words the printers, their faults and the tickets out and in in each language, every number by its last four digits, no key left raw', () => {
    for (const language of ['zh-Hant', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language, signedIn: true } as ServiceState;
      const rows = pageContent(state, PAGE, t, INITIAL_CHOICES, none).rows.join('\n');
      assert.doesNotMatch(rows, /service\.tickets\./, `${language}: a key shown raw`);
      for (const key of [
        'service.tickets.paper.low',
        'service.tickets.paper.out',
        'service.tickets.fault.paper-jam',
        'service.tickets.fault.platen-up',
        'service.tickets.flag.chassisOpen',
        'service.tickets.flag.inChute',
        'service.tickets.state.printed',
        'service.tickets.state.voided',
        'service.tickets.state.redeemed',
        'service.tickets.reason.already-paid',
      ] as const)
        assert.ok(rows.includes(t(key)), `${language}: ${key} (${t(key)}) in\n${rows}`);
      assert.ok(rows.includes('…5032') && rows.includes('…1187'), `${language}: numbers by their last four digits`);
      assert.ok(rows.includes(formatMoney(50_000, 'MOP', language)) && rows.includes(formatMoney(5_000_000, 'MOP', language)), `${language}: amounts`);
      // A review of 6 December: the journal's English reason went raw ('not printed: printer-fault') in every language.
      const flat = (x: string) => x.replace(/\s+/g, ' ');
      assert.ok(flat(rows).includes(flat(t('service.tickets.voidReason.printer-fault'))), `${language}: the void's reason in its words`);
      assert.doesNotMatch(rows, /printer-fault|not printed:/, `${language}: the void's reason as a code`);
    }
  });

  it('offers each held ticket its two settlements, naming it by its last four digits, in each language', () => {
    for (const language of ['zh-Hant', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const acted: unknown[] = [];
      const state = signedInService(language, 'technician', { name: 'Di', staff: '1004' });
      const c = pageContent(state, PAGE, t, INITIAL_CHOICES, { ...none, act: (x) => void acted.push(x) });
      const rows = c.rows.join('\n');
      assert.ok(rows.includes(t('service.tickets.held')) && rows.includes('…7788'), `${language}: the held ticket listed\n${rows}`);
      assert.ok(rows.includes(t('service.field.twoPerson').trim()), `${language}: above the two-person amount, said so`);
      assert.doesNotMatch(rows, /service\.(tickets|action)\./, `${language}: a key shown raw`);
      const voidBtn = c.buttons.find((b) => b.id === 'ticket-void-4');
      const printedBtn = c.buttons.find((b) => b.id === 'ticket-printed-4');
      assert.equal(voidBtn?.label, t('service.action.ticket-void-row', { n: 1 }));
      assert.equal(printedBtn?.label, t('service.action.ticket-printed-row', { n: 1 }));
      voidBtn?.press();
      printedBtn?.press();
      assert.deepEqual(acted, [
        { kind: 'ticket-settle', station: 4, ticket: '7788', outcome: 'void' },
        { kind: 'ticket-settle', station: 4, ticket: '7788', outcome: 'printed' },
      ]);
    }
  });

  it('offers each held ticket in its two settlements (in the cashbox, or not), naming its attempt and last four digits, in each language', () => {
    const page: typeof PAGE = {
      ...PAGE,
      held: [],
      // Two at one station: each button names its own attempt.
      heldIn: [
        { station: 5, seq: 31, last4: '2468', amount: 25_000, since: '2026-11-26T10:10:00.000Z', twoPerson: false },
        { station: 5, seq: 44, last4: '1357', amount: 600_000, since: '2026-11-26T10:12:00.000Z', twoPerson: true },
      ],
    };
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const acted: unknown[] = [];
      const state = signedInService(language, 'technician', { name: 'Di', staff: '1004' });
      const c = pageContent(state, page, t, INITIAL_CHOICES, { ...none, act: (x) => void acted.push(x) });
      const rows = c.rows.join('\n');
      assert.ok(rows.includes(t('service.tickets.heldIn')), `${language}: the held tickets in headed\n${rows}`);
      assert.ok(rows.includes('…2468') && rows.includes('…1357'), `${language}: each by its last four digits`);
      assert.ok(rows.includes(formatMoney(25_000, 'MOP', language)) && rows.includes(formatMoney(600_000, 'MOP', language)), `${language}: amounts`);
      assert.ok(rows.includes(t('service.field.twoPerson').trim()), `${language}: above the two-person amount, said so`);
      assert.doesNotMatch(rows, /service\.(tickets|action)\./, `${language}: a key shown raw`);
      const press = (id: string, label: string) => {
        const b = c.buttons.find((x) => x.id === id);
        assert.equal(b?.label, label, `${language}: ${id}`);
        b?.press();
      };
      press('ticket-in-stacked-31', t('service.action.ticket-in-stacked-row', { n: 1 }));
      press('ticket-in-returned-44', t('service.action.ticket-in-returned-row', { n: 2 }));
      assert.deepEqual(acted, [
        { kind: 'ticket-in-settle', station: 5, seq: 31, ticket: '2468', outcome: 'stacked' },
        { kind: 'ticket-in-settle', station: 5, seq: 44, ticket: '1357', outcome: 'returned' },
      ]);
      // What the second person confirms above the two-person amount: the station, the last four digits, where the ticket is.
      const second = actionSummary({ kind: 'ticket-in-settle', station: 5, seq: 44, ticket: '1357', outcome: 'returned' }, page, {
        t,
        money: (m) => formatMoney(m, 'MOP', language),
        minorPerUnit: 100,
      });
      assert.ok(second.includes('…1357') && second.includes(t('service.tickets.settleIn.returned')), `${language}: ${second}`);
    }
  });

  it('lists each open ticket fault in the reader’s language, with a button that clears it', () => {
    const page: typeof PAGE = {
      ...PAGE,
      faults: [
        {
          station: 2,
          since: '2026-11-26T10:09:00.000Z',
          last4: '4321',
          amount: 50_000,
          settled: 'printed',
          by: 'Ana Lei (1001)',
          printer: 'not-printed',
          reason: 'ignored',
        },
        { station: 5, since: '2026-11-26T10:10:00.000Z', last4: '9876', amount: 7_000, settled: 'void', by: 'Bo Chan (1002)', printer: 'printed' },
      ],
    };
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const acted: unknown[] = [];
      const state = signedInService(language, 'technician', { name: 'Di', staff: '1004' });
      const c = pageContent(state, page, t, INITIAL_CHOICES, { ...none, act: (x) => void acted.push(x) });
      // Long rows wrap: read them as one text.
      const flat = (x: string) => x.replace(/\s+/g, ' ');
      const rows = flat(c.rows.join(' '));
      assert.doesNotMatch(rows, /service\.(tickets|tiltHow)\.|tilt\./, `${language}: a key shown raw\n${rows}`);
      assert.ok(rows.includes(flat(t('service.tickets.faults'))), `${language}: the faults' heading`);
      assert.ok(
        rows.includes('…4321') &&
          rows.includes('Ana Lei (1001)') &&
          rows.includes(flat(t('service.tickets.faultSaid.not-printed', { reason: t('service.tickets.voidReason.ignored') }))),
        `${language}\n${rows}`,
      );
      // A review of 6 December: the printer's reason went as its code ('ignored') in every language.
      assert.doesNotMatch(rows, /\(ignored\)/, `${language}: the printer's reason as a code`);
      assert.ok(rows.includes('…9876') && rows.includes(flat(t('service.tickets.faultSaid.printed'))), `${language}: the void one`);
      assert.ok(rows.includes(flat(formatMoney(50_000, 'MOP', language))), `${language}: its amount`);
      c.buttons.find((b) => b.id === 'ticket-fault-clear-2')?.press();
      assert.deepEqual(acted, [{ kind: 'clear-tilt', tilt: 'ticket-late-verdict', station: 2 }]);
    }
  });
});
