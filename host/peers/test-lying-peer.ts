import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { TableId } from '../../terms/transfer-terms.js';
import type { TableCertificate } from '../stadium/table-certificate.js';
import type { PeerEnrolment } from './peer-config.js';

/**
 * A peer table `table` that holds its enrolled certificate (a real but lying table, or a wedged
 * one) on `/peer`, answering each hello with `onHello` (its socket and the TCP socket under it);
 * and the enrolment this host dials it with. For the tests of the link this host dials.
 */
export async function lyingPeer(cert: TableCertificate, table: TableId, onHello: (ws: WebSocket, socket: Socket) => void) {
  const server: Server = createServer({ key: cert.key, cert: cert.cert });
  const wss = new WebSocketServer({ server, path: '/peer' });
  let hellos = 0;
  wss.on('connection', (ws, req) =>
    ws.once('message', () => {
      hellos++;
      onHello(ws, req.socket);
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the lying peer has no TCP port');
  const enrolment: PeerEnrolment = {
    table,
    url: `https://127.0.0.1:${address.port}`,
    certificate: cert.cert,
    fingerprint: cert.fingerprint,
    secret: 's'.repeat(43),
  };
  return {
    enrolment,
    hellos: () => hellos,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise((r) => server.close(r));
    },
  };
}
