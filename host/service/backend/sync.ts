import { serviceSaid } from '../../../locales/said.js';
import { refusedBy } from '../refusal-words.js';
import type { SyncPart } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';
import { recordedFirst, type ServiceJournal } from './service-journal.js';

/** The upstream link's state, and a retry now. */
export function upstreamSync(d: Pick<LiveBackendDeps, 'sync' | 'log'>, journal: ServiceJournal): SyncPart {
  return {
    summary() {
      if (!d.sync) return null;
      const s = d.sync.status();
      return {
        state: s.state,
        upstream: s.upstream,
        ackedSeq: s.ackedSeq,
        headSeq: s.headSeq,
        lagEntries: s.lagEntries,
        lagSeconds: s.lagSeconds,
        // Why, by a reason the screen words; the error's text stays in the log (host/start-host.ts) and the anchor.
        // A failure recorded before this run (the anchor's text alone) has no reason: `other`.
        lastError: s.lastError === null && s.lastErrorReason === null ? null : (s.lastErrorReason ?? { reason: 'other' }),
        lastErrorAt: s.lastErrorAt,
        lastSuccessAt: s.lastSuccessAt,
      };
    },

    retry(who) {
      if (!d.sync) return refusedBy(serviceSaid('syncNoUpstream'));
      // Journalled first: a retry the journal has no record of is never kicked.
      const refused = recordedFirst(journal, d.log, [who], 'sync-retry', '');
      if (refused) return refused;
      d.sync.kick();
      return { ok: true, key: 'service.done.syncRetry' };
    },
  };
}
