import { inEnglish } from '../../../locales/said.js';
import type { BackendResult, DevicesPart, HoldsPart, MetersPart, PeersPart, ServiceBackend, SessionJournal, TicketsPart } from '../service-backend.js';

/** A backend method that records each call in `calls` and answers `result()`. */
function recorder(calls: { method: string; args: unknown[] }[]) {
  return (method: string, result: () => BackendResult) =>
    (...args: unknown[]) => {
      calls.push({ method, args });
      return result();
    };
}

/**
 * Pages a table without a progressive or ticket printers shows; two tickets held after a jam and two
 * tickets in held after an acceptor's dispute: of each, one under the two-person amount, one above it.
 */
function ticketFakes(record: ReturnType<typeof recorder>, ok: (key: string) => BackendResult): TicketsPart {
  return {
    page: () => ({ limit: 5_000_000, machineId: null, printers: [], faults: [], out: [], in: [] }),
    held: () => [
      { station: 2, last4: '1111', amount: 500_000, since: '2026-01-01T00:00:00.000Z' },
      { station: 3, last4: '5032', amount: 2_000_000, since: '2026-01-01T00:00:00.000Z' },
    ],
    settle: record('tickets.settle', () => ok('service.done.ticketVoid')),
    heldIn: () => [
      { station: 2, seq: 41, last4: '2222', amount: 500_000, since: '2026-01-01T00:00:00.000Z' },
      { station: 3, seq: 57, last4: '6043', amount: 2_000_000, since: '2026-01-01T00:00:00.000Z' },
    ],
    settleIn: record('tickets.settleIn', () => ok('service.done.ticketInStacked')),
  };
}

/** The peer tables' part: none listed, each action recorded; bj-2's enrolment file waits. */
function peerFakes(record: ReturnType<typeof recorder>, ok: (key: string) => BackendResult): PeersPart {
  return {
    page: () => ({ transfers: false, open: [], peers: [] }),
    add: record('peers.add', () => ok('service.done.peerAdd')),
    revoke: record('peers.revoke', () => ok('service.done.peerRevoke')),
    issueFile: record('peers.issueFile', () => ok('service.done.peerIssue')),
    withdraw: record('peers.withdraw', () => ok('service.done.peerWithdraw')),
    takeFile: (table) => (table === 'bj-2' ? '{"table":"bj-2"}' : null),
    settle: record('peers.settle', () => ok('service.done.transferSettleReversed')),
  };
}

/** The Holds page's part: a round held for an unreadable card; every action recorded. */
function holdsFakes(record: ReturnType<typeof recorder>, ok: (key: string) => BackendResult): HoldsPart {
  return {
    table: () => ({ game: 'blackjack', profile: 'macau-2009', phase: 'hold', roundId: 'R-1', hold: 'unreadable', newBets: false }),
    voidRound: record('holds.voidRound', () => ok('service.done.voidRound')),
    enterCard: record('holds.enterCard', () => ok('service.done.enterCard')),
    correct: record('holds.correct', () => ok('service.done.correct')),
    reportDealingError: record('holds.reportDealingError', () => ok('service.done.dealingError')),
    newShoe: record('holds.newShoe', () => ok('service.done.newShoe')),
    setTableOpen: record('holds.setTableOpen', () => ok('service.done.tableOpen')),
  };
}

/** The Devices page's part: one acceptor, its trace and a frame; switches and tests recorded. */
function deviceFakes(record: ReturnType<typeof recorder>, ok: (key: string) => BackendResult): DevicesPart {
  return {
    list: () => [{ device: 'BA-1', kind: 'bill-acceptor', station: 1, spec: 'sim', state: 'ready', lastEvent: 'idle', enabled: true }],
    trace: () => [{ ts: '2026-01-01T00:00:00.000Z', device: 'BA-1', event: 'idle', facts: 'enabled=true' }],
    frames: () => [{ ts: '2026-01-01T00:00:00.000Z', dir: 'tx', hex: 'FC 05 11 27 56', meaning: 'STATUS REQUEST', count: 3 }],
    setEnabled: record('devices.setEnabled', () => ok('service.done.enabled')),
    reconnect: record('devices.reconnect', () => ok('service.done.reconnect')),
    testNote: (...args) => Promise.resolve(record('devices.testNote', () => ok('service.done.testNote'))(...args)),
    testCard: (...args) => Promise.resolve(record('devices.testCard', () => ok('service.done.testCard'))(...args)),
    heldNotes: () => [],
    settleNote: record('devices.settleNote', () => ok('service.done.noteStacked')),
  };
}

/** The Meters page's part: one table meter, its exports; a clear and a drop recorded. */
function meterFakes(record: ReturnType<typeof recorder>, ok: (key: string) => BackendResult): MetersPart {
  return {
    scopes: () => [{ scope: 'table', meters: [{ name: 'totalIn', unit: 'money', value: 5 }] }],
    notes: () => [10, 20, 50, 100, 500, 1000],
    clear: record('meters.clear', () => ok('service.done.meterClear')),
    dropCount: record('meters.dropCount', () => ok('service.done.cashboxDrop')),
    csv: () => 'scope,meter,value\r\n',
    json: () => '{}',
    html: (language) => `<html lang="${language}"></html>`,
  };
}

/** The access journal: each entry pushed to `journal`. */
function sessionFakes(journal: { type: string; payload: Record<string, unknown> }[]): SessionJournal {
  return {
    enter: (who, staff, role) => journal.push({ type: 'service.enter', payload: { who, staff, role } }),
    exit: (who, staff, reason, enterSeq) => void journal.push({ type: 'service.exit', payload: { who, staff, reason, enterSeq } }),
    ended: () => undefined,
    journalHeldAtStop: () => undefined,
    closeOpen: () => 0,
    denied: (staff, reason) => {
      journal.push({ type: 'service.denied', payload: { staff, reason } });
      return true;
    },
    // As the tilt manager journals it: the detail in English, and by key where it was said so.
    raiseFault: (kind, at) =>
      void journal.push({ type: 'tilt.raise', payload: 'say' in at ? { kind, detail: inEnglish(at.say), say: at.say } : { kind, detail: at.detail } }),
  };
}

/**
 * A service backend that records every call (as `part.method`), for the unit tests of the service
 * view and its pages (the real one needs a running host). Parts can be replaced whole.
 */
export function fakeBackend(overrides: Partial<ServiceBackend> = {}) {
  const calls: { method: string; args: unknown[] }[] = [];
  const journal: { type: string; payload: Record<string, unknown> }[] = [];
  const listeners = new Set<() => void>();
  const ok = (key: string): BackendResult => ({ ok: true, key });
  const record = recorder(calls);
  const backend: ServiceBackend = {
    cabinet: { tableId: 'T-FAKE', currency: 'MOP', softwareVersion: '9.9.9', twoPersonHandpayAbove: 1_000_000 },
    status: {
      tilts: () => null,
      clearTilt: record('status.clearTilt', () => ok('service.done.clearTilt')),
      programHashAtStart: () => 'a'.repeat(64),
      programHashLatest: () => null,
      computeProgramHash: (...args) => Promise.resolve(record('status.computeProgramHash', () => ok('service.done.hashSame'))(...args)),
    },
    holds: holdsFakes(record, ok),
    devices: deviceFakes(record, ok),
    meters: meterFakes(record, ok),
    recall: { rounds: () => ({ rounds: [], more: false }), evidenceJson: (roundId) => (roundId === 'R-1' ? '{"round":"R-1"}' : null) },
    events: { list: () => ({ entries: [], more: false }) },
    config: {
      items: () => [{ key: 'game', value: 'blackjack', editable: false }],
      extras: () => ({ notes: [10, 20, 50, 100, 500, 1000], bets: ['main'], queued: [], changes: [] }),
      check: (key) =>
        key === 'seats'
          ? {
              detail: `"${key}" cannot change while the host runs`,
              notice: { key: 'configRefusal.notChangeable', values: { setting: key, changeable: 'betLimits' } },
            }
          : null,
      change: record('config.change', () => ok('service.done.configChange')),
    },
    cashout: {
      pending: () => [
        { station: 2, amount: 500_000, requestTxId: 'small' },
        { station: 3, amount: 2_000_000, requestTxId: 'large' },
      ],
      cancelledCredits: () => [],
      confirmHandpay: record('cashout.confirmHandpay', () => ok('service.done.handpay')),
    },
    tickets: ticketFakes(record, ok),
    sync: { summary: () => null, retry: record('sync.retry', () => ok('service.done.syncRetry')) },
    stations: {
      page: () => ({ lan: 'https://127.0.0.1:8443', fingerprint: 'AA:BB', stations: [{ station: 101, enrolled: false, screen: false, acceptor: false }] }),
      enrol: record('stations.enrol', () => ok('service.done.stationEnrol')),
      revoke: record('stations.revoke', () => ok('service.done.stationRevoke')),
      takeEnrolment: (station) => (station === 101 ? '{"station":101}' : null),
    },
    peers: peerFakes(record, ok),
    jackpot: {
      page: () => ({ reference: null, stake: null, pools: null, stopped: false, history: [], hits: [] }),
      reset: record('jackpot.reset', () => ok('service.done.jackpotReset')),
    },
    sessions: sessionFakes(journal),
    onChange: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    ...overrides,
  };
  return { backend, calls, journal, changed: () => listeners.forEach((l) => l()) };
}
