import type { BackendResult, ServiceBackend } from '../service-backend.js';

/** A backend method that records each call in `calls` and answers `result()`. */
function recorder(calls: { method: string; args: unknown[] }[]) {
  return (method: string, result: () => BackendResult) =>
    (...args: unknown[]) => {
      calls.push({ method, args });
      return result();
    };
}

/** Pages a table without a progressive or ticket printers shows. */
const EMPTY_PAGES: Pick<ServiceBackend, 'jackpot' | 'tickets'> = {
  jackpot: () => ({ reference: null, stake: null, pools: null, stopped: false, history: [], hits: [] }),
  tickets: () => ({ limit: 5_000_000, machineId: null, printers: [], faults: [], out: [], in: [] }),
};

/** Two tickets held after a jam: one under the two-person amount, one above it. */
const HELD: Pick<ServiceBackend, 'heldTickets'> = {
  heldTickets: () => [
    { station: 2, last4: '1111', amount: 500_000, since: '2026-01-01T00:00:00.000Z' },
    { station: 3, last4: '5032', amount: 2_000_000, since: '2026-01-01T00:00:00.000Z' },
  ],
};

/** The peer tables' part: none listed, each action recorded; bj-2's enrolment file waits. */
function peerFakes(
  record: ReturnType<typeof recorder>,
  ok: (key: string) => BackendResult,
): Pick<ServiceBackend, 'peerTables' | 'addPeer' | 'revokePeer' | 'issuePeerFile' | 'withdrawPeer' | 'takePeerFile'> {
  return {
    peerTables: () => ({ transfers: false, peers: [] }),
    addPeer: record('addPeer', () => ok('service.done.peerAdd')),
    revokePeer: record('revokePeer', () => ok('service.done.peerRevoke')),
    issuePeerFile: record('issuePeerFile', () => ok('service.done.peerIssue')),
    withdrawPeer: record('withdrawPeer', () => ok('service.done.peerWithdraw')),
    takePeerFile: (table) => (table === 'bj-2' ? '{"table":"bj-2"}' : null),
  };
}

/**
 * A service backend that records every call, for the unit tests of the service view and its
 * pages (the real one needs a running host). Results can be set per method.
 */
export function fakeBackend(overrides: Partial<ServiceBackend> = {}) {
  const calls: { method: string; args: unknown[] }[] = [];
  const journal: { type: string; payload: Record<string, unknown> }[] = [];
  const listeners = new Set<() => void>();
  const ok = (key: string): BackendResult => ({ ok: true, key });
  const record = recorder(calls);
  const backend: ServiceBackend = {
    tableId: 'T-FAKE',
    currency: 'MOP',
    softwareVersion: '9.9.9',
    twoPersonHandpayAbove: 1_000_000,
    table: () => ({ game: 'blackjack', profile: 'macau-2009', phase: 'hold', roundId: 'R-1', hold: 'unreadable', newBets: false }),
    devices: () => [{ device: 'BA-1', kind: 'bill-acceptor', station: 1, spec: 'sim', state: 'ready', lastEvent: 'idle', enabled: true }],
    trace: () => [{ ts: '2026-01-01T00:00:00.000Z', device: 'BA-1', event: '{"type":"idle"}' }],
    frames: () => [{ ts: '2026-01-01T00:00:00.000Z', dir: 'tx', hex: 'FC 05 11 27 56', meaning: 'STATUS REQUEST', count: 3 }],
    sync: () => null,
    tilts: () => null,
    meters: () => [{ scope: 'table', meters: [{ name: 'totalIn', unit: 'money', value: 5 }] }],
    recall: () => ({ rounds: [], more: false }),
    events: () => ({ entries: [], more: false }),
    cancelledCredits: () => [],
    config: () => [{ key: 'game', value: 'blackjack', editable: false }],
    configExtras: () => ({ notes: [10, 20, 50, 100, 500, 1000], bets: ['main'], queued: [], changes: [] }),
    checkConfigChange: (key) => (key === 'seats' ? { detail: `"${key}" cannot change while the host runs` } : null),
    pendingHandpays: () => [
      { station: 2, amount: 500_000, requestTxId: 'small' },
      { station: 3, amount: 2_000_000, requestTxId: 'large' },
    ],
    programHashAtStart: () => 'a'.repeat(64),
    programHashLatest: () => null,
    metersCsv: () => 'scope,meter,value\r\n',
    metersJson: () => '{}',
    metersHtml: (language) => `<html lang="${language}"></html>`,
    evidenceJson: (roundId) => (roundId === 'R-1' ? '{"round":"R-1"}' : null),
    voidRound: record('voidRound', () => ok('service.done.voidRound')),
    enterCard: record('enterCard', () => ok('service.done.enterCard')),
    correct: record('correct', () => ok('service.done.correct')),
    reportDealingError: record('reportDealingError', () => ok('service.done.dealingError')),
    clearMeters: record('clearMeters', () => ok('service.done.meterClear')),
    changeConfig: record('changeConfig', () => ok('service.done.configChange')),
    confirmHandpay: record('confirmHandpay', () => ok('service.done.handpay')),
    settleTicket: record('settleTicket', () => ok('service.done.ticketVoid')),
    remoteStations: () => ({
      lan: 'https://127.0.0.1:8443',
      fingerprint: 'AA:BB',
      stations: [{ station: 101, enrolled: false, screen: false, acceptor: false }],
    }),
    enrolStation: record('enrolStation', () => ok('service.done.stationEnrol')),
    revokeStation: record('revokeStation', () => ok('service.done.stationRevoke')),
    dropCount: record('dropCount', () => ok('service.done.cashboxDrop')),
    ...EMPTY_PAGES,
    ...HELD,
    ...peerFakes(record, ok),
    resetJackpot: record('resetJackpot', () => ok('service.done.jackpotReset')),
    takeEnrolment: (station) => (station === 101 ? '{"station":101}' : null),
    sessionEnded: () => undefined,
    newShoe: record('newShoe', () => ok('service.done.newShoe')),
    setTableOpen: record('setTableOpen', () => ok('service.done.tableOpen')),
    clearTilt: record('clearTilt', () => ok('service.done.clearTilt')),
    testNote: (...args) => Promise.resolve(record('testNote', () => ok('service.done.testNote'))(...args)),
    testCard: (...args) => Promise.resolve(record('testCard', () => ok('service.done.testCard'))(...args)),
    setDeviceEnabled: record('setDeviceEnabled', () => ok('service.done.enabled')),
    reconnectDevice: record('reconnectDevice', () => ok('service.done.reconnect')),
    retrySync: record('retrySync', () => ok('service.done.syncRetry')),
    computeProgramHash: (...args) => Promise.resolve(record('computeProgramHash', () => ok('service.done.hashSame'))(...args)),
    journalEnter: (who, staff, role) => journal.push({ type: 'service.enter', payload: { who, staff, role } }),
    journalExit: (who, staff, reason, enterSeq) => void journal.push({ type: 'service.exit', payload: { who, staff, reason, enterSeq } }),
    closeOpenSessions: () => 0,
    journalDenied: (staff, reason) => void journal.push({ type: 'service.denied', payload: { staff, reason } }),
    raiseFault: (kind, detail) => void journal.push({ type: 'tilt.raise', payload: { kind, detail } }),
    onChange: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    ...overrides,
  };
  return { backend, calls, journal, changed: () => listeners.forEach((l) => l()) };
}
