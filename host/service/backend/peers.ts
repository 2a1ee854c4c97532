import type { ServiceBackend } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps } from './deps.js';

/**
 * The peer tables, added and removed by two people (issue 50 item 4). The registry journals each
 * change itself (`peer.credential`, both names, a digest), before it writes the files.
 */
export function peerActions(d: Pick<LiveBackendDeps, 'peers' | 'log'>, changes: Changes): Pick<ServiceBackend, 'addPeer' | 'revokePeer' | 'peerTables'> {
  return {
    peerTables: () => d.peers?.list() ?? { transfers: false, peers: [] },
    addPeer(enrolment, stations, authorisedBy) {
      if (!d.peers) return { ok: false, code: 'not-available', detail: 'this host keeps no peer tables' };
      const r = d.peers.add(enrolment, stations, authorisedBy);
      if (!r.ok) return { ok: false, code: 'refused', detail: r.detail };
      changes.changed();
      return { ok: true, key: 'service.done.peerAdd', values: { table: r.table } };
    },
    revokePeer(table, authorisedBy) {
      if (!d.peers) return { ok: false, code: 'not-available', detail: 'this host keeps no peer tables' };
      const r = d.peers.revoke(table, authorisedBy);
      if (!r.ok) return { ok: false, code: 'refused', detail: r.detail };
      changes.changed();
      return { ok: true, key: 'service.done.peerRevoke', values: { table: r.table } };
    },
  };
}
