import type { Logger } from 'pino';
import { serviceSaid } from '../../../locales/said.js';
import { refusedBy } from '../refusal-words.js';
import type { BackendResult, DevicesPart } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';
import type { ServiceJournal } from './service-journal.js';

/** A note test at an acceptor and a card test at the shoe, each waiting for the technician; ended when the host stops. */
export interface DeviceTests extends Pick<DevicesPart, 'testNote' | 'testCard'> {
  dispose(): void;
}

export function deviceTests(
  d: Pick<LiveBackendDeps, 'billAcceptors' | 'shoe' | 'table' | 'testTimeoutMs'> & Partial<Pick<LiveBackendDeps, 'log'>>,
  journal: ServiceJournal,
): DeviceTests {
  /** Tests waiting for the technician. */
  const running = new Set<() => void>();

  /** A device test that waits for a note or a card, ended by its result, its time-out or the host stopping. */
  const waitForTest = <T>(
    arm: (done: (value: T) => void) => () => void,
    onValue: (value: T) => BackendResult,
    onTimeout: () => BackendResult,
  ): Promise<BackendResult> =>
    new Promise((resolve) => {
      let finished = false;
      const finish = (r: () => BackendResult) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        disarm();
        running.delete(stopNow);
        resolve(journalled(r, d.log));
      };
      const disarm = arm((v) => finish(() => onValue(v)));
      const timer = setTimeout(() => finish(onTimeout), d.testTimeoutMs ?? 60_000);
      const stopNow = () => finish(() => refusedBy(serviceSaid('deviceStopping')));
      running.add(stopNow);
    });

  return {
    testNote(station, who) {
      const device = `BA-${station}`;
      if (!d.billAcceptors.statuses().some((s) => s.station === station))
        return Promise.resolve(refusedBy(serviceSaid('deviceNoAcceptor', { station }), 'no-device'));
      // An inhibited acceptor would hold the note at its mouth until the test timed out: say why now,
      // each cause (the technician's switch, a fault) in the reader's words (locales/said.ts `causes`).
      const inhibitedBy = d.billAcceptors.inhibitedBy(station);
      if (inhibitedBy.length > 0) return Promise.resolve(refusedBy(serviceSaid('deviceInhibited', { station, causes: inhibitedBy.join(' ') }), 'inhibited'));
      const result = waitForTest<{ denomination: number; currency: string }>(
        (done) => d.billAcceptors.testNextNote(station, done),
        (note) => {
          journal.test(who, device, 'note', `note ${note.denomination} ${note.currency} validated and returned`);
          return { ok: true, key: 'service.done.testNote', values: { device, value: note.denomination, currency: note.currency } };
        },
        () => {
          journal.test(who, device, 'note', 'no note inserted before the time-out');
          return refusedBy(serviceSaid('deviceNoNote'), 'timeout');
        },
      );
      // The simulated acceptor gets a note at once; a real one waits for the technician's note.
      d.billAcceptors.simulator(station)?.insertNote(100);
      return result;
    },

    testCard(who) {
      const v = d.table.reads.view();
      if (v.phase === 'dealing' || v.phase === 'hold' || v.cue) return Promise.resolve(refusedBy(serviceSaid('deviceShoeInUse'), 'busy'));
      const result = waitForTest<string>(
        (done) => d.shoe.testNextCard(done),
        (card) => {
          journal.test(who, 'shoe', 'card', `read ${card}`);
          return { ok: true, key: 'service.done.testCard', values: { card } };
        },
        () => {
          journal.test(who, 'shoe', 'card', 'no card drawn before the time-out');
          return refusedBy(serviceSaid('deviceNoCard'), 'timeout');
        },
      );
      // The gate opens for the test a moment later (a command to the shoe): the simulated card waits for it.
      d.shoe.whenGateOpen(() => d.shoe.simulator()?.drawCard());
      return result;
    },

    dispose() {
      for (const end of [...running]) end();
    },
  };
}

/**
 * A test's answer, which journals its `service.test` record. It runs in a device's callback (the
 * acceptor's escrow, the shoe's card) or the test's timer, where a throw reaches the device or ends
 * the host and leaves the test unanswered: a record the journal refuses (a full disk) is answered
 * as not journalled instead.
 */
function journalled(r: () => BackendResult, log: Pick<Logger, 'error'> | undefined): BackendResult {
  try {
    return r();
  } catch (err) {
    log?.error({ err }, 'a device test ended; the journal refused its service.test record');
    return refusedBy(serviceSaid('actNotJournalled'));
  }
}
