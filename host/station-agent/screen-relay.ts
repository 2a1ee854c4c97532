import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { LogController } from 'fastify';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { decodeClientMessage, decodeHostMessage, encode, MAX_MESSAGE_BYTES, protocolError, stationView, ViewComposer } from '../../protocol/index.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { screenCsp } from '../server/security-headers.js';

export interface ScreenRelayOptions {
  enrolment: EnrolmentFile;
  log: Logger;
  /** The built renderer (`dist/renderer`): the station's screen is served from this machine. */
  rendererDir: string;
  /** Opens a link to the table's `/ws` over the pinned TLS settings. */
  connect: () => WebSocket;
  port?: number;
}

/**
 * The station's own screen, served to the browser on this machine (loopback only) and relayed
 * to the table: the browser proves it is the window the agent opened with a local launch token,
 * and the agent presents the station's credential to the table in its place, so the secret never
 * reaches the browser and the browser never reaches the LAN. Every other message passes as it is
 * (the table grants this station's view and nothing else), but for the parts of the view: the
 * relay applies each patch to its own copy of the view and passes on only what applied, so the
 * screen behind it is never handed a patch that does not follow what it was handed before.
 */
export async function startScreenRelay(o: ScreenRelayOptions): Promise<{ url: string; token: string; port: number; close: () => Promise<void> }> {
  const token = randomBytes(24).toString('base64url');
  const view = stationView(o.enrolment.station);
  const app = Fastify({ loggerInstance: o.log, logController: new LogController({ disableRequestLogging: true }), bodyLimit: 1024 });
  await app.register(fastifyWebsocket, { options: { maxPayload: 4 * MAX_MESSAGE_BYTES } });
  let hosts = new Set<string>();
  app.addHook('onRequest', async (req, reply) => {
    if (!hosts.has(req.headers.host ?? '')) return reply.code(421).send({ error: 'misdirected request' });
  });
  app.get('/ws', { websocket: true }, (local, req) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.has(origin.replace(/^https?:\/\//, ''))) return local.close(1008, 'origin');
    let upstream: WebSocket | null = null;
    const early: string[] = [];
    let greeted = false;
    const refuse = (code: 'unauthorized' | 'hello-required', detail: string) => {
      local.send(encode(protocolError(code, detail)));
      local.close(1008, code);
    };
    local.on('message', (data) => {
      const text = String(data);
      if (!greeted) {
        const d = decodeClientMessage(text);
        if (!d.ok || d.message.type !== 'hello') return refuse('hello-required', 'hello with the local launch token first');
        const given = Buffer.from(d.message.token);
        const mine = Buffer.from(token);
        if (given.length !== mine.length || !timingSafeEqual(given, mine)) return refuse('unauthorized', 'unknown launch token');
        greeted = true;
        // The table hears the station's credential, with the browser's own message id.
        early.push(
          JSON.stringify({
            type: 'hello-station',
            id: d.message.id,
            protocol: d.message.protocol,
            station: o.enrolment.station,
            secret: o.enrolment.secret,
          }),
        );
        const up = o.connect();
        upstream = up;
        up.on('open', () => {
          for (const m of early.splice(0)) up.send(m);
        });
        // The relay holds the station's view as the screen does: each patch from the table is
        // applied to its copy first. One that does not follow it (lost on the LAN's way, or
        // altered) is not passed on; the relay asks the table for the part whole in the screen's
        // place, and the whole part passes on when it comes.
        let asked = 0;
        const copy = new ViewComposer(view, { resync: (parts) => sendUp(JSON.stringify({ type: 'resync', id: `relay-${++asked}`, view, parts })) });
        const sendUp = (text: string) => {
          if (up.readyState === up.OPEN) up.send(text);
        };
        up.on('message', (data) => {
          const text = String(data);
          const d = decodeHostMessage(text);
          if (!d.ok) return o.log.warn({ detail: d.error.detail }, 'the table sent a message that fails its schema: not passed on');
          const m = d.message;
          const part = m.type === 'snapshot' || m.type === 'public' || m.type === 'patch' || m.type === 'public-patch';
          if (part && !copy.apply(m)) return;
          if (local.readyState === local.OPEN) local.send(text);
        });
        up.on('close', () => local.close(1012, 'table link closed'));
        up.on('error', (err) => o.log.warn({ err: err.message }, 'screen link to the table failed'));
        return;
      }
      const up = upstream;
      if (up && up.readyState === up.OPEN) up.send(text);
      else early.push(text);
    });
    local.on('close', () => upstream?.close());
  });
  if (existsSync(o.rendererDir)) {
    await app.register(fastifyStatic, { root: o.rendererDir, prefix: '/', index: false });
    app.get(`/${view}`, (req, reply) => {
      reply.header('Content-Security-Policy', screenCsp([`ws://${req.headers.host}`]));
      reply.header('Cache-Control', 'no-store');
      return reply.sendFile('index.html', { cacheControl: false });
    });
  } else o.log.warn({ rendererDir: o.rendererDir }, 'renderer not built: the station screen is not served (npm run build:renderer)');
  await app.listen({ host: '127.0.0.1', port: o.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (o.port ?? 0);
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return { url: `http://127.0.0.1:${port}/${view}?token=${encodeURIComponent(token)}`, token, port, close: () => app.close() };
}
