import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServiceAction, ServicePage, ServiceState } from '../../../../../protocol/index.js';
import { PEER_PROBLEMS } from '../../../../../protocol/index.js';
import { createI18n } from '../../../../../locales/i18n.js';
import { pageContent } from '../page-content.js';
import { actionSummary } from './action-summary.js';
import { INITIAL_CHOICES, type AskRequest, type PageActions } from './choices.js';
import { parseStations, stationList } from './peers-page.js';

const PAGE: Extract<ServicePage, { page: 'peers' }> = {
  page: 'peers',
  transfers: true,
  open: [],
  peers: [
    {
      table: 'bj-2',
      url: 'https://10.0.0.12:8443',
      fingerprint: 'AB:CD',
      stations: [201, 202, 203, 207],
      dialsIn: true,
      linkOut: true,
      linkIn: false,
      problem: null,
    },
    { table: 'bac-1', url: null, fingerprint: null, stations: [], dialsIn: true, linkOut: false, linkIn: false, problem: 'changed' },
  ],
};

const ENROLMENT = JSON.stringify({ table: 'war-3', url: 'https://10.0.0.13:8443', certificate: 'C'.repeat(200), fingerprint: 'EF', secret: 'S'.repeat(43) });

function drive(role: 'supervisor' | 'technician', language: 'en' | 'pt' | 'zh-Hant', page: ServicePage = PAGE) {
  const i18n = createI18n(language);
  const t = i18n.t.bind(i18n);
  const acts: ServiceAction[] = [];
  const asks: AskRequest[] = [];
  const uploads: ((text: string) => void)[] = [];
  const downloads: string[] = [];
  const actions: PageActions = {
    act: (a) => void acts.push(a),
    open: () => undefined,
    download: (p) => void downloads.push(p),
    upload: (then) => void uploads.push(then),
    view: () => undefined,
    replay: () => undefined,
    ask: (r) => void asks.push(r),
    choose: () => undefined,
  };
  const state = { kind: 'service', tableId: 'bj-1', softwareVersion: '1', language, signedIn: true, session: { role } } as ServiceState;
  return { t, acts, asks, uploads, downloads, ...pageContent(state, page, t, INITIAL_CHOICES, actions) };
}

describe('service Peers page (issue 50 item 4)', () => {
  it('lists each peer with its address, stations, links and why it is refused, in each language, no key raw', () => {
    for (const language of ['zh-Hant', 'pt', 'en'] as const) {
      const { t, rows } = drive('supervisor', language);
      const text = rows.join('\n');
      assert.ok(text.includes(t('service.peers.row', { table: 'bj-2', url: 'https://10.0.0.12:8443', stations: '201-203/207' })), text);
      assert.ok(text.includes(t('service.peers.row', { table: 'bac-1', url: t('service.peers.noUrl'), stations: t('service.peers.noStations') })), text);
      assert.ok(text.includes(t('service.peers.problem.changed')), text);
      assert.ok(
        text.includes(t('service.peers.links', { out: t('service.field.connected'), in: t('service.field.notConnected'), dialsIn: t('service.peers.yes') })),
      );
      assert.doesNotMatch(text, /service\.|\{\{/);
      for (const p of PEER_PROBLEMS) assert.notEqual(t(`service.peers.problem.${p}`), `service.peers.problem.${p}`, `${language}: ${p}`);
      const empty = drive('supervisor', language, { page: 'peers', transfers: false, open: [], peers: [] }).rows.join('\n');
      assert.ok(empty.includes(t('service.peers.none')) && empty.includes(t('service.peers.notLinked').slice(0, 8)), empty);
    }
  });

  it('a supervisor enrols a peer from its file and the stations typed, or removes one; a technician is offered neither', () => {
    const sup = drive('supervisor', 'en');
    assert.deepEqual(
      sup.buttons.map((b) => b.id),
      [
        'act-peer-add',
        'act-peer-revoke-bj-2',
        'act-peer-revoke-bac-1',
        'act-peer-issue',
        'act-peer-issue-bj-2',
        'act-peer-withdraw-bj-2',
        'act-peer-issue-bac-1',
        'act-peer-withdraw-bac-1',
      ],
    );
    sup.buttons.find((b) => b.id === 'act-peer-revoke-bac-1')?.press();
    assert.deepEqual(sup.acts.pop(), { kind: 'peer-revoke', table: 'bac-1' });
    sup.buttons.find((b) => b.id === 'act-peer-add')?.press();
    sup.uploads[0]?.(ENROLMENT);
    assert.equal(sup.asks[0]?.kind, 'reference');
    sup.asks[0]?.then('301-302/305');
    assert.deepEqual(sup.acts.pop(), { kind: 'peer-add', enrolment: ENROLMENT, stations: [301, 302, 305] });
    // Stations that are not numbers ask nothing of the host.
    sup.asks[0]?.then('30x');
    assert.equal(sup.acts.length, 0);
    assert.deepEqual(
      drive('technician', 'en').buttons.map((b) => b.id),
      [],
    );
  });

  it("a supervisor makes this table's enrolment file for a peer (typed, or listed), downloads it once, withdraws a peer's credential", () => {
    const sup = drive('supervisor', 'en');
    sup.buttons.find((b) => b.id === 'act-peer-issue')?.press();
    assert.equal(sup.asks[0]?.kind, 'reference');
    sup.asks[0]?.then('WAR-3');
    assert.deepEqual(sup.acts.pop(), { kind: 'peer-issue', table: 'WAR-3' });
    sup.buttons.find((b) => b.id === 'act-peer-withdraw-bj-2')?.press();
    assert.deepEqual(sup.acts.pop(), { kind: 'peer-withdraw', table: 'bj-2' });
    // The file waiting for this session: a download instead of "make", to the export of that table's file.
    const waiting = drive('supervisor', 'en', { ...PAGE, peers: PAGE.peers.map((p) => (p.table === 'bj-2' ? { ...p, download: true as const } : p)) });
    const button = waiting.buttons.find((b) => b.id === 'peer-download-bj-2');
    assert.ok(button && !waiting.buttons.some((b) => b.id === 'act-peer-issue-bj-2'));
    assert.equal(button.label, 'Download enrolment file for bj-2');
    button.press();
    assert.deepEqual(waiting.downloads, ['/service/export/peer-enrolment/bj-2']);
  });

  it("the second person reads the peer's table, address and stations, never the file's secret", () => {
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n);
    const fmt = { t, money: String, minorPerUnit: 100 };
    const summary = actionSummary({ kind: 'peer-add', enrolment: ENROLMENT, stations: [301, 302] }, undefined, fmt);
    assert.equal(summary, 'war-3 · https://10.0.0.13:8443 · stations 301-302 · Certificate EF');
    assert.ok(!summary.includes('SSSS'));
    assert.equal(actionSummary({ kind: 'peer-add', enrolment: 'not json', stations: [] }, undefined, fmt), '— · — · stations none');
  });

  it('reads the stations as typed: numbers, ranges, 0 for none; anything else refused', () => {
    assert.deepEqual(parseStations('0'), []);
    assert.deepEqual(parseStations('201'), [201]);
    assert.deepEqual(parseStations('201-203/207/202'), [201, 202, 203, 207]);
    for (const bad of ['', '201-', '203-201', 'a', '1-9999', '201,202']) assert.equal(parseStations(bad), null, bad);
    assert.equal(stationList([207, 201, 202, 203]), '201-203/207');
    assert.equal(stationList([]), '');
  });

  it('lists the open transfers; a supervisor settles a disputed one, or one whose receiver cannot answer, on a reference; never one that can still be answered', () => {
    const open: Extract<ServicePage, { page: 'peers' }>['open'] = [
      { serial: 7, station: 201, to: 'bj-2', amount: 50_000, phase: 'offering', disputed: null, answers: true, settleable: false },
      { serial: 8, station: 202, to: 'bj-2', amount: 20_000, phase: 'offering', disputed: 1, answers: true, settleable: true },
      { serial: 9, station: 203, to: 'bac-1', amount: 30_000, phase: 'recalling', disputed: null, answers: false, settleable: true },
    ];
    for (const language of ['zh-Hant', 'pt', 'en'] as const) {
      const { t, rows } = drive('supervisor', language, { ...PAGE, open });
      const text = rows.join('\n');
      assert.ok(text.includes(t('service.peers.openHead', { count: 3 })), text);
      for (const state of [t('service.peers.openState.offering'), t('service.peers.openState.unanswered', { to: 'bac-1' })])
        assert.ok(text.includes(state), state);
      assert.doesNotMatch(text, /service\.|\{\{/);
    }
    const sup = drive('supervisor', 'en', { ...PAGE, open });
    const settle = sup.buttons.filter((b) => b.id.startsWith('act-transfer-settle-')).map((b) => b.id);
    assert.deepEqual(settle, [
      'act-transfer-settle-completed-8',
      'act-transfer-settle-reversed-8',
      'act-transfer-settle-completed-9',
      'act-transfer-settle-reversed-9',
    ]);
    sup.buttons.find((b) => b.id === 'act-transfer-settle-reversed-9')?.press();
    assert.equal(sup.asks[0]?.kind, 'reference');
    sup.asks[0]?.then('INC-2026-114');
    assert.deepEqual(sup.acts.pop(), { kind: 'transfer-settle', serial: 9, as: 'reversed', reference: 'INC-2026-114' });
    assert.deepEqual(
      drive('technician', 'en', { ...PAGE, open }).buttons.map((b) => b.id),
      [],
    );
    // The second person reads the transfer as listed, how it is settled, and the reference.
    const i18n = createI18n('en');
    const fmt = { t: i18n.t.bind(i18n), money: (m: number) => `MOP ${m / 100}`, minorPerUnit: 100 };
    assert.equal(
      actionSummary({ kind: 'transfer-settle', serial: 8, as: 'completed', reference: 'INC-7' }, { ...PAGE, open }, fmt),
      'No. 8 · station 202 → bj-2 · MOP 200 · disputed: bj-2 says it took MOP 0.01 · settled as received there · INC-7',
    );
  });
});
