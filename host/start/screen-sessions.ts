import type { Logger } from 'pino';
import type { LaunchTokens } from '../screens/launch-tokens.js';
import type { OutboxCounters } from '../screens/outbox.js';
import { RefusalLog } from '../screens/refusal-log.js';
import { ScreenSession, type ScreenTransport } from '../screens/screen-session.js';
import type { RemoteStationConnections } from '../screens/station-connections.js';
import type { ViewHub } from '../screens/view-hub.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import type { HostOptions, HostScreens } from './host-options.js';

export interface ScreenSessions {
  /** A screen connection over any transport; `unlimited`: no incoming rate limit (the simulated players). */
  openSession(transport: ScreenTransport, unlimited?: boolean): ScreenSession;
  sent: HostScreens['sent'];
  /** Says the refusals still held back; the host is stopping. */
  close(): void;
}

/** The screen connections: each a session on the hub, counted live by the metrics and summed for the benchmarks. */
export function screenSessions(
  options: HostOptions,
  w: {
    hub: ViewHub;
    tokens: LaunchTokens;
    log: Logger;
    remoteStations: RemoteStations;
    connections: RemoteStationConnections;
    /** The live sessions (the metrics' connected screens). */
    sessions: Set<ScreenSession>;
  },
): ScreenSessions {
  // One sampler for every screen: a station that reconnects and floods again logs no more.
  const refusals = new RefusalLog(w.log);
  const sessionOptions = {
    remoteStations: w.remoteStations,
    connections: w.connections,
    refusals,
    ...(options.sendBuffer !== undefined ? { limits: { highWater: options.sendBuffer, maxReplies: 64 } } : {}),
    ...(options.incoming ? { incoming: options.incoming } : {}),
  };
  const sent = { sessions: 0, messages: 0, bytes: 0, superseded: 0, kinds: {} as OutboxCounters['kinds'] };
  const openSessions = new Set<ScreenSession>();
  const openSession = (transport: ScreenTransport, unlimited = false) => {
    // `sessions`: the live ones (the metrics' connected screens); `openSessions` keep their send counters until summed.
    const options = { ...sessionOptions, onDispose: (x: ScreenSession) => w.sessions.delete(x), ...(unlimited ? { incoming: null } : {}) };
    const session = new ScreenSession(w.hub, w.tokens, transport, w.log, options);
    w.sessions.add(session);
    openSessions.add(session);
    sent.sessions++;
    return session;
  };
  // Sessions' counters are summed when asked; a closed session's are kept in `sent`.
  const sentNow = () => {
    const out = { ...sent, kinds: {} };
    addKinds(out.kinds, sent.kinds);
    for (const s of [...openSessions]) {
      const c = s.outbox.counters;
      if (s.closed()) {
        sent.messages += c.sent;
        sent.bytes += c.bytes;
        sent.superseded += c.superseded;
        addKinds(sent.kinds, c.kinds);
        openSessions.delete(s);
      }
      out.messages += c.sent;
      out.bytes += c.bytes;
      out.superseded += c.superseded;
      addKinds(out.kinds, c.kinds);
    }
    return out;
  };
  return { openSession, sent: sentNow, close: () => refusals.close() };
}

function addKinds(to: OutboxCounters['kinds'], from: OutboxCounters['kinds']): void {
  for (const [kind, k] of Object.entries(from)) {
    const t = (to[kind] ??= { messages: 0, bytes: 0 });
    t.messages += k.messages;
    t.bytes += k.bytes;
  }
}
