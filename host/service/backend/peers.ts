import { EnrolmentDownloads, type DiscardedFile, type EnrolmentDiscard, type EnrolmentRefusal } from '../../stadium/enrolment-downloads.js';
import { serviceSaid } from '../../../locales/said.js';
import { refusedBy } from '../refusal-words.js';
import type { BackendResult, PeersPart } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps } from './deps.js';
import { expiryTimer } from './enrolment.js';
import { actDetailSaid, recordOrLog, type ServiceJournal } from './service-journal.js';

const REFUSED = {
  'no-file': 'actPeerRefusedNoFile',
  'other-session': 'actPeerRefusedOtherSession',
  expired: 'actPeerRefusedExpired',
} as const satisfies Record<EnrolmentRefusal, string>;
const DISCARDED = {
  expired: 'actPeerDiscardedExpired',
  'session-ended': 'actPeerDiscardedSessionEnded',
  revoked: 'actPeerDiscardedRevoked',
  're-enrolled': 'actPeerDiscardedReEnrolled',
} as const satisfies Record<EnrolmentDiscard, string>;

/** A peer's enrolment file's act as the journal says it: the phrase, the table (its id cut to 64) and the session. */
const peerFileSaid = (phrase: Parameters<typeof actDetailSaid>[0], table: string, session: number) =>
  actDetailSaid(phrase, { table: table.slice(0, 64), session });

/** A credential action's refusal, with the screen's words for its reason (the table's id as typed, cut to 64). */
const credentialRefused = (r: { detail: string; reason: string }, table: string): BackendResult => ({
  ok: false,
  code: 'refused',
  detail: r.detail,
  notice: { key: `service.peers.refused.${r.reason}`, values: { table: table.slice(0, 64) } },
});

/** An enrolment file refused, with the screen's words for why (`service.peers.fileRefused.*`). */
const fileRefused = (r: { detail: string; refusal: string }): BackendResult => ({
  ok: false,
  code: 'refused',
  detail: r.detail,
  notice: { key: `service.peers.fileRefused.${r.refusal}`, values: {} },
});

export type PeerActions = PeersPart & {
  sessionEnded(enterSeq: number): void;
  dispose(): void;
};

/**
 * The peer tables, added and removed by two people (issue 50 item 4). The registry journals each
 * change itself (`peer.credential`, both names, a digest), before it writes the files. This
 * table's enrolment file for a peer (a new credential to dial this table with) waits, as a remote
 * station's does, for one download by the session that asked for it, within 5 minutes: its secret
 * is kept nowhere else (the credentials file has its hash). Downloads, refusals and discarded files
 * are journalled (`service.action`).
 */
export function peerActions(d: Pick<LiveBackendDeps, 'peers' | 'log'>, now: () => number, journal: ServiceJournal, changes: Changes): PeerActions {
  const files = new EnrolmentDownloads<string>(now);
  const journalDiscarded = (gone: readonly DiscardedFile<string>[]): void => {
    // Gone whatever the journal says, from a timer or a session's end too: a refused record is logged (as a station's file's).
    for (const f of gone) recordOrLog(journal, d.log, [f.owner.who], 'peer-file-discarded', peerFileSaid(DISCARDED[f.why], f.station, f.owner.enterSeq));
  };
  const expired = (gone: readonly DiscardedFile<string>[]): void => {
    journalDiscarded(gone);
    if (gone.length > 0) changes.changed();
  };
  const timer = expiryTimer(files, now, expired, d.log);
  return {
    page(viewer) {
      const page = d.peers?.list() ?? { transfers: false, open: [], peers: [] };
      return { ...page, peers: page.peers.map((p) => (files.waitsFor(p.table, viewer) ? { ...p, download: true as const } : p)) };
    },
    add(enrolment, stations, authorisedBy) {
      if (!d.peers) return refusedBy(serviceSaid('peersNone'), 'not-available');
      const r = d.peers.add(enrolment, stations, authorisedBy);
      if (!r.ok) return fileRefused(r);
      changes.changed();
      return { ok: true, key: 'service.done.peerAdd', values: { table: r.table } };
    },
    revoke(table, authorisedBy) {
      if (!d.peers) return refusedBy(serviceSaid('peersNone'), 'not-available');
      const r = d.peers.revoke(table, authorisedBy);
      if (!r.ok) return credentialRefused(r, table);
      journalDiscarded(files.discard(table, 'revoked'));
      changes.changed();
      return { ok: true, key: r.unwritten ? 'service.done.peerRevokeUnwritten' : 'service.done.peerRevoke', values: { table: r.table } };
    },
    issueFile(table, authorisedBy, session) {
      if (!d.peers) return refusedBy(serviceSaid('peersNone'), 'not-available');
      const r = d.peers.issue(table, authorisedBy);
      if (!r.ok) return credentialRefused(r, table);
      // Its credential journalled, not written (a full disk): a file that cannot work is not handed out, nor an older one.
      journalDiscarded(r.unwritten ? files.discard(r.table, 're-enrolled') : files.hold(r.table, r.file, session));
      changes.changed();
      if (r.unwritten) return { ok: false, code: 'refused', detail: r.unwritten, notice: { key: 'service.peers.issueUnwritten', values: { table: r.table } } };
      timer.arm();
      return { ok: true, key: 'service.done.peerIssue', values: { table: r.table } };
    },
    withdraw(table, authorisedBy) {
      if (!d.peers) return refusedBy(serviceSaid('peersNone'), 'not-available');
      const r = d.peers.withdraw(table, authorisedBy);
      if (!r.ok) return credentialRefused(r, table);
      journalDiscarded(files.discard(r.table, 'revoked'));
      changes.changed();
      return { ok: true, key: r.unwritten ? 'service.done.peerWithdrawUnwritten' : 'service.done.peerWithdraw', values: { table: r.table } };
    },
    settle(serial, as, reference, authorisedBy) {
      if (!d.peers) return refusedBy(serviceSaid('peersNone'), 'not-available');
      const r = d.peers.settle(serial, as, reference, authorisedBy);
      if (!r.ok) return { ok: false, code: 'refused', detail: r.detail, notice: { key: `service.peers.settleRefused.${r.reason}`, values: { serial } } };
      changes.changed();
      return { ok: true, key: as === 'completed' ? 'service.done.transferSettleCompleted' : 'service.done.transferSettleReversed', values: { serial } };
    },
    takeFile(table, by) {
      const r = files.take(table, by);
      journalDiscarded(r.discarded);
      if (r.file === null) {
        journal.action([by.who], 'peer-file-refused', peerFileSaid(REFUSED[r.refused ?? 'no-file'], table, by.enterSeq));
        d.log.warn({ peer: table.slice(0, 64), who: by.who, reason: r.refused }, 'peer enrolment file refused');
      } else {
        journal.action([by.who], 'peer-file-download', peerFileSaid('actPeerDownload', table, by.enterSeq));
        d.log.info({ peer: table, who: by.who }, 'peer enrolment file downloaded');
      }
      changes.changed();
      return r.file;
    },
    sessionEnded(enterSeq) {
      const gone = files.sessionEnded(enterSeq);
      journalDiscarded(gone);
      if (gone.length > 0) changes.changed();
    },
    dispose: () => timer.dispose(),
  };
}
