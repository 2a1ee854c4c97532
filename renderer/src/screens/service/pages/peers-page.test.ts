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
      const empty = drive('supervisor', language, { page: 'peers', transfers: false, peers: [] }).rows.join('\n');
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
});
