// A service-mode action refused (issue 49 item 6, as config-refusal-words.test.ts for a
// configuration change) reaches the technician's screen as a key of the catalogues and its
// parameters (the BackendResult's notice, which service-host.ts shows as it is), never as the
// host's English sentence; its English (`detail`) is the en catalogue's, for the log. Each refusal
// below is made by the product's own backend code and read in zh-Hant, zh-Hans, pt and en.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { inEnglish, type Said } from '../../host/config/refusal-words.js';
import { changeSignal } from '../../host/service/backend/changes.js';
import { handpays } from '../../host/service/backend/handpays.js';
import { jackpot } from '../../host/service/backend/jackpot.js';
import { EXAMPLE_JACKPOT_PROGRAM } from '../../engine/blackjack/jackpot/program.js';
import { deviceTests } from '../../host/service/backend/device-tests.js';
import { devices } from '../../host/service/backend/devices.js';
import type { LiveBackendDeps } from '../../host/service/backend/deps.js';
import { meters } from '../../host/service/backend/meters.js';
import { upstreamSync } from '../../host/service/backend/sync.js';
import { tickets } from '../../host/service/backend/tickets.js';
import { enrolment } from '../../host/service/backend/enrolment.js';
import { peerActions } from '../../host/service/backend/peers.js';
import { roundActions } from '../../host/service/backend/round-actions.js';
import { tableActions } from '../../host/service/backend/table-actions.js';
import { onBillAcceptorEvent } from '../../host/tilts/tilt-sources.js';
import { actSaid } from '../../host/floor/act-said.js';
import type { ActRefusal } from '../../engine/table/act-refusal.js';
import { parseCard } from '../../engine/cards/card.js';
import { serviceJournal } from '../../host/service/backend/service-journal.js';
import { AccountError, AccountStore } from '../../host/service/accounts.js';
import { routeAction } from '../../host/service/action-routes.js';
import { fakeBackend } from '../../host/service/testing/fake-backend.js';
import { memoryAccountJournal } from '../../host/service/testing/memory-account-journal.js';
import type { BackendResult } from '../../host/service/service-backend.js';
import { credit, silent, submitted, testTable, type TestTable } from '../../host/testing/table-kit.js';
import { createI18n } from '../../locales/i18n.js';
import { refusalWords } from '../../backoffice/src/config-section.js';
import { assertSectionEverywhere, assertWordsEverywhere, LANGUAGES, wordsIn } from './said-kit.js';

/** The refusal's notice as the screen gets it, checked against its English `detail` (the log's). */
function noticeOf(r: BackendResult, key: string): Said {
  assert.equal(r.ok, false, JSON.stringify(r));
  if (r.ok) throw new Error('not refused');
  assert.ok(r.notice, `${key}: a notice for the screen`);
  assert.equal(r.notice.key, key, JSON.stringify(r));
  const s = { key: r.notice.key, values: r.notice.values } as Said;
  assert.equal(r.detail, inEnglish(s), `${key}: the log's English is the en catalogue's`);
  return s;
}

const cashOut = (t: TestTable, station: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'cash-out' }));

describe('service-mode refusals are said by key in every language', () => {
  it('every serviceRefusal key has words in each catalogue, with the same placeholders as the source', () => {
    assertSectionEverywhere('serviceRefusal');
  });

  it('handpays: each refusal of a confirmation is its key', () => {
    const t = testTable({ config: { handpayTwoPersonAbove: 50_000 } });
    try {
      const changes = changeSignal();
      const part = handpays(t, changes);
      credit(t.ledger, 3, 100_000);
      assert.equal(cashOut(t, 3).ok, true);
      const [p] = t.floor.handpays.pending();
      assert.ok(p);
      const cases: [string, BackendResult][] = [
        ['serviceRefusal.handpayNotAtStation', part.confirmHandpay(4, p.requestTxId, ['att-1', 'sup-2'])],
        ['serviceRefusal.handpayNoAttendant', part.confirmHandpay(3, p.requestTxId, [' ', 'sup-2'])],
        ['serviceRefusal.handpayNeedsWitness', part.confirmHandpay(3, p.requestTxId, ['att-1'])],
        ['serviceRefusal.handpaySameWitness', part.confirmHandpay(3, p.requestTxId, ['att-1', 'att-1'])],
      ];
      for (const [key, r] of cases) assertWordsEverywhere(noticeOf(r, key), key);
      // The amount is money in the table's currency, in each language's way, not minor units.
      const witness = noticeOf(cases[2]![1], 'serviceRefusal.handpayNeedsWitness');
      assert.doesNotMatch(wordsIn('zh-Hant', witness), /50000/);
      // The floor's own refusal (a request already paid) says its key too.
      assert.equal(part.confirmHandpay(3, p.requestTxId, ['att-1', 'sup-2']).ok, true);
      const again = t.floor.handpays.confirm(p.requestTxId, 'att-1', 'sup-2');
      assert.equal(again.ok, false);
      if (!again.ok) {
        assert.equal(again.say.key, 'serviceRefusal.handpayNotPending');
        assert.equal(again.reason, inEnglish(again.say));
        assertWordsEverywhere(again.say, 'handpayNotPending');
      }
    } finally {
      t.close();
    }
  });

  it("jackpot: the host's refusals of a reset are keys, the amount the ledger holds in the table's currency", () => {
    const t = testTable();
    try {
      const changes = changeSignal();
      const part = jackpot(t, changes);
      t.ledger.append({
        type: 'jackpot.reset',
        txId: 'elsewhere',
        payload: { tableId: 'OTHER', level: 'main', to: 2_000_000, unfunded: 0, who: 'a', witness: 'b', authorisation: 'R' },
      });
      const cases: [string, BackendResult][] = [
        ['serviceRefusal.jackpotSamePerson', part.reset('main', 2_000_000, 'IGJ-2026-17', ['S1', 'S1'])],
        ['serviceRefusal.jackpotBelowHeld', part.reset('main', 1_500_000, 'IGJ-2026-17', ['S1', 'W1'])],
      ];
      for (const [key, r] of cases) assertWordsEverywhere(noticeOf(r, key), key);
      assert.equal(cases[1]![1].ok === false && cases[1]![1].notice?.values.held, 2_000_000);
    } finally {
      t.close();
    }
  });

  it('table actions: a fault cleared by the wrong person, or not clearable, is refused by its key', () => {
    const t = testTable();
    try {
      const changes = changeSignal();
      const part = tableActions({ ...t, shoe: { simulator: () => null }, log: silent }, serviceJournal(t.ledger, changes));
      // A card the shoe could not read in a round in play: a hold, cleared by its resolution.
      credit(t.ledger, 2, 50_000);
      const bet = { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 } as const;
      assert.equal(submitted(t.hub.commands.submit('station/2', t.hub.version('station/2'), bet)).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onAnomaly('unreadable', null);
      assert.equal(part.setTableOpen(false, 'sup-1').ok, true);
      t.tilts.raise('disk-low');
      onBillAcceptorEvent(t.tilts, 1, { type: 'jam', where: 'stacker' });
      const cases: [string, BackendResult][] = [
        ['serviceRefusal.tiltUnknown', part.clearTilt('no-such-fault', undefined, 'tech-1', 'technician')],
        ['serviceRefusal.tiltNotCurrent', part.clearTilt('shoe-alarm', undefined, 'sup-1', 'supervisor')],
        ['serviceRefusal.tiltNotCurrentAt', part.clearTilt('bill-jam', 2, 'tech-1', 'technician')],
        ['serviceRefusal.tiltClearsItself', part.clearTilt('disk-low', undefined, 'sup-1', 'supervisor')],
        ['serviceRefusal.tiltClearsByResolution', part.clearTilt('card-hold', undefined, 'sup-1', 'supervisor')],
        ['serviceRefusal.tiltNeedsSupervisor', part.clearTilt('table-closed', undefined, 'tech-1', 'technician')],
        ['serviceRefusal.tiltStillHolds', part.clearTilt('bill-jam', 1, 'tech-1', 'technician')],
      ];
      onBillAcceptorEvent(t.tilts, 1, { type: 'faultCleared' });
      cases.push(['serviceRefusal.tiltNeedsAttendant', part.clearTilt('bill-jam', 1, 'aud-1', 'auditor')]);
      for (const [key, r] of cases) assertWordsEverywhere(noticeOf(r, key), key);
      // Each names the fault by its words in the reader's language, never its code; a kind the
      // catalogue does not know (typed by someone) has no words: it is shown as typed, quoted.
      const kinds = ['no-such-fault', 'shoe-alarm', 'bill-jam', 'disk-low', 'card-hold', 'table-closed', 'bill-jam', 'bill-jam'] as const;
      for (const language of LANGUAGES) {
        const i18n = createI18n(language);
        for (const [i, [key, r]] of cases.entries()) {
          const kind = kinds[i]!;
          const words = wordsIn(language, noticeOf(r, key));
          if (kind === 'no-such-fault') {
            assert.match(words, /["“「«]no-such-fault["”」»]/, `${language} ${key}: what was typed, quoted: ${words}`);
            continue;
          }
          assert.ok(words.includes(i18n.t(`tilt.${kind}`)), `${language} ${key}: the fault's words: ${words}`);
          assert.ok(!words.includes(kind), `${language} ${key}: no code: ${words}`);
        }
      }
      assert.equal(part.clearTilt('bill-jam', 1, 'tech-1', 'technician').ok, true, 'the right person, the device fixed: cleared');
    } finally {
      t.close();
    }
  });

  it('round actions: a round that has moved on is refused by its key, as stale', () => {
    const t = testTable();
    try {
      const part = roundActions(t);
      const r = part.reportDealingError('R-GONE', 'sup-1');
      assert.equal(r.ok === false && r.code, 'stale-round');
      assertWordsEverywhere(noticeOf(r, 'serviceRefusal.roundStale'), 'roundStale');
    } finally {
      t.close();
    }
  });

  it('devices: a device the table does not have, a test that timed out or was cut short, a shoe in use, each by its key', async () => {
    const t = testTable();
    try {
      const changes = changeSignal();
      const journal = serviceJournal(t.ledger, changes);
      // The table's devices as the backend sees them: no acceptor at any station, a shoe whose test never draws.
      const billAcceptors = {
        statuses: () => [],
        hasStation: () => false,
        inhibitedBy: () => [],
        simulator: () => null,
      } as unknown as LiveBackendDeps['billAcceptors'];
      const shoe = { simulator: () => null, testNextCard: () => () => undefined, whenGateOpen: () => undefined } as unknown as LiveBackendDeps['shoe'];
      const tests = deviceTests({ billAcceptors, shoe, table: t.table, testTimeoutMs: 5 }, journal);
      const switches = devices({ billAcceptors, shoe }, { shoeIdentity: () => ({}) }, journal, changes);
      const cases: [string, BackendResult][] = [
        ['serviceRefusal.deviceNotSwitchable', switches.setEnabled('BA-9', false, 'tech-1')],
        ['serviceRefusal.deviceNoAcceptor', await tests.testNote(9, 'tech-1')],
        ['serviceRefusal.deviceNoCard', await tests.testCard('tech-1')],
      ];
      const cut = tests.testCard('tech-1');
      tests.dispose();
      cases.push(['serviceRefusal.deviceStopping', await cut]);
      // A round held on a card the shoe could not read: the shoe is in use.
      credit(t.ledger, 2, 50_000);
      const bet = { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 } as const;
      assert.equal(submitted(t.hub.commands.submit('station/2', t.hub.version('station/2'), bet)).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onAnomaly('unreadable', null);
      cases.push(['serviceRefusal.deviceShoeInUse', await tests.testCard('tech-1')]);
      for (const [key, r] of cases) assertWordsEverywhere(noticeOf(r, key), key);
      assert.deepEqual(
        cases.map(([, r]) => !r.ok && r.code),
        ['no-device', 'no-device', 'timeout', 'refused', 'busy'],
      );
    } finally {
      t.close();
    }
  });

  it("devices: an acceptor that takes no notes names each cause in the reader's words, the technician's switch and each fault", async () => {
    const t = testTable();
    try {
      const journal = serviceJournal(t.ledger, changeSignal());
      // Station 2's acceptor, switched off by a technician and jammed.
      const billAcceptors = {
        statuses: () => [{ station: 2, device: 'BA-2', spec: 'sim', state: 'ready', lastEvent: null }],
        inhibitedBy: () => ['service-disable', 'tilt:bill-jam'],
        simulator: () => null,
      } as unknown as LiveBackendDeps['billAcceptors'];
      const shoe = { simulator: () => null } as unknown as LiveBackendDeps['shoe'];
      const tests = deviceTests({ billAcceptors, shoe, table: t.table, testTimeoutMs: 5 }, journal);
      const r = await tests.testNote(2, 'tech-1');
      tests.dispose();
      assert.equal(!r.ok && r.code, 'inhibited');
      const s = noticeOf(r, 'serviceRefusal.deviceInhibited');
      assertWordsEverywhere(s, 'deviceInhibited');
      for (const language of LANGUAGES) {
        const i18n = createI18n(language);
        const words = wordsIn(language, s);
        assert.ok(words.includes(i18n.t('service.field.disabledByService')), `${language}: ${words}`);
        assert.ok(words.includes(i18n.t('tilt.bill-jam')), `${language}: ${words}`);
        assert.doesNotMatch(words, /service-disable|tilt:|, tilt/, `${language}: no code, no list joined in code: ${words}`);
      }
      // The list joined in each language's way: Chinese by 及/和, not by a comma.
      assert.match(wordsIn('zh-Hant', s), /已於維修模式停用及收鈔機卡鈔/);
    } finally {
      t.close();
    }
  });

  it('meters and sync: a drop count the table cannot take, a retry with no upstream, each by its key', () => {
    const t = testTable();
    try {
      const changes = changeSignal();
      const journal = serviceJournal(t.ledger, changes);
      const part = meters({ ...t, stadium: undefined, log: pino({ level: 'silent' }) }, changes);
      const by = ['sup-1', 'sup-2'] as [string, string];
      const cases: [string, BackendResult][] = [
        ['serviceRefusal.dropNoStation', part.dropCount(99, [{ note: 100, count: 1 }], by)],
        ['serviceRefusal.dropNoSuchNote', part.dropCount(1, [{ note: 300, count: 1 }], by)],
        [
          'serviceRefusal.dropCountedTwice',
          part.dropCount(
            1,
            [
              { note: 100, count: 1 },
              { note: 100, count: 2 },
            ],
            by,
          ),
        ],
        ['serviceRefusal.syncNoUpstream', upstreamSync({ sync: null, log: silent }, journal).retry('tech-1')],
      ];
      for (const [key, r] of cases) assertWordsEverywhere(noticeOf(r, key), key);
      assert.equal(part.dropCount(1, [{ note: 100, count: 1 }], by).ok, true, 'a count the table can take is taken');
    } finally {
      t.close();
    }
  });

  it('tickets: a settlement by hand with no ticket (out or in) to settle is refused by its key', () => {
    const t = testTable();
    try {
      const changes = changeSignal();
      const none = tickets({ ledger: t.ledger, config: t.config }, changes);
      const floor = tickets({ ledger: t.ledger, config: t.config, floor: t.floor }, changes);
      const cases: [string, BackendResult][] = [
        ['serviceRefusal.ticketsNone', none.settle(1, '0000', 'void', ['sup-1', 'sup-2'])],
        ['serviceRefusal.ticketNoneInPrint', floor.settle(1, '0000', 'void', ['sup-1', 'sup-2'])],
        ['serviceRefusal.ticketInNoneHeld', none.settleIn({ station: 1, seq: 1, last4: '0000' }, 'stacked', ['sup-1', 'sup-2'])],
      ];
      none.dispose();
      floor.dispose();
      for (const [key, r] of cases) assertWordsEverywhere(noticeOf(r, key), key);
    } finally {
      t.close();
    }
  });

  it('remote stations: enrolling a station that is not remote, revoking one with no credential, each by its key', () => {
    const t = testTable();
    try {
      const changes = changeSignal();
      const part = enrolment({ stadium: undefined, log: pino({ level: 'silent' }) }, () => 0, serviceJournal(t.ledger, changes), changes);
      const cases: [string, BackendResult][] = [
        ['serviceRefusal.stationNotRemote', part.enrol(7, ['sup-1', 'sup-2'], { enterSeq: 1, who: 'Ana Lei (1001)' })],
        ['serviceRefusal.stationNoCredential', part.revoke(7, ['sup-1', 'sup-2'])],
      ];
      part.dispose();
      for (const [key, r] of cases) assertWordsEverywhere(noticeOf(r, key), key);
    } finally {
      t.close();
    }
  });

  it('peer tables: every act on a host that keeps none is refused by its key, as not available', () => {
    const t = testTable();
    try {
      const changes = changeSignal();
      const part = peerActions({ peers: undefined, log: pino({ level: 'silent' }) }, () => 0, serviceJournal(t.ledger, changes), changes);
      const by = ['sup-1', 'sup-2'] as [string, string];
      const results = [
        part.add('{}', [], by),
        part.revoke('bj-1', by),
        part.issueFile('bj-1', by, { enterSeq: 1, who: 'Ana Lei (1001)' }),
        part.withdraw('bj-1', by),
      ];
      part.dispose();
      for (const r of results) {
        assert.equal(!r.ok && r.code, 'not-available');
        assertWordsEverywhere(noticeOf(r, 'serviceRefusal.peersNone'), 'peersNone');
      }
    } finally {
      t.close();
    }
  });

  it('service actions whose session ended, a forced reconnect of real hardware, an enrolment the host could not write, each by its key', () => {
    const t = testTable();
    try {
      const changes = changeSignal();
      const journal = serviceJournal(t.ledger, changes);
      const actor = { by: ['sup-1', 'sup-2'], role: 'supervisor' as const, session: null };
      const b = fakeBackend().backend;
      const noDevices = {
        billAcceptors: { simulator: () => null } as unknown as LiveBackendDeps['billAcceptors'],
        shoe: { simulator: () => null } as unknown as LiveBackendDeps['shoe'],
      };
      const switches = devices(noDevices, { shoeIdentity: () => ({}) }, journal, changes);
      // A stadium whose enrolment cannot be written (its journal or file refused).
      const stadium = {
        stations: () => [101],
        enrol: () => {
          throw new Error('EROFS: read-only file system');
        },
      } as unknown as LiveBackendDeps['stadium'];
      const part = enrolment({ stadium, log: pino({ level: 'silent' }) }, () => 0, journal, changes);
      const cases: [string, BackendResult | Promise<BackendResult>][] = [
        ['serviceRefusal.sessionEndedEnrol', routeAction(b, { kind: 'station-enrol', station: 101 }, actor)],
        ['serviceRefusal.sessionEndedPeerFile', routeAction(b, { kind: 'peer-issue', table: 'bj-1' }, actor)],
        ['serviceRefusal.deviceReconnectHardware', switches.reconnect('shoe', 'tech-1')],
        ['serviceRefusal.stationEnrolFailed', part.enrol(101, ['sup-1', 'sup-2'], { enterSeq: 1, who: 'Ana Lei (1001)' })],
      ];
      part.dispose();
      for (const [key, r] of cases) {
        assert.ok(!(r instanceof Promise));
        assertWordsEverywhere(noticeOf(r, key), key);
      }
      const failed = cases[3]![1] as BackendResult;
      // The kind of failure, said by its noun in each language; the system's English is the log's, not the screen's.
      assert.equal(!failed.ok && failed.notice?.values.failure, 'read-only');
      assert.ok(!JSON.stringify(failed).includes('EROFS'), JSON.stringify(failed));
      assert.equal(!(cases[2]![1] as BackendResult).ok && (cases[2]![1] as { code: string }).code, 'not-available');
    } finally {
      t.close();
    }
  });

  it('accounts: a lock lifted that is not there, of nobody, by its own account or by no supervisor, each by its key', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'refusal-words-accounts-'));
    const FAST = { N: 2 ** 10, r: 8, p: 1 };
    try {
      const journal = memoryAccountJournal();
      const store = new AccountStore(dir, { scrypt: FAST, journal: journal.journal });
      const ana = await store.add({ name: 'Ana', role: 'supervisor', pin: '482915', staff: '1001' }, null);
      const bo = await store.add({ name: 'Bo', role: 'technician', pin: '739164', staff: '1002' }, { staff: '1001', pin: '482915' });
      const refusal = (f: () => unknown): AccountError => {
        try {
          f();
        } catch (e) {
          if (e instanceof AccountError) return e;
          throw e;
        }
        assert.fail('not refused');
      };
      const cases: [string, AccountError][] = [
        ['serviceRefusal.accountUnknown', refusal(() => store.unlockBy('9999', ana))],
        ['serviceRefusal.accountNotLocked', refusal(() => store.unlockBy('1002', ana))],
        ['serviceRefusal.unlockOwnLock', refusal(() => store.unlockBy('1001', ana))],
        ['serviceRefusal.unlockNotSupervisor', refusal(() => store.unlockBy('1001', bo))],
      ];
      store.close();
      // The same folder opened without its ledger: its journalled accounts are not changed behind the journal.
      const bare = new AccountStore(dir, { scrypt: FAST });
      cases.push(['serviceRefusal.accountsJournalled', refusal(() => bare.unlockBy('1002', ana))]);
      bare.close();
      for (const [key, e] of cases) {
        assert.ok(e.say, `${key}: said by key`);
        assert.equal(e.say.key, key);
        assert.equal(e.message, inEnglish(e.say), `${key}: the command line's English is the en catalogue's`);
        assertWordsEverywhere(e.say, key);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("round actions: the table's refusals of a supervisor's act (a void, a card entered, a dealing error reported or corrected) each by its key", () => {
    const t = testTable({ game: 'blackjack' });
    const war = testTable({ game: 'war' });
    try {
      const part = roundActions(t);
      const round = () => t.table.reads.view().roundId ?? '';
      const two = ['sup-1', 'wit-2'] as [string, string];
      const dealt = (x: TestTable, codes: string) => {
        for (const c of codes.split(' ')) x.table.shoe.onCard(parseCard(c));
      };
      const cases: [string, BackendResult][] = [
        ['serviceRefusal.roundNoneToVoid', part.voidRound(round(), 'nothing', two)],
        ['serviceRefusal.roundNotInPlay', part.reportDealingError(round(), 'sup-1')],
        ['serviceRefusal.roundNotOnHold', part.enterCard(round(), '5S', two)],
      ];
      // A round in play: seat 1 dealt 5S 6D against the dealer's 6H, deciding.
      credit(t.ledger, 1, 100_000);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      dealt(t, '5S 6H 6D');
      cases.push(
        ['serviceRefusal.roundNoReporter', part.reportDealingError(round(), ' ')],
        ['serviceRefusal.roundVoidNeedsTwo', part.voidRound(round(), 'one person', ['sup-1', ' '])],
        ['serviceRefusal.roundSamePerson', part.voidRound(round(), 'one person twice', ['sup-1', 'sup-1'])],
      );
      assert.equal(part.reportDealingError(round(), 'sup-1').ok, true);
      cases.push(
        ['serviceRefusal.roundAlreadyOnHold', part.reportDealingError(round(), 'sup-1')],
        ['serviceRefusal.roundCorrectionNotOrdered', part.correct(round(), 'undue-card', two)],
        ['serviceRefusal.roundCorrectionNeedsTwo', part.correct(round(), 'exposed-card', ['sup-1', ''])],
        ['serviceRefusal.roundHoldVoids', part.enterCard(round(), '5S', two)],
      );
      dealt(t, '9C'); // a card read during the hold: the deal cannot be put right
      cases.push(['serviceRefusal.roundCardsAfterCorrection', part.correct(round(), 'exposed-card', two)]);
      // War keeps a card come out face up (Art. 3): no exposed-card correction.
      const warPart = roundActions(war);
      credit(war.ledger, 1, 50_000);
      assert.equal(war.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      war.clock.runOut(war.table.reads.view().endsAt);
      dealt(war, '9S');
      assert.equal(warPart.reportDealingError(war.table.reads.view().roundId ?? '', 'sup-1').ok, true);
      cases.push(['serviceRefusal.roundCorrectionForbidden', warPart.correct(war.table.reads.view().roundId ?? '', 'exposed-card', two)]);
      for (const [key, r] of cases) assertWordsEverywhere(noticeOf(r, key), key);
      assert.deepEqual(
        cases.slice(0, 3).map(([, r]) => !r.ok && r.code),
        ['no-round', 'refused', 'refused'],
        'a void with no round keeps its code, the others are refusals',
      );
      const forbidden = cases.at(-1)![1];
      assert.equal(!forbidden.ok && forbidden.notice?.values.article, 'macau-war [art.3]', 'the article exactly as the text names it');
    } finally {
      t.close();
      war.close();
    }
  });

  it("a table's refusal that names no act is said by a key all the same, never in the table's English", () => {
    const t = testTable({ game: 'blackjack' });
    try {
      // The table's own English, with no act and no refusal code: what a game's guard or a step may answer.
      const english = 'ENGLISH ONLY: the step could not be taken';
      const unsaid = () => ({ ok: false as const, reason: english });
      const table = Object.create(t.table, {
        input: { value: unsaid },
        supervisor: { value: { ...t.table.supervisor, voidRound: unsaid, correct: unsaid, reportDealingError: unsaid, enterCard: unsaid } },
        shoe: { value: { ...t.table.shoe, onNewShoe: unsaid } },
      }) as typeof t.table;
      const d = { ...t, table };
      const round = t.table.reads.view().roundId ?? '';
      const two = ['sup-1', 'wit-2'] as [string, string];
      const changes = changeSignal();
      const results: BackendResult[] = [
        roundActions(d).voidRound(round, 'why', two),
        roundActions(d).reportDealingError(round, 'sup-1'),
        tableActions({ ...d, shoe: { simulator: () => null }, log: silent }, serviceJournal(t.ledger, changes)).newShoe('sup-1'),
        jackpot(d, changes).reset('main', 2_000_000, 'IGJ-2026-17', ['S1', 'W1']),
      ];
      for (const r of results) {
        assert.ok(!r.ok && r.notice, `a notice for the screen: ${JSON.stringify(r)}`);
        if (r.ok) continue;
        assert.equal(r.notice.key, 'serviceRefusal.tableRefused');
        // The table's English is the log's (service-host.ts logs each refused action's detail).
        assert.equal(r.detail, english);
        const s = { key: r.notice.key, values: r.notice.values } as Said;
        assertWordsEverywhere(s, 'tableRefused');
        for (const language of LANGUAGES) assert.doesNotMatch(wordsIn(language, s), /ENGLISH ONLY/, `${language}: no English of the table's`);
      }
    } finally {
      t.close();
    }
  });

  it('round actions: a card entered by hand refused by its key (one person, cards read after the unreadable one)', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      const part = roundActions(t);
      const round = () => t.table.reads.view().roundId ?? '';
      credit(t.ledger, 1, 100_000);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onAnomaly('unreadable', null, 41);
      const cases: [string, BackendResult][] = [['serviceRefusal.roundEntryNeedsTwo', part.enterCard(round(), '5S', ['sup-1', ''])]];
      t.table.shoe.onCard(parseCard('5C'), 42);
      cases.push(['serviceRefusal.roundCardsAfterEntry', part.enterCard(round(), '5S', ['sup-1', 'wit-2'])]);
      for (const [key, r] of cases) assertWordsEverywhere(noticeOf(r, key), key);
      assert.equal(!cases[1]![1].ok && cases[1]![1].notice?.values.sequences, '42');
    } finally {
      t.close();
    }
  });

  it("jackpot: the table's refusals of a reset (no progressive here, a round in play) by their keys", () => {
    const t = testTable({ game: 'blackjack' });
    try {
      const part = jackpot(t, changeSignal());
      const cases: [string, BackendResult][] = [['serviceRefusal.jackpotNone', part.reset('main', 2_000_000, 'IGJ-2026-17', ['S1', 'W1'])]];
      credit(t.ledger, 1, 100_000);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      cases.push(['serviceRefusal.jackpotBetweenRounds', part.reset('main', 2_000_000, 'IGJ-2026-17', ['S1', 'W1'])]);
      for (const [key, r] of cases) assertWordsEverywhere(noticeOf(r, key), key);
    } finally {
      t.close();
    }
  });

  it('jackpot: a reset under an authorisation a reset already used, by its key, naming that reset', () => {
    const t = testTable({
      game: 'blackjack',
      config: {
        profile: 'portugal-2001',
        profileAuthorisation: 'TEST-IGJ',
        profileOptions: { jackpot: true, jackpotCards: 3, jackpotProgram: EXAMPLE_JACKPOT_PROGRAM },
      },
    });
    try {
      const part = jackpot(t, changeSignal());
      assert.equal(part.reset('main', 2_000_000, 'IGJ-2026-17', ['S1', 'W1']).ok, true);
      const s = noticeOf(part.reset('main', 2_000_000, ' igj-2026-17 ', ['S1', 'W1']), 'serviceRefusal.jackpotAuthorisationUsed');
      assertWordsEverywhere(s, 'jackpotAuthorisationUsed');
      assert.match(wordsIn('en', s), /^authorisation IGJ-2026-17 was used already: it reset level main to MOP\$20,000 \(journal entry \d+\)/);
    } finally {
      t.close();
    }
  });

  it("every way the table says a supervisor's act is refused has a key, its facts every placeholder", () => {
    // One of each (the record's type asks for every `why`): a new one without words fails to compile.
    const each: Record<ActRefusal['why'], ActRefusal[]> = {
      'not-on-hold': [{ why: 'not-on-hold' }],
      'no-round-in-play': [{ why: 'no-round-in-play' }],
      'none-to-void': [{ why: 'none-to-void' }],
      'no-reporter': [{ why: 'no-reporter' }],
      'same-person': [{ why: 'same-person' }],
      'no-card-now': [{ why: 'no-card-now' }],
      'no-card-between': [{ why: 'no-card-between' }],
      'no-card-to-discard': [{ why: 'no-card-to-discard' }],
      'no-card-to-keep': [{ why: 'no-card-to-keep' }],
      'nobody-asks': [{ why: 'nobody-asks' }],
      'no-card-dealt': [{ why: 'no-card-dealt' }],
      'decision-followed': [{ why: 'decision-followed' }],
      'card-not-of-round': [{ why: 'card-not-of-round' }],
      'jackpot-between-rounds': [{ why: 'jackpot-between-rounds' }],
      'jackpot-none': [{ why: 'jackpot-none' }],
      'not-journalled': [{ why: 'not-journalled' }],
      'needs-two': [
        { why: 'needs-two', act: 'card-entry' },
        { why: 'needs-two', act: 'void' },
        { why: 'needs-two', act: 'correction' },
      ],
      'hold-voids': [{ why: 'hold-voids', hold: 'out-of-turn' }],
      'already-on-hold': [{ why: 'already-on-hold', hold: 'unreadable' }],
      'cards-after-hold': [
        { why: 'cards-after-hold', act: 'card-entry', count: 2, sequences: '42, 43' },
        { why: 'cards-after-hold', act: 'correction', count: 1, sequences: '42' },
      ],
      'beyond-inventory': [{ why: 'beyond-inventory', card: 'AS' }],
      'correction-not-ordered': [{ why: 'correction-not-ordered', game: 'blackjack', profile: 'macau-2009', correction: 'undue-card', hold: 'dealing-error' }],
      'correction-forbidden': [{ why: 'correction-forbidden', correction: 'exposed-card', article: 'macau-war [art.3]' }],
      'card-stands': [{ why: 'card-stands', article: 'macau-baccarat art.4' }],
      'dealt-face-up': [{ why: 'dealt-face-up', step: 'hit' }],
      'jackpot-no-level': [{ why: 'jackpot-no-level', level: 'grand' }],
      'jackpot-below-minimum': [{ why: 'jackpot-below-minimum', to: 999_999, stake: 100, min: 1_000_000, article: 'portugal-2001 rule 44' }],
      'jackpot-below-held': [{ why: 'jackpot-below-held', level: 'main', held: 2_000_000 }],
    };
    const keys = new Set<string>();
    for (const a of Object.values(each).flat()) {
      const s = actSaid(a, 'MOP');
      keys.add(s.key);
      assertWordsEverywhere(s, a.why);
    }
    assert.equal(keys.size, 31, 'each its own key');
    // Amounts are money in the table's currency, never minor units.
    const below = actSaid({ why: 'jackpot-below-minimum', to: 999_999, stake: 100, min: 1_000_000, article: 'portugal-2001 rule 44' }, 'MOP');
    assert.match(wordsIn('en', below), /^MOP\$9,999\.99 is below 10,000 × the chip of MOP\$1 = MOP\$10,000 \(Portaria 1364\/2001, rule 44\)$/);
  });

  it("a supervisor's act refused names a hold, a correction, a game, a profile and a card by their nouns, never their codes", () => {
    const read = (language: (typeof LANGUAGES)[number], a: ActRefusal) => {
      const s = actSaid(a, 'MOP');
      // The back office's reader; the service screen's and the log's read through the same words (locales/said.ts).
      return refusalWords({ language, t: createI18n(language).t, time: (x) => x }, { reason: 'ENGLISH', said: { key: s.key, values: { ...s.values } } });
    };
    const voids = read('zh-Hant', { why: 'hold-voids', hold: 'extra-card' });
    assert.doesNotMatch(voids, /extra-card/, voids);
    assert.match(voids, /多出一張牌/, voids);
    const notOrdered: ActRefusal = { why: 'correction-not-ordered', game: 'blackjack', profile: 'macau-2009', correction: 'undue-card', hold: 'dealing-error' };
    for (const language of LANGUAGES) {
      const words = read(language, notOrdered);
      assert.doesNotMatch(words, /blackjack|macau-2009|undue-card|dealing-error/, `${language}: ${words}`);
    }
    assert.match(read('zh-Hant', notOrdered), /二十一點.*第57\/2009號批示.*派牌錯誤.*不當派出的紙牌/, read('zh-Hant', notOrdered));
    assert.match(read('pt', { why: 'correction-forbidden', correction: 'exposed-card', article: 'macau-war [art.3]' }), /carta exposta/);
    // The log's English says the card as the engine once did.
    assert.equal(inEnglish(actSaid({ why: 'dealt-face-up', step: 'first' }, 'MOP')), "the player's first card is dealt face up: exposed, it stands");
    // A code the catalogues have no noun for is said as itself.
    assert.match(read('zh-Hant', { why: 'dealt-face-up', step: 'next-card' }), /next-card/);
  });
});
