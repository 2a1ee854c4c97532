// One edge of the stadium bench (issue 55): a process of its own, as an edge is a machine of its
// own, holding its share of the stations' connections for the host's table on NATS.
import path from 'node:path';
import { connect } from 'nats';
import pino from 'pino';
import { Edge } from '../../host/edges/edge.js';
import { createEdgeServer } from '../../host/edges/edge-server.js';
import { natsTls, type NatsPin } from '../../host/edges/nats-tls.js';
import { edgeInbox } from '../../host/edges/subjects.js';
import { tableCertificate } from '../../host/stadium/table-certificate.js';

export type FromEdge =
  | { type: 'ready'; origin: string; certificate: string; fingerprint: string }
  | { type: 'report'; bytes: number; messages: number; cpuMs: number; rss: number; writes: number };
export type ToEdge = { type: 'mark' } | { type: 'report' } | { type: 'stop' };

const arg = JSON.parse(process.env.STADIUM_EDGE ?? '{}') as {
  name: string;
  nats: string;
  /** The NATS server's certificate, pinned; null: NATS in clear (the bench's comparison). */
  pin: NatsPin | null;
  tableId: string;
  dir: string;
};
const send = (m: FromEdge) => void (process.connected && process.send?.(m));
const log = pino({ level: 'silent' });
const nc = await connect({
  servers: arg.nats,
  maxReconnectAttempts: -1,
  reconnectTimeWait: 100,
  inboxPrefix: edgeInbox(arg.name),
  noAsyncTraces: true,
  ...(arg.pin ? { tls: natsTls(arg.pin) } : {}),
});
const edge = await Edge.start({ name: arg.name, tableId: arg.tableId, nc, log });
const certificate = await tableCertificate(path.join(arg.dir, arg.name), arg.name, ['127.0.0.1']);
// Every client of the bench dials from 127.0.0.1 (up to 1,000 stations an edge, and their redials): the caps out of its way.
const server = await createEdgeServer(edge, { log, certificate, host: '127.0.0.1', port: 0, caps: { perAddress: 4096, total: 4096 } });
let cpu0 = process.cpuUsage();
let sent0 = server.sent();
let writes0 = server.writes();
let rss = 0;
// `rss()` alone, once a second: the whole of `memoryUsage()` every 200 ms was 2–8% of an edge's
// CPU in its profile, and `rss()` every 200 ms still 7% of an edge's busy time at 250 stations
// (28 November): the bench's own cost, counted in the edge's CPU a coup.
const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage.rss())), 1000);
let stopped = false;
const stop = () => {
  if (stopped) return;
  stopped = true;
  clearInterval(sampler);
  void server
    .close()
    .then(() => edge.close())
    .then(() => nc.close())
    .finally(() => process.exit(0));
};
// The host gone (its IPC channel closed, even by SIGKILL): the edge stops too.
process.on('disconnect', stop);
process.on('message', (m: ToEdge) => {
  if (m.type === 'mark') {
    cpu0 = process.cpuUsage();
    sent0 = server.sent();
    writes0 = server.writes();
    rss = 0;
  } else if (m.type === 'report') {
    const cpu = process.cpuUsage(cpu0);
    const sent = server.sent();
    send({
      type: 'report',
      bytes: sent.bytes - sent0.bytes,
      messages: sent.messages - sent0.messages,
      cpuMs: (cpu.user + cpu.system) / 1000,
      rss,
      writes: server.writes() - writes0,
    });
  } else stop();
});
send({ type: 'ready', origin: server.origin, certificate: certificate.cert, fingerprint: certificate.fingerprint });
