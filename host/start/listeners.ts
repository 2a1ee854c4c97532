import type { HostMetrics } from '../metrics/host-metrics.js';
import { listenRemembering } from '../recovery/port-memory.js';
import type { ScreenTransport, ScreenSession } from '../screens/screen-session.js';
import type { ConnectionLimits } from '../limits/connection-guard.js';
import { createHttpServer, type HttpServerDeps } from '../server/http-server.js';
import { createLanServer, type LanServerDeps } from '../server/lan-server.js';
import type { RemoteAcceptors } from '../devices/remote-acceptors.js';
import type { ServiceHost } from '../service/service-host.js';
import { tableCertificate, type TableCertificate } from '../stadium/table-certificate.js';
import type { TableConfig } from '../config/table-config.js';
import type { HostOptions } from './host-options.js';
import type { Opened } from './opened.js';

type HttpServer = Awaited<ReturnType<typeof createHttpServer>>;
type LanServer = Awaited<ReturnType<typeof createLanServer>>;

/**
 * The loopback web server (screens, service exports, /healthz, /metrics, the simulated devices'
 * controls), on the port the previous run had after an unclean stop.
 */
export async function openHttp(
  dataDir: string,
  options: HostOptions,
  { config, log, syncEvents }: Pick<Opened, 'config' | 'log' | 'syncEvents'>,
  w: {
    openSession: (transport: ScreenTransport) => ScreenSession;
    service: ServiceHost;
    metrics: HostMetrics;
    health: HttpServerDeps['health'];
    simControls: HttpServerDeps['simControls'] | null;
  },
): Promise<HttpServer> {
  return listenRemembering(dataDir, options.port ?? 0, !syncEvents.clean, (port) =>
    createHttpServer(
      {
        openSession: w.openSession,
        log,
        ...(w.simControls ? { simControls: w.simControls } : {}),
        serviceExport: (token, kind, roundId, language) => w.service.exportFile(token, kind, roundId, language),
        connections: listenerLimits(config, 'local'),
        onGuardClose: (reason) => w.metrics.connectionClosed('local', reason),
        rendererDir: options.rendererDir,
        ...(options.metricsToken ? { metrics: { token: options.metricsToken, contentType: w.metrics.contentType, text: () => w.metrics.text() } } : {}),
        health: w.health,
      },
      port,
    ),
  );
}

/** The LAN listener (TLS, the table's own certificate) for remote stations; none when the table takes none. */
export async function openLan(
  dataDir: string,
  options: Pick<HostOptions, 'deviceLink'>,
  { config, log }: Pick<Opened, 'config' | 'log'>,
  w: {
    openSession: (transport: ScreenTransport) => ScreenSession;
    remoteAcceptors: RemoteAcceptors;
    metrics: HostMetrics;
    /** The peer tables' links (`/peer`), when the table has peers: the listener opens for them too. */
    openPeer?: LanServerDeps['openPeer'];
  },
): Promise<{ lan: LanServer | null; certificate: TableCertificate | null }> {
  if (config.remoteStations <= 0 && !w.openPeer) return { lan: null, certificate: null };
  const certificate = await tableCertificate(dataDir, config.tableId, [config.lan.host]);
  const lan = await createLanServer(
    {
      log,
      openSession: w.openSession,
      openDevice: (send, close, allow, clientLog) => w.remoteAcceptors.open(send, close, allow, clientLog),
      ...(options.deviceLink ? { deviceLink: options.deviceLink } : {}),
      ...(w.openPeer ? { openPeer: w.openPeer } : {}),
      certificate,
      connections: listenerLimits(config, 'lan'),
      onGuardClose: (reason) => w.metrics.connectionClosed('lan', reason),
    },
    config.lan.host,
    config.lan.port,
  );
  log.info({ lan: `${lan.host}:${lan.port}`, fingerprint: certificate.fingerprint, remoteStations: config.remoteStations }, 'listening for remote stations');
  return { lan, certificate };
}

/** A listener's hello deadline and caps, as the table's configuration sets them. */
function listenerLimits(config: TableConfig, listener: 'local' | 'lan'): ConnectionLimits {
  return { helloMs: Math.round(config.connections.helloSeconds * 1000), ...config.connections[listener] };
}
