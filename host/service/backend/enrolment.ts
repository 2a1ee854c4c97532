import type { Logger } from 'pino';
import { EnrolmentDownloads, type DiscardedFile, type EnrolmentDiscard, type EnrolmentRefusal } from '../../stadium/enrolment-downloads.js';
import { serviceSaid } from '../../../locales/said.js';
import { refusedBy } from '../refusal-words.js';
import { FAULT_CODES, faultKind } from '../fault-words.js';
import type { StationsPart } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps, StadiumService } from './deps.js';
import { actDetailSaid, recordOrLog, type ServiceJournal } from './service-journal.js';

/** The journal's words (`journalSaid.*`) for a refused enrolment download and a discarded file. */
const ENROLMENT_REFUSED = {
  'no-file': 'actEnrolmentRefusedNoFile',
  'other-session': 'actEnrolmentRefusedOtherSession',
  expired: 'actEnrolmentRefusedExpired',
} as const satisfies Record<EnrolmentRefusal, string>;
const ENROLMENT_DISCARDED = {
  expired: 'actEnrolmentDiscardedExpired',
  'session-ended': 'actEnrolmentDiscardedSessionEnded',
  revoked: 'actEnrolmentDiscardedRevoked',
  're-enrolled': 'actEnrolmentDiscardedReEnrolled',
} as const satisfies Record<EnrolmentDiscard, string>;

export interface Enrolment extends StationsPart {
  sessionEnded(enterSeq: number): void;
  dispose(): void;
}

/**
 * The remote stations' page and their credentials: enrolled and revoked by two people, each new
 * enrolment file downloaded once, by the session that made it, before its deadline; a file not
 * taken is discarded and journalled.
 */
export function enrolment(d: Pick<LiveBackendDeps, 'stadium' | 'log'>, now: () => number, journal: ServiceJournal, changes: Changes): Enrolment {
  /** Enrolment files waiting for their one download, each by the session that enrolled its station. */
  const enrolments = new EnrolmentDownloads(now);
  // The file is gone whatever the journal says (its secret must not stay in memory), and a discard
  // comes from a timer or a session's end, where a throw ends the host: a refused record is logged.
  const journalDiscarded = (files: readonly DiscardedFile[]): void => {
    for (const f of files)
      recordOrLog(
        journal,
        d.log,
        [f.owner.who],
        'enrolment-discarded',
        actDetailSaid(ENROLMENT_DISCARDED[f.why], { station: f.station, session: f.owner.enterSeq }),
      );
  };
  // The secret does not stay in memory past its deadline, whether or not anyone looks.
  const timer = expiryTimer(
    enrolments,
    now,
    (gone) => {
      journalDiscarded(gone);
      if (gone.length > 0) changes.changed();
    },
    d.log,
  );

  return {
    page: (viewer) => stationRows(d.stadium, enrolments, viewer),

    enrol(station, authorisedBy, session) {
      const st = d.stadium;
      if (!st || !st.stations().includes(station)) return refusedBy(serviceSaid('stationNotRemote', { station }));
      let file: string;
      try {
        // The enrolment journals itself (service.action, both names); its file leaves the host once.
        file = st.enrol(station, authorisedBy);
      } catch (e) {
        // The screen is told the kind of failure (a full disk, a read-only folder) in its words; the system's English is the log's.
        d.log.error({ station, by: authorisedBy, error: e instanceof Error ? e.message : String(e) }, 'remote station not enrolled');
        return refusedBy(serviceSaid('stationEnrolFailed', { station, failure: FAULT_CODES[faultKind(e)] }));
      }
      journalDiscarded(enrolments.hold(station, file, session));
      timer.arm();
      changes.changed();
      return { ok: true, key: 'service.done.stationEnrol', values: { station } };
    },

    revoke(station, authorisedBy) {
      const st = d.stadium;
      if (!st || !st.revoke(station, authorisedBy)) return refusedBy(serviceSaid('stationNoCredential', { station }));
      journalDiscarded(enrolments.discard(station, 'revoked'));
      journal.action(authorisedBy, 'station-revoke', actDetailSaid('actStation', { station }));
      changes.changed();
      return { ok: true, key: 'service.done.stationRevoke', values: { station } };
    },

    takeEnrolment(station, by) {
      const r = enrolments.take(station, by);
      journalDiscarded(r.discarded);
      if (r.file === null) {
        journal.action([by.who], 'enrolment-refused', actDetailSaid(ENROLMENT_REFUSED[r.refused ?? 'no-file'], { station, session: by.enterSeq }));
        d.log.warn({ station, who: by.who, reason: r.refused }, 'enrolment file refused');
      } else {
        journal.action([by.who], 'enrolment-download', actDetailSaid('actEnrolmentDownload', { station, session: by.enterSeq }));
        d.log.info({ station, who: by.who }, 'enrolment file downloaded');
      }
      changes.changed();
      return r.file;
    },

    sessionEnded(enterSeq) {
      const gone = enrolments.sessionEnded(enterSeq);
      journalDiscarded(gone);
      if (gone.length > 0) changes.changed();
    },

    dispose: () => timer.dispose(),
  };
}

/** The Remote stations page: the LAN address, the certificate, each station; a download offered to the enrolling session only. */
function stationRows(st: StadiumService | undefined, enrolments: EnrolmentDownloads, viewer: number): ReturnType<StationsPart['page']> {
  if (!st) return { lan: null, fingerprint: null, stations: [] };
  return {
    lan: st.lan(),
    fingerprint: st.fingerprint(),
    stations: st.stations().map((station) => {
      const at = st.enrolledAt(station);
      return {
        station,
        enrolled: at !== null,
        ...(at !== null ? { enrolledAt: at } : {}),
        screen: st.screenConnected(station),
        acceptor: st.acceptorConnected(station),
        // Offered to the enrolling session only: any other would be refused.
        ...(enrolments.waitsFor(station, viewer) ? { download: true } : {}),
      };
    }),
  };
}

/**
 * A timer at the next file's deadline: files past it are discarded (handed to `expired`), then it
 * is set for the next. A throw of `expired` is logged: out of a timer it would end the host.
 */
export function expiryTimer<K extends number | string>(
  enrolments: EnrolmentDownloads<K>,
  now: () => number,
  expired: (gone: readonly DiscardedFile<K>[]) => void,
  log: Pick<Logger, 'error'>,
): { arm(): void; dispose(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    const next = enrolments.nextDeadline();
    if (next === null) return;
    timer = setTimeout(
      () => {
        timer = null;
        try {
          expired(enrolments.expire());
        } catch (err) {
          log.error({ err }, 'enrolment files expired and were discarded; what follows their discard failed');
        }
        arm();
      },
      Math.max(0, next - now()) + 10,
    );
    timer.unref();
  };
  return {
    arm,
    dispose: () => {
      if (timer) clearTimeout(timer);
    },
  };
}
